// Package site is Hearth's composition root: New builds every service of
// the forge, the adapters that join them and their background workers from
// one Config (a storage bundle, a git store, blobs, a key and options);
// Site.Handler serves the API and git over HTTP, and Site.Run runs the
// workers. It is the only package that wires the domains together:
// examples/forged is flags around it, and a host embeds the whole forge by
// mounting Handler beside its own routes and calling Run. It alone holds
// the domains' trusted ports (their NewWithPorts), each handed to the
// adapter or consumer that needs it and none given out: the services a
// Site returns check their actor in every method but the host operations
// package forge lists.
package site

import (
	"context"
	"crypto/rand"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"os"
	"path/filepath"
	"sync"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/auth/oauthapps"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/actions"
	"github.com/hearthforge/hearth/forge/cron"
	"github.com/hearthforge/hearth/forge/federation"
	"github.com/hearthforge/hearth/forge/feeds"
	"github.com/hearthforge/hearth/forge/gpgkeys"
	"github.com/hearthforge/hearth/forge/hooks"
	"github.com/hearthforge/hearth/forge/hooks/hookhttp"
	"github.com/hearthforge/hearth/forge/lfs"
	"github.com/hearthforge/hearth/forge/markup"
	"github.com/hearthforge/hearth/forge/notify"
	"github.com/hearthforge/hearth/forge/orgs"
	"github.com/hearthforge/hearth/forge/packages"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/forge/sshkeys"
	"github.com/hearthforge/hearth/httpapi"
	"github.com/hearthforge/hearth/issues"
	"github.com/hearthforge/hearth/mirror"
	"github.com/hearthforge/hearth/quota"
	"github.com/hearthforge/hearth/storage/blob"
	"github.com/hearthforge/hearth/storage/gitstore"
	"github.com/hearthforge/hearth/storage/memstore"
	"github.com/hearthforge/hearth/storage/postgres"
	"github.com/hearthforge/hearth/storage/sqlite"
)

// Store is the storage bundle: every domain's store. *sqlite.DB,
// *postgres.DB and *memstore.Store are one.
type Store interface {
	Auth() auth.Store
	Repos() repos.Store
	Orgs() orgs.Store
	Issues() issues.Store
	Notify() notify.Store
	Federation() federation.Store
	OAuthApps() oauthapps.Store
	Feeds() feeds.Store
	Actions() actions.Store
	Hooks() hooks.Store
	Quota() quota.Store
	Mirrors() mirror.Store
	LFS() lfs.Store
	Packages() packages.Store
	BlobRefs() blob.RefStore
	GPGKeys() gpgkeys.Store
	SSHKeys() sshkeys.Store
}

var (
	_ Store = (*sqlite.DB)(nil)
	_ Store = (*postgres.DB)(nil)
	_ Store = (*memstore.Store)(nil)
)

// Blobs stores the bytes of attachments, release assets, avatars, LFS
// objects and packages: blob.Dir or blob.S3. List is for the orphan
// sweeper.
type Blobs interface {
	Put(ctx context.Context, key string, r io.Reader, max int64) (int64, error)
	Open(ctx context.Context, key string) (io.ReadCloser, error)
	Delete(ctx context.Context, key string) error
	List(ctx context.Context, fn func(blob.Info) error) error
}

// Config is what New builds the forge from. Its zero value is a working
// forge that keeps nothing: the memory store and git repositories in a
// temporary directory that Close removes. Set Dir for one that lasts, or
// Store, Git and Blobs to bring your own.
type Config struct {
	// Dir is the data directory: when set, New opens in it what is not
	// given (Store: SQLite at Dir/hearth.db; Git: Dir/git; Blobs:
	// Dir/blobs), and Close closes what New opened. Empty: the memory
	// store, git in a temporary directory, no blobs.
	Dir string
	// Store is the storage bundle. Nil: see Dir. The Site does not close
	// a Store it was given.
	Store Store
	// Git holds the git repositories. Nil: see Dir. The Site does not
	// close a Git it was given.
	Git *gitstore.Store
	// Blobs holds uploaded bytes. Nil: Dir/blobs when Dir is set;
	// otherwise no Git LFS and no package registry (their routes are
	// left out), and the uploads of the other services (attachments,
	// assets, avatars) are refused as each does without blobs.
	Blobs Blobs
	// Clock stamps changes. Nil: forge.SystemClock.
	Clock forge.Clock
	// Logger receives the services' and workers' logs. Nil discards.
	Logger *slog.Logger
	// SecretKey seals secrets at rest (TOTP, Actions secrets, mirror
	// credentials) and signs webhooks. Nil: a random key for this process
	// (what it seals is unreadable after a restart).
	SecretKey []byte

	// RootURL is the forge's public URL ending in "/", used in webhook
	// payloads. The API derives its URLs from each request's Host.
	RootURL string
	// Signing are the host's signing keys (gpgkeys.ParseSigningKeys),
	// served at /signing-key.gpg and /signing-key.ssh. Zero: none
	// (Forgejo's empty answer and 404).
	Signing gpgkeys.SigningKeys
	// Quota is Forgejo's [quota] (off when zero).
	Quota quota.Config
	// Federation is Forgejo's [federation] ENABLED (default false): on,
	// /api/v1/nodeinfo and /api/v1/activitypub are served, the instance
	// and people's keys kept in Dir/federation (in memory without Dir)
	// and remote actors' keys fetched with FederationClient; off, those
	// routes answer as unknown ones.
	Federation bool
	// FederationClient fetches remote actors' keys. Nil: a client with a
	// 10-second timeout.
	FederationClient *http.Client
	// WebhookPolicy is the set of hosts webhooks may reach (Forgejo's
	// [webhook] ALLOWED_HOST_LIST). Zero: external hosts only.
	WebhookPolicy hooks.AddressPolicy
	// AllowLocalMigrations lets migrations and mirrors reach loopback
	// addresses (Forgejo's [migrations] ALLOW_LOCALNETWORKS).
	AllowLocalMigrations bool
	// MirrorHolder names this server in the mirror leases, stable across
	// restarts so that a restart after a crash releases the leases the
	// crash left. Empty: the host name and a random suffix.
	MirrorHolder string
	// BlobSweep is how often Run deletes blobs no row points at (older
	// than blob.DefaultGrace). Zero: never.
	BlobSweep time.Duration

	// Limits; zero takes each library's default.
	MaxPushBytes        int64 // git push over HTTP or SSH (gitstore.DefaultMaxPushBytes when 0; -1 no limit)
	MaxBodyBytes        int64 // JSON request body
	MaxUploadBytes      int64 // uploaded file
	MaxFilesPerCommit   int   // files in one contents API commit
	MaxConcurrentHashes int   // password hashes at once
	Throttle            auth.Throttle
	RateLimit           httpapi.RateLimit
	// TrustedProxies are reverse proxies whose X-Forwarded-For names the
	// client address.
	TrustedProxies []netip.Prefix
	// SSH, when set, serves git over SSH (ssh.go); nil: off.
	SSH *SSH
}

// Site is the forge: its services, its HTTP handler and its workers.
type Site struct {
	auth      *auth.Service
	authP     *auth.Ports // actor-less account reads: ActivatedEmails for GPG key verification
	repos     *repos.Service
	orgs      *orgs.Service
	issues    *issues.Service
	notify    *notify.Service
	gpgKeys   *gpgkeys.Service
	oauth     *oauthapps.Service
	feeds     *feeds.Service
	actions   *actions.Service
	hooks     *hooks.Service
	quota     *quota.Service
	mirror    *mirror.Service
	mirrorP   *mirror.Ports // the scheduler, the push-mirror consumer
	lfs       *lfs.Service
	packages  *packages.Service
	markup    *markup.Renderer
	fed       *federation.Service
	cron      *cron.Registry
	sshKeys   *sshkeys.Service
	sshPorts  *sshkeys.Ports
	api       *httpapi.API
	sshLn     net.Listener // nil: no git over SSH (ssh.go)
	sshKey    ssh.Signer
	gitStream gitstore.Stream

	handler  http.Handler
	outbox   *hooks.Dispatcher
	closers  []func() error // what New opened, last first
	holder   string
	sweeper  *blob.Sweeper
	interval time.Duration
	log      *slog.Logger
}

// New builds the forge in dependency order and finishes the repository
// creations and deletions a crash interrupted. It starts no goroutine:
// Run does.
func New(ctx context.Context, cfg Config) (_ *Site, err error) {
	s := &Site{}
	defer func() {
		if err != nil {
			s.Close()
		}
	}()
	if err := s.open(ctx, &cfg); err != nil {
		return nil, err
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	secret := cfg.SecretKey
	if secret == nil {
		secret = []byte(rand.Text() + rand.Text())
	}
	if cfg.MirrorHolder == "" {
		host, _ := os.Hostname()
		cfg.MirrorHolder = host + "/" + rand.Text()[:16]
	}
	db, git, clock := cfg.Store, cfg.Git, cfg.Clock
	var blobs Blobs = cfg.Blobs
	s.log, s.holder, s.interval = log, cfg.MirrorHolder, cfg.BlobSweep
	if s.auth, s.authP, err = auth.NewWithPorts(auth.Config{Store: db.Auth(), Logger: log, SecretKey: secret, Clock: clock,
		MaxConcurrentHashes: cfg.MaxConcurrentHashes, Throttle: cfg.Throttle, Orgs: orgs.NewVisibility(db.Orgs()),
		Blobs: blobs}); err != nil {
		return nil, err
	}
	outbox := hooks.NewWake() // every change's consequences go through the outbox (outbox.go)
	// The trusted ports (NewWithPorts) stay here: each goes to the
	// adapter or consumer that needs it, never out of the Site.
	var repoPorts *repos.Ports
	if s.repos, repoPorts, err = repos.NewWithPorts(repos.Config{Store: db.Repos(), Git: git, Blobs: blobs, Logger: log, Clock: clock,
		MaxFilesPerCommit: cfg.MaxFilesPerCommit, Quota: cfg.Quota, Outbox: outbox,
		IssueCounts: issues.NewRepoCounter(db.Issues()), PullMirrors: MirrorFields{mirror.NewPullMirrorReader(db.Mirrors())}}); err != nil {
		return nil, err
	}
	if _, err := s.repos.Recover(ctx); err != nil {
		return nil, err
	}
	var orgPorts *orgs.Ports
	if s.orgs, orgPorts, err = orgs.NewWithPorts(orgs.Config{Store: db.Orgs(), Repos: s.repos, Blobs: blobs, Logger: log, Clock: clock}); err != nil {
		return nil, err
	}
	// No cycle: issues appends its events to the outbox, whose consumer
	// of them (IssueNotifications) makes the notifications once both
	// services exist; notify asks issues' trusted Ports who takes part.
	var issuePorts *issues.Ports
	if s.issues, issuePorts, err = issues.NewWithPorts(issues.Config{Store: db.Issues(), Repos: s.repos, Orgs: s.orgs,
		Search: IssueRepos{Repos: s.repos}, Blobs: blobs, Logger: log, Clock: clock, Outbox: outbox, Teams: s.orgs, TeamLookup: orgPorts,
		Pulls: issues.PullConfig{Git: git, Repos: s.repos, RefMoves: repoPorts}, Quota: cfg.Quota}); err != nil {
		return nil, err
	}
	var notifyPorts *notify.Ports
	if s.notify, notifyPorts, err = notify.NewWithPorts(notify.Config{Store: db.Notify(), Repos: s.repos, Watchers: repoPorts,
		Participants: issuePorts, Logger: log, Clock: clock}); err != nil {
		return nil, err
	}
	if s.gpgKeys, err = gpgkeys.New(gpgkeys.Config{Store: db.GPGKeys(), Users: s.auth, Emails: s.authP,
		Repos: s.repos, Signing: cfg.Signing, Logger: log, Clock: clock}); err != nil {
		return nil, err
	}
	var feedPorts *feeds.Ports
	if s.feeds, feedPorts, err = feeds.NewWithPorts(feeds.Config{Store: db.Feeds(), Repos: s.repos, Accounts: s.auth,
		Orgs: s.orgs, Teams: TeamRepos{s.orgs}, Watchers: repoPorts, Clock: clock}); err != nil {
		return nil, err
	}
	if s.oauth, err = oauthapps.New(oauthapps.Config{Store: db.OAuthApps(), Clock: clock}); err != nil {
		return nil, err
	}
	if s.actions, err = actions.New(actions.Config{Store: db.Actions(), Key: secret, Repos: s.repos, Orgs: s.orgs,
		Logger: log, Clock: clock}); err != nil {
		return nil, err
	}
	// Webhook payloads are built here, with the API's converter, and
	// queued through the webhook service's trusted ports.
	sshURL, err := s.openSSH(&cfg) // ssh.go
	if err != nil {
		return nil, err
	}
	payloads := &HookPayloads{RootURL: cfg.RootURL, SSHURL: sshURL, Accounts: repoPorts, Repos: repoPorts, Presenter: repoPorts,
		Commits: pushCommits{git}, Logger: log}
	var hookPorts *hooks.Ports
	if s.hooks, hookPorts, err = hooks.NewWithPorts(hooks.Config{Store: db.Hooks(), Repos: s.repos, Orgs: s.orgs, Logger: log,
		Clock: clock, SecretKey: secret, Payloads: payloads, Files: repoFiles{git}, Sender: hookhttp.New(cfg.WebhookPolicy),
		RootURL: cfg.RootURL}); err != nil {
		return nil, err
	}
	if s.quota, err = quota.New(quota.ServiceConfig{Store: db.Quota(), Quota: cfg.Quota, Orgs: s.orgs}); err != nil {
		return nil, err
	}
	if s.mirror, s.mirrorP, err = newMirrors(db.Mirrors(), s.repos, repoPorts, git, secret, cfg.AllowLocalMigrations, s.holder, clock, log); err != nil {
		return nil, err
	}
	if blobs != nil { // LFS and packages need blobs: without, their routes are left out
		if s.lfs, err = lfs.New(lfs.Config{Store: db.LFS(), Blobs: blobs, Repos: s.repos, Quota: cfg.Quota, Logger: log,
			Clock: clock}); err != nil {
			return nil, err
		}
		if s.packages, err = packages.New(packages.Config{Store: db.Packages(), Blobs: blobs, Orgs: s.orgs, Repos: s.repos,
			Quota: cfg.Quota, Logger: log, Clock: clock}); err != nil {
			return nil, err
		}
	}
	// Every consumer exists before the dispatcher: events left by a
	// stopped server are handled once Run starts, none with a consumer
	// missing.
	if s.outbox, err = newOutbox(s.hooks, outbox, outboxHandlers{
		issues: &hookIssues{ports: hookPorts, payloads: payloads, log: log, issues: s.issues, teams: orgPorts,
			repos: repoPorts},
		repos:    &hookRepos{ports: hookPorts, payloads: payloads, log: log},
		releases: &hookReleases{ports: hookPorts, payloads: payloads, log: log},
		pushes:   &hookPushes{ports: hookPorts, payloads: payloads, log: log},
		notify:   IssueNotifications(notifyPorts, log),
		refresh:  repoPorts.HandleRefMoves,
		pulls:    &pullPushes{ports: issuePorts, log: log},
		mirrors:  &mirrorPushes{ports: s.mirrorP, log: log},
		checks:   &pullChecks{ports: issuePorts, log: log},
		feeds:    ActivityFeeds(feedPorts, pushCommits{git}, log),
	}, log); err != nil {
		return nil, err
	}
	maxPush := cfg.MaxPushBytes
	if maxPush == 0 {
		maxPush = gitstore.DefaultMaxPushBytes
	}
	if blobs != nil && cfg.BlobSweep > 0 {
		s.sweeper = &blob.Sweeper{Blobs: blobs, Refs: db.BlobRefs(), Logger: log}
	}
	if s.cron, err = cron.New(cron.Config{Tasks: s.cronTasks(), Clock: clock, Logger: log}); err != nil {
		return nil, err
	}
	s.markup = markup.New(markup.Config{AppURL: cfg.RootURL, Mentions: Mentions{Auth: s.auth}})
	if s.fed, err = newFederation(cfg, db); err != nil {
		return nil, err
	}
	if s.sshKeys, s.sshPorts, err = sshkeys.NewWithPorts(sshkeys.Config{Store: db.SSHKeys(), Repos: s.repos, Clock: clock}); err != nil {
		return nil, err
	}
	if s.api, err = httpapi.New(httpapi.Config{Auth: s.auth, Repos: s.repos, RepoPorts: repoPorts, Orgs: s.orgs, Issues: s.issues,
		Actions: s.actions, Hooks: s.hooks, Notify: s.notify, OAuthApps: s.oauth, Feeds: s.feeds, Quota: s.quota, Mirror: s.mirror, GPGKeys: s.gpgKeys,
		Git: gitstore.HTTP{Store: git, MaxPushBytes: maxPush}, SSHKeys: s.sshKeys, SSHURL: sshURL,
		LFS: s.lfs, Packages: s.packages, Logger: log, TrustedProxies: cfg.TrustedProxies,
		MaxBodyBytes: cfg.MaxBodyBytes, MaxUploadBytes: cfg.MaxUploadBytes, RateLimit: cfg.RateLimit,
		Markup: s.markup, Cron: s.cron, Federation: s.fed, AttachmentsDisabled: blobs == nil}); err != nil {
		return nil, err
	}
	s.handler, s.gitStream = s.api, gitstore.Stream{Store: git, MaxPushBytes: maxPush}
	return s, nil
}

// cronTasks are the periodic tasks the site runs (forge/cron; GET
// /admin/cron lists them): update_mirrors, Forgejo's name, wakes the
// mirror schedulers at their poll interval; sweep_blobs deletes the
// unreferenced blobs (with Config.BlobSweep: at start, then at that
// interval).
func (s *Site) cronTasks() []cron.Task {
	tasks := []cron.Task{{Name: "update_mirrors", Every: mirror.DefaultPoll, Run: s.mirrorP.WakeSchedulers}}
	if s.sweeper != nil {
		tasks = append(tasks, cron.Task{Name: "sweep_blobs", Every: s.interval, AtStart: true, Run: func(ctx context.Context) error {
			_, err := s.sweeper.Sweep(ctx, blob.DefaultGrace)
			return err
		}})
	}
	return tasks
}

// open fills cfg's Store, Git and Blobs that are nil as Config.Dir says,
// keeping what it opened for Close.
func (s *Site) open(ctx context.Context, cfg *Config) error {
	dir := cfg.Dir
	if dir == "" && cfg.Git == nil {
		tmp, err := os.MkdirTemp("", "hearth-site-")
		if err != nil {
			return err
		}
		s.closers = append(s.closers, func() error { return os.RemoveAll(tmp) })
		if cfg.Git, err = gitstore.Open(tmp); err != nil {
			return err
		}
		s.closers = append(s.closers, func() error { cfg.Git.Close(); return nil })
	}
	if dir == "" {
		if cfg.Store == nil {
			cfg.Store = memstore.New()
		}
		return nil
	}
	if cfg.Store == nil {
		db, err := sqlite.Open(ctx, filepath.Join(dir, "hearth.db"))
		if err != nil {
			return err
		}
		s.closers = append(s.closers, db.Close)
		cfg.Store = db
	}
	if cfg.Git == nil {
		git, err := gitstore.Open(filepath.Join(dir, "git"))
		if err != nil {
			return err
		}
		s.closers = append(s.closers, func() error { git.Close(); return nil })
		cfg.Git = git
	}
	if cfg.Blobs == nil {
		blobs, err := blob.OpenDir(filepath.Join(dir, "blobs"))
		if err != nil {
			return err
		}
		cfg.Blobs = blobs
	}
	return nil
}

// Close closes what New opened for Config.Dir (or the temporary
// directory of a zero Config, which it removes), last opened first, and
// returns the first error. Call it after Run has returned; what the
// Config brought is the caller's to close.
func (s *Site) Close() error {
	var first error
	for i := len(s.closers) - 1; i >= 0; i-- {
		if err := s.closers[i](); err != nil && first == nil {
			first = err
		}
	}
	s.closers = nil
	return first
}

// Handler serves the API (/api/v1/, /api/packages/, /swagger.v1.json) and
// git's smart HTTP (/{owner}/{repo}.git/…, with LFS): mount it at "/", or
// at those paths beside the host's own routes.
func (s *Site) Handler() http.Handler { return s.handler }

// Run runs every background worker until ctx ends, then waits for them
// all to stop and returns nil: the outbox dispatcher with its consumers
// (webhook tasks, notifications, the repository's size, pull requests,
// push mirrors),
// webhook delivery, the pull request checker, the mirror scheduler and,
// when Config.BlobSweep is set, the orphan blob sweeper. A worker failing
// is logged and ends Run early with its error, after the others stopped.
// Call it once.
func (s *Site) Run(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		wg       sync.WaitGroup
		once     sync.Once
		firstErr error
	)
	worker := func(name string, run func(context.Context) error) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := run(ctx); err != nil && ctx.Err() == nil {
				s.log.Error(name, "err", err)
				once.Do(func() { firstErr = err; cancel() })
			}
		}()
	}
	worker("outbox dispatcher", s.outbox.Run)
	worker("webhook worker", s.hooks.Run)
	worker("pull request checker", s.issues.Run)
	worker("mirror scheduler", s.mirrorP.NewScheduler(s.holder, nil).Run)
	worker("cron", s.cron.Serve)
	if s.sshLn != nil {
		worker("ssh server", func(ctx context.Context) error {
			return s.api.ServeSSH(ctx, s.sshLn, httpapi.SSHConfig{HostKeys: []ssh.Signer{s.sshKey}, Keys: s.sshPorts, Git: s.gitStream})
		})
	}
	wg.Wait()
	return firstErr
}

// Auth is the account service (users, tokens, sign-in).
func (s *Site) Auth() *auth.Service { return s.auth }

// Repos is the repository service.
func (s *Site) Repos() *repos.Service { return s.repos }

// Orgs is the organisation and team service.
func (s *Site) Orgs() *orgs.Service { return s.orgs }

// Issues is the issue and pull request service.
func (s *Site) Issues() *issues.Service { return s.issues }

// Notify is the notification service.
func (s *Site) Notify() *notify.Service { return s.notify }

// GPGKeys is the GPG key and signing-key service.
func (s *Site) GPGKeys() *gpgkeys.Service { return s.gpgKeys }

// Actions is the Forgejo Actions service.
func (s *Site) Actions() *actions.Service { return s.actions }

// Hooks is the webhook service.
func (s *Site) Hooks() *hooks.Service { return s.hooks }

// Quota is the quota service.
func (s *Site) Quota() *quota.Service { return s.quota }

// Mirror is the migration and mirror service.
func (s *Site) Mirror() *mirror.Service { return s.mirror }

// LFS is the Git LFS service; nil without Config.Blobs.
func (s *Site) LFS() *lfs.Service { return s.lfs }

// SSHKeys is the public key and deploy key service.
func (s *Site) SSHKeys() *sshkeys.Service { return s.sshKeys }

// SSHAddr is the address git over SSH listens on ("" when off).
func (s *Site) SSHAddr() string {
	if s.sshLn == nil {
		return ""
	}
	return s.sshLn.Addr().String()
}

// Packages is the package registry; nil without Config.Blobs.
func (s *Site) Packages() *packages.Service { return s.packages }
