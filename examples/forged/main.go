// Command forged is Hearth's runnable forge server: SQLite storage in a data
// directory and the Forgejo-compatible API on /api/v1, with no other set-up.
// -db postgres://user@host:port/dbname?sslmode=disable puts the database on
// PostgreSQL instead (the password from PGPASSWORD or ~/.pgpass, never the
// URL), where several forged servers may share it, with a shared -data
// directory (git/, secret.key) and -blob.
//
//	go run ./examples/forged                 # 127.0.0.1:3000, data in ./forged-data
//	go run ./examples/forged -addr :8080 -data /srv/forge -admin-user alice
//
// On a start with no administrator it creates one (from -admin-user,
// -admin-email and -admin-password, or FORGED_ADMIN_USER, FORGED_ADMIN_EMAIL
// and FORGED_ADMIN_PASSWORD); without a password it generates one and prints
// it once. Once an administrator exists these are ignored (the log says so).
// A lost password is reset from the console, with the server stopped or
// running:
//
//	go run ./examples/forged -data /srv/forge -reset-admin-password [-admin-user alice] [-admin-password NEW]
//
// sets the password of -admin-user (generated and printed when
// -admin-password is empty), clears its must-change-password flag and exits.
//
// Behind a reverse proxy, name it with -trusted-proxies (networks or
// addresses, comma-separated): the failed sign-in throttle then takes each
// client's address from X-Forwarded-For instead of counting every client as
// the proxy. The throttle's counters live in the server's memory: a restart
// forgets them, and several forged processes count separately.
//
// Profiling on demand: -pprof 127.0.0.1:6060 serves net/http/pprof at
// /debug/pprof/ on that separate listener; only loopback addresses are
// accepted (forward the port to profile a remote server).
//
// Timeouts: request headers must arrive within 10 s (-read-header-timeout);
// an idle keep-alive connection closes after 2 minutes (-idle-timeout); a
// request body must keep arriving at
// -body-min-rate bytes a second on average after a grace of -body-grace, and
// no read may wait more than a minute, so a trickled body is cut off while a
// long git push at any real speed is not. No overall read or write timeout
// applies (clones and pushes may be long).
package main

import (
	"context"
	"crypto/rand"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/actions"
	"github.com/hearthforge/hearth/forge/hooks"
	"github.com/hearthforge/hearth/forge/hooks/hookhttp"
	"github.com/hearthforge/hearth/forge/notify"
	"github.com/hearthforge/hearth/forge/orgs"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/httpapi"
	"github.com/hearthforge/hearth/issues"
	"github.com/hearthforge/hearth/quota"
	"github.com/hearthforge/hearth/storage/gitstore"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr, nil); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "forged:", err)
		}
		os.Exit(1)
	}
}

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
	blobSweep                                        time.Duration // -blob-sweep-interval (sweep.go)
	blob                                             string        // -blob: "" (data/blobs) or s3://…
	db                                               string        // -db: "" (data/hearth.db) or postgres://… (database.go)
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
		"largest git push accepted over smart HTTP, in bytes (decoded); larger pushes get 413 and change nothing; -1: no limit")
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

// run serves until ctx is done. ready, if not nil, is called with the
// listening address once the server accepts connections.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer, ready func(addr string)) error {
	o, err := parseFlags(args, getenv, stderr)
	if err != nil {
		return err
	}
	log := slog.New(slog.NewTextHandler(stderr, nil))

	if err := os.MkdirAll(o.data, 0o750); err != nil {
		return fmt.Errorf("data directory: %w", err)
	}
	db, engine, err := openDatabase(ctx, o.db, o.data) // database.go
	if err != nil {
		return err
	}
	defer db.Close()
	log.Info("database", "engine", engine)

	secret, err := loadSecret(filepath.Join(o.data, "secret.key"))
	if err != nil {
		return err
	}
	authSvc, err := auth.New(auth.Config{Store: db.Auth(), Logger: log, SecretKey: secret,
		MaxConcurrentHashes: o.limits.maxConcurrentHashes,
		Throttle:            auth.Throttle{Free: o.limits.signinFailures, AddressFree: o.limits.addrFailure}})
	if err != nil {
		return err
	}
	if o.resetAdminPassword {
		return resetAdminPassword(ctx, authSvc, o, stdout)
	}
	if err := bootstrapAdmin(ctx, authSvc, o, stdout, log); err != nil {
		return err
	}
	git, err := gitstore.Open(filepath.Join(o.data, "git"))
	if err != nil {
		return err
	}
	defer git.Close() // ends the pooled cat-file processes
	blobs, err := openBlobs(ctx, o.blob, o.data, getenv, log)
	if err != nil {
		return err
	}
	defer startBlobSweeper(ctx, db, blobs, o.blobSweep, log)() // sweep.go
	pushes := &hookPushes{log: log}
	outbox := hooks.NewWake() // webhook events go through the outbox (outbox.go)
	repoHooks := &hookRepos{log: log}
	releaseHooks := &hookReleases{log: log}
	// Ref moves reach pull requests and push mirrors through the outbox.
	pullPush := &pullPushes{log: log}
	mirrorPush := &mirrorPushes{log: log}
	repoSvc, err := repos.New(repos.Config{Store: db.Repos(), Git: git, Blobs: blobs, Logger: log, MaxFilesPerCommit: o.limits.maxFilesPerCommit,
		Quota: o.quota, Outbox: outbox})
	if err != nil {
		return err
	}
	// Finish creations and deletions a crash interrupted.
	if _, err := repoSvc.Recover(ctx); err != nil {
		return err
	}

	orgSvc, err := orgs.New(orgs.Config{Store: db.Orgs(), Repos: repoSvc, Blobs: blobs, Logger: log})
	if err != nil {
		return err
	}
	// Notifications: issue events reach notify through issueEvents; notify
	// asks issues who takes part in an issue, so the listener learns the
	// notification service once both exist.
	events := &issueEvents{log: log}
	issueHooks := &hookIssues{log: log}
	issueSvc, err := issues.New(issues.Config{Store: db.Issues(), Repos: repoSvc, Orgs: orgSvc, Search: repoSearch{repoSvc}, Blobs: blobs, Logger: log,
		Listeners: []issues.Listener{events}, Outbox: outbox, Teams: orgSvc, Pulls: issues.PullConfig{Git: git, Repos: repoSvc}, Quota: o.quota})
	if err != nil {
		return err
	}
	pullPush.svc = issueSvc
	issueHooks.pulls, issueHooks.teams, issueHooks.repos = issueSvc, orgTeamMembers{db.Orgs()}, storeRepos{db.Repos()}

	notifySvc, err := notify.New(notify.Config{Store: db.Notify(), Repos: repoSvc, Watchers: repoSvc, Participants: issueSvc, Logger: log})
	if err != nil {
		return err
	}
	events.notify = notifySvc

	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	if o.pprof != "" {
		if err := servePprof(ctx, o.pprof, log); err != nil {
			ln.Close()
			return err
		}
	}
	// Actions secrets are sealed under the key auth seals TOTP secrets with.
	actSvc, err := actions.New(actions.Config{Store: db.Actions(), Key: secret, Repos: repoSvc, Orgs: orgSvc, Logger: log})
	if err != nil {
		ln.Close()
		return err
	}
	hookSvc, err := hooks.New(hooks.Config{Store: db.Hooks(), Repos: repoSvc, Orgs: orgSvc, Logger: log, SecretKey: secret, Commits: pushCommits{git}, Files: repoFiles{git},
		Sender: hookhttp.New(o.webhookPolicy), RootURL: "http://" + ln.Addr().String() + "/"})
	if err != nil {
		ln.Close()
		return err
	}
	pushes.svc, issueHooks.svc, repoHooks.svc = hookSvc, hookSvc, hookSvc
	releaseHooks.svc = hookSvc
	// The webhook worker runs as long as the server, and stops with it.
	hookCtx, stopHooks := context.WithCancel(ctx)
	hookDone := make(chan struct{})
	go func() {
		defer close(hookDone)
		if err := hookSvc.Run(hookCtx); err != nil {
			log.Error("webhook worker", "err", err)
		}
	}()
	defer func() { stopHooks(); <-hookDone }()
	// The pull request checker (issues.Service.Run) re-checks the pull
	// requests a ref move queued, and those still checking at start.
	checkCtx, stopChecks := context.WithCancel(ctx)
	checkDone := make(chan struct{})
	go func() {
		defer close(checkDone)
		if err := issueSvc.Run(checkCtx); err != nil {
			log.Error("pull request checker", "err", err)
		}
	}()
	defer func() { stopChecks(); <-checkDone }()
	quotaSvc, err := quota.New(quota.ServiceConfig{Store: db.Quota(), Quota: o.quota, Orgs: orgSvc})
	if err != nil {
		return err
	}
	mirrorSvc, stopMirrors, err := startMirrors(ctx, db, repoSvc, git, secret, o.allowLocalMigrations, o.data, ln.Addr().String(), log)
	if err != nil {
		ln.Close()
		return err
	}
	defer stopMirrors()
	mirrorPush.svc = mirrorSvc
	// Every consumer exists: events left by a stopped server are handled
	// now, none with a consumer missing.
	stopOutbox, err := startOutbox(ctx, hookSvc, outbox, outboxHandlers{issues: issueHooks, repos: repoHooks, releases: releaseHooks,
		pushes: pushes, refresh: repoSvc.HandleRefMoves, pulls: pullPush, mirrors: mirrorPush}, log)
	if err != nil {
		ln.Close()
		return err
	}
	defer stopOutbox()
	mux := http.NewServeMux()
	lfsSvc, pkgSvc, err := newLFSPackages(db, blobs, repoSvc, orgSvc, o.quota, log) // lfspkg.go
	if err != nil {
		return err
	}
	api, err := httpapi.New(httpapi.Config{Auth: authSvc, Repos: repoSvc, Orgs: orgSvc, Issues: issueSvc, Actions: actSvc, Hooks: hookSvc,
		Notify: notifySvc,
		Quota:  quotaSvc,
		Git:    gitstore.HTTP{Store: git, MaxPushBytes: o.maxPushBytes}, Logger: log, TrustedProxies: o.trustedProxies,
		MaxBodyBytes: o.limits.maxBodyBytes, MaxUploadBytes: o.limits.maxUpload, RateLimit: o.limits.rate,
		LFS: lfsSvc, Packages: pkgSvc, Mirror: mirrorSvc, MirrorGit: gitstore.Mirror{Store: git}})
	if err != nil {
		return err
	}
	// The API owns /api/v1/, /swagger.v1.json and git's smart HTTP at
	// /{owner}/{repo}.git/…: forged has no other routes, so it takes "/".
	mux.Handle("/", api)
	srv := &http.Server{
		Handler:  bodyDeadlines(mux, o.bodyGrace, o.bodyMinRate),
		ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	o.limits.server.Apply(srv)
	log.Info("forged listening", "addr", "http://"+ln.Addr().String(), "data", o.data)
	if ready != nil {
		ready(ln.Addr().String())
	}

	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	log.Info("forged shutting down")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return srv.Shutdown(shutdownCtx)
}

// bootstrapAdmin creates the administrator on a start with none.
func bootstrapAdmin(ctx context.Context, svc *auth.Service, o options, stdout io.Writer, log *slog.Logger) error {
	password, generated := o.adminPassword, false
	if password == "" {
		password, generated = rand.Text(), true
	}
	mustChange := false
	created, err := svc.EnsureAdmin(ctx, auth.CreateUserOptions{
		Name:               o.adminUser,
		Email:              o.adminEmail,
		Password:           password,
		MustChangePassword: &mustChange,
	})
	if err != nil {
		return fmt.Errorf("create administrator %q: %w", o.adminUser, err)
	}
	switch {
	case created:
		log.Info("administrator created", "user", o.adminUser, "email", o.adminEmail)
		if generated {
			fmt.Fprintf(stdout, "Administrator %q created with password %s (shown once)\n", o.adminUser, password)
		}
	case !generated:
		log.Warn("an administrator exists: -admin-password (FORGED_ADMIN_PASSWORD) was ignored; " +
			"to change a password, run forged with -reset-admin-password")
	}
	return nil
}

// resetAdminPassword sets the password of o.adminUser, generated and printed
// when o.adminPassword is empty, and clears its must-change-password flag.
func resetAdminPassword(ctx context.Context, svc *auth.Service, o options, stdout io.Writer) error {
	password, generated := o.adminPassword, false
	if password == "" {
		password, generated = rand.Text(), true
	}
	u, err := svc.ResetPassword(ctx, o.adminUser, password)
	if err != nil {
		return fmt.Errorf("reset the password of %q: %w", o.adminUser, err)
	}
	if generated {
		fmt.Fprintf(stdout, "Password of %q reset to %s (shown once)\n", u.Name, password)
	} else {
		fmt.Fprintf(stdout, "Password of %q reset\n", u.Name)
	}
	if !u.IsAdmin {
		fmt.Fprintf(stdout, "Note: %q is not an administrator\n", u.Name)
	}
	return nil
}

// loadSecret reads the key that seals secrets at rest (TOTP secrets), making
// a random one on the first start. Losing it makes those secrets unusable.
func loadSecret(path string) ([]byte, error) {
	key, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		key = []byte(rand.Text() + rand.Text())
		if err := os.WriteFile(path, key, 0o600); err != nil {
			return nil, fmt.Errorf("secret key: %w", err)
		}
		return key, nil
	}
	if err != nil {
		return nil, fmt.Errorf("secret key: %w", err)
	}
	if len(key) < 16 {
		return nil, fmt.Errorf("secret key %s is too short", path)
	}
	return key, nil
}

// repoSearch adapts forge/repos to issues.RepoSearch for the issue
// search: repos.Service.IssueRepos, the repositories the actor may read
// issues in (of one owner, of one team of an organisation), with the
// actor's permission on each, in a fixed number of queries.
type repoSearch struct{ repos *repos.Service }

func (s repoSearch) SearchRepos(ctx context.Context, actor forge.Actor, owner, team string) ([]issues.RepoPermission, error) {
	views, err := s.repos.IssueRepos(ctx, actor, owner, team)
	if err != nil {
		return nil, err
	}
	out := make([]issues.RepoPermission, 0, len(views))
	for _, v := range views {
		out = append(out, issues.RepoPermission{Repo: v.Repo, Permission: v.Perm})
	}
	return out, nil
}

// ReposByID implements issues.RepoViews: repos.Service.ViewsByID, the
// repositories of one page of the search with the actor's permission.
func (s repoSearch) ReposByID(ctx context.Context, actor forge.Actor, ids []forge.ID) ([]issues.RepoPermission, error) {
	views, err := s.repos.ViewsByID(ctx, actor, ids)
	if err != nil {
		return nil, err
	}
	out := make([]issues.RepoPermission, 0, len(views))
	for _, v := range views {
		out = append(out, issues.RepoPermission{Repo: v.Repo, Permission: v.Perm})
	}
	return out, nil
}

// issueEvents adapts issues.Listener to notify.Service.Notify: the two
// domains do not import each other. A failure to notify never fails the
// issue operation (it has committed); it is logged.
type issueEvents struct {
	notify *notify.Service
	log    *slog.Logger
}

func (l *issueEvents) IssueEvent(ctx context.Context, e issues.Event) {
	if l.notify == nil || e.Repo == nil || e.Issue == nil || !e.Kind.Notifies() {
		return
	}
	ev := notify.Event{Doer: e.Actor.UserID(), RepoID: e.Repo.ID, IssueID: e.Issue.ID, IsPull: e.Issue.IsPull, Mentioned: e.Mentioned}
	if e.Comment != nil {
		ev.CommentID = e.Comment.ID
	}
	if err := l.notify.Notify(ctx, ev); err != nil {
		l.log.WarnContext(ctx, "forged: notify", "issue", e.Issue.ID, "err", err)
	}
}
