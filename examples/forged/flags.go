package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net/netip"
	"time"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge/hooks"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/forge/site"
	"github.com/hearthforge/hearth/httpapi"
	"github.com/hearthforge/hearth/quota"
	"github.com/hearthforge/hearth/storage/gitstore"
)

// options are forged's settings after flags and environment.
type options struct {
	addr, data, adminUser, adminEmail, adminPassword string
	resetAdminPassword                               bool
	bodyGrace                                        time.Duration
	bodyMinRate                                      int
	maxPushBytes                                     int64
	trustedProxies                                   []netip.Prefix
	pprof                                            string
	webhookPolicy                                    hooks.AddressPolicy
	allowLocalMigrations                             bool
	quota                                            quota.Config // -quota*: Forgejo's [quota]
	limits                                           limits
	blobSweep                                        time.Duration // -blob-sweep-interval (site.Config.BlobSweep)
	blob                                             string        // -blob: "" (data/blobs) or s3://…
	db                                               string        // -db: "" (data/hearth.db) or postgres://… (database.go)
	federation                                       bool          // -federation: Forgejo's [federation] ENABLED
	signingGPG, signingSSH                           string        // -signing-key-gpg, -signing-key-ssh (signing.go)
	sshAddr                                          string        // -ssh-addr: git over SSH ("" off)
}

// limits are forged's limits flags (README "Limits"); zero takes each
// library's default.
type limits struct {
	server                      httpapi.ServerLimits
	maxBodyBytes, maxUpload     int64
	maxFilesPerCommit           int
	maxConcurrentHashes         int
	signinFailures, addrFailure int
	rate                        httpapi.RateLimit
}

func parseFlags(args []string, getenv func(string) string, stderr io.Writer) (options, error) {
	var o options
	fs := flag.NewFlagSet("forged", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.addr, "addr", "127.0.0.1:3000", "address to listen on")
	fs.StringVar(&o.data, "data", "forged-data", "data directory (SQLite database, later repositories and blobs)")
	fs.StringVar(&o.adminUser, "admin-user", envOr(getenv, "FORGED_ADMIN_USER", "root"),
		"administrator to create on a start with none (env FORGED_ADMIN_USER)")
	fs.StringVar(&o.adminEmail, "admin-email", getenv("FORGED_ADMIN_EMAIL"),
		"its e-mail; <admin-user>@localhost.localdomain when empty (env FORGED_ADMIN_EMAIL)")
	fs.StringVar(&o.adminPassword, "admin-password", getenv("FORGED_ADMIN_PASSWORD"),
		"its password; generated and printed once when empty (env FORGED_ADMIN_PASSWORD); ignored once an administrator exists")
	fs.BoolVar(&o.resetAdminPassword, "reset-admin-password", false,
		"set the password of -admin-user to -admin-password (generated and printed when empty) and exit")
	fs.DurationVar(&o.bodyGrace, "body-grace", 30*time.Second, "time a request body may take before -body-min-rate applies")
	fs.IntVar(&o.bodyMinRate, "body-min-rate", 1024, "minimum average rate of a request body, in bytes per second")
	fs.Int64Var(&o.maxPushBytes, "max-push-bytes", gitstore.DefaultMaxPushBytes,
		"largest git push accepted over smart HTTP (413 past it) or SSH, in bytes (decoded); larger pushes change nothing; -1: no limit")
	proxies := fs.String("trusted-proxies", "",
		"comma-separated networks (CIDR) or addresses of reverse proxies whose X-Forwarded-For gives the client address "+
			"for the failed sign-in throttle; empty: the connection's address")
	fs.StringVar(&o.pprof, "pprof", "", "serve net/http/pprof on this loopback address (e.g. 127.0.0.1:6060); empty: off")
	allowed := fs.String("webhook-allowed-hosts", "",
		"comma-separated hosts webhooks may reach, as Forgejo's [webhook] ALLOWED_HOST_LIST: loopback, private, external, *, "+
			"CIDRs and host-name globs; empty: external (use loopback for receivers on this machine)")
	fs.IntVar(&o.limits.server.MaxHeaderBytes, "max-header-bytes", httpapi.DefaultServerLimits.MaxHeaderBytes,
		"largest request line and headers, in bytes (431 past it)")
	fs.DurationVar(&o.limits.server.ReadHeaderTimeout, "read-header-timeout", httpapi.DefaultServerLimits.ReadHeaderTimeout,
		"time a client has to send its request headers")
	fs.DurationVar(&o.limits.server.IdleTimeout, "idle-timeout", httpapi.DefaultServerLimits.IdleTimeout, "idle keep-alive connections close after this")
	fs.Int64Var(&o.limits.maxBodyBytes, "max-body-bytes", httpapi.DefaultMaxBodyBytes, "largest JSON request body, in bytes (413 past it)")
	fs.Int64Var(&o.limits.maxUpload, "max-upload-bytes", httpapi.DefaultMaxUploadBytes,
		"largest uploaded file (issue attachment, release asset), in bytes (413 past it)")
	fs.IntVar(&o.limits.maxFilesPerCommit, "max-files-per-commit", repos.DefaultMaxFilesPerCommit,
		"most files one contents API commit may change (422 past it)")
	fs.IntVar(&o.limits.maxConcurrentHashes, "max-concurrent-hashes", auth.DefaultMaxConcurrentHashes,
		"password hashes (argon2id) computed at once; more sign-ins wait")
	fs.IntVar(&o.limits.signinFailures, "signin-failures", auth.DefaultThrottle.Free,
		"failed password sign-ins of one account from one address before that pair is locked (1 s, doubling to 15 min)")
	fs.IntVar(&o.limits.addrFailure, "signin-address-failures", auth.DefaultThrottle.AddressFree,
		"failed password sign-ins from one address, any account, before the address is locked")
	fs.Float64Var(&o.limits.rate.PerSecond, "rate-limit", httpapi.DefaultRateLimit.PerSecond,
		"expensive requests (archives, searches, diffs) a client may make per second, sustained (429 past it); negative: no limit")
	fs.IntVar(&o.limits.rate.Burst, "rate-burst", httpapi.DefaultRateLimit.Burst, "expensive requests a client may make at once")
	fs.BoolVar(&o.federation, "federation", false, "enable federation, as Forgejo's [federation] ENABLED: /api/v1/nodeinfo and /api/v1/activitypub exist only then (keys kept in the data directory's federation/)")
	fs.BoolVar(&o.quota.Enabled, "quota", false, "enable quotas, as Forgejo's [quota] ENABLED (the /quota API exists only then)")
	quotaGroups := fs.String("quota-default-groups", "", "comma-separated quota groups of accounts in none, as [quota] DEFAULT_GROUPS")
	quotaTotal := fs.String("quota-default-total", "", "size:all limit of accounts with no group, as [quota.default] TOTAL (e.g. 1GiB, 500MB); empty: unlimited")
	fs.BoolVar(&o.allowLocalMigrations, "allow-local-migrations", false,
		"let migrations and mirrors reach loopback addresses (refused by default, as Forgejo's [migrations] ALLOW_LOCALNETWORKS)")
	fs.DurationVar(&o.blobSweep, "blob-sweep-interval", time.Hour,
		"delete blobs no row points at (left by a crash between a blob's write and its row), older than one hour, this often; 0: off")
	fs.StringVar(&o.blob, "blob", "", "blob storage (attachments, assets, avatars, LFS, packages): empty for the data directory's blobs/, "+
		"or s3://bucket/prefix?endpoint=host:port&region=R&secure=true|false with AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY in the environment")
	fs.StringVar(&o.db, "db", "", dbFlagUsage)
	fs.StringVar(&o.signingGPG, "signing-key-gpg", "", "file of the host's armored OpenPGP signing key (private or public), "+
		"served public at /api/v1/signing-key.gpg; empty: none (an empty answer, as Forgejo)")
	fs.StringVar(&o.signingSSH, "signing-key-ssh", "", "file of the host's SSH signing key (authorized_keys line or unencrypted "+
		"private key), served public at /api/v1/signing-key.ssh; empty: none (404)")
	fs.StringVar(&o.sshAddr, "ssh-addr", "", "serve git over SSH on this address (e.g. 127.0.0.1:2222), with a host key made on first start "+
		"and kept in the data directory ("+site.HostKeyFile+"); empty: off")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if err := parseDBFlag(o.db); err != nil {
		return o, err
	}
	if err := parseBlobFlag(o.blob); err != nil {
		return o, err
	}
	o.quota.DefaultGroups, o.quota.DefaultTotal = splitList(*quotaGroups), quota.ParseSize(*quotaTotal)
	if o.pprof != "" {
		if err := checkPprofAddr(o.pprof); err != nil {
			return o, err
		}
	}
	var err error
	if o.webhookPolicy, err = hooks.ParseAddressPolicy([]string{*allowed}); err != nil {
		return o, fmt.Errorf("-webhook-allowed-hosts: %w", err)
	}
	if o.trustedProxies, err = parseTrustedProxies(*proxies); err != nil {
		return o, err
	}
	if o.adminEmail == "" {
		o.adminEmail = o.adminUser + "@localhost.localdomain"
	}
	if o.bodyGrace <= 0 || o.bodyMinRate <= 0 {
		return o, errors.New("-body-grace and -body-min-rate must be positive")
	}
	o.limits.rate.Disabled = o.limits.rate.PerSecond < 0
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	return o, nil
}

func envOr(getenv func(string) string, key, def string) string {
	if v := getenv(key); v != "" {
		return v
	}
	return def
}
