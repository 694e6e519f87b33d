// Package httpapi serves Hearth's domains as a Forgejo-compatible HTTP API:
// /api/v1 with Forgejo v15's paths, JSON field names, status codes, headers
// and messages, so Forgejo and Gitea clients work against it.
//
// New returns an http.Handler that owns the routing below /api/v1/; a host
// mounts it next to its own routes:
//
//	api, err := httpapi.New(httpapi.Config{Auth: authService})
//	mux.Handle("/api/v1/", api)
//	mux.Handle("GET /swagger.v1.json", api)
//
// httpapi depends on the domain packages and forge, never on storage.
package httpapi

import (
	"cmp"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/netip"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/auth/oauthapps"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/actions"
	"github.com/hearthforge/hearth/forge/cron"
	"github.com/hearthforge/hearth/forge/federation"
	"github.com/hearthforge/hearth/forge/feeds"
	"github.com/hearthforge/hearth/forge/gpgkeys"
	"github.com/hearthforge/hearth/forge/hooks"
	"github.com/hearthforge/hearth/forge/lfs"
	"github.com/hearthforge/hearth/forge/markup"
	"github.com/hearthforge/hearth/forge/notify"
	"github.com/hearthforge/hearth/forge/orgs"
	"github.com/hearthforge/hearth/forge/packages"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/forge/sshkeys"
	"github.com/hearthforge/hearth/issues"
	"github.com/hearthforge/hearth/mirror"
	"github.com/hearthforge/hearth/quota"
)

// ForgejoVersion is the Forgejo release whose API Hearth follows.
const ForgejoVersion = "15.0.3"

// Version is Hearth's own version, reported as build metadata of
// ForgejoVersion by GET /api/v1/version.
const Version = "0.1.0"

// DefaultMaxBodyBytes caps request bodies when Config.MaxBodyBytes is zero.
const DefaultMaxBodyBytes = 1 << 20

// Config configures the API handler. The zero value of every field but Auth
// is a working default.
type Config struct {
	// Auth authenticates requests and manages users and tokens. Required.
	Auth *auth.Service
	// Repos serves repositories. Nil leaves the repository routes out.
	Repos *repos.Service
	// RepoPorts are the repository service's trusted ports
	// (repos.NewWithPorts): git over HTTP reserves with them the quota of
	// what a push brings at git's pre-receive step. Nil while quota
	// limits a push: the push is refused (a configuration error, logged),
	// never let through unmetered.
	RepoPorts *repos.Ports
	// Orgs serves organisations and teams (/orgs, /teams, /user/orgs,
	// /admin/orgs, /repos/{owner}/{repo}/teams). Nil leaves those routes
	// out; the organisation repository routes (/orgs/{org}/repos) need
	// Repos too.
	Orgs *orgs.Service
	// Actions serves Forgejo Actions: secrets, variables, runners,
	// registration tokens, runs (/repos/{owner}/{repo}/actions,
	// /orgs/{org}/actions, /user/actions, /admin/actions, /admin/runners).
	// Nil leaves those routes out.
	Actions *actions.Service
	// Issues serves issues, comments, labels and milestones. Nil leaves
	// the issue routes out (they answer 501).
	Issues *issues.Service
	// Hooks serves webhooks (/admin/hooks, /repos/{owner}/{repo}/hooks,
	// /orgs/{org}/hooks, /user/hooks). Nil leaves those routes out.
	Hooks *hooks.Service
	// Notify serves /notifications and /repos/{owner}/{repo}/notifications
	// (it needs Repos too). Nil leaves those routes out (they answer 501).
	Notify *notify.Service
	// OAuthApps serves the user's OAuth2 applications
	// (/user/applications/oauth2; routes_feeds.go). Nil leaves those
	// routes out.
	OAuthApps *oauthapps.Service
	// Feeds serves the activity feeds and heatmaps (/users/{username},
	// /orgs/{org}, /teams/{id} and /repos/{owner}/{repo} activities/feeds,
	// /users/{username}/heatmap; it needs Repos too, for the repositories
	// of the actions). Nil leaves those routes out.
	Feeds *feeds.Service
	// Quota serves the quota API (/user/quota*, /orgs/{org}/quota*,
	// /admin/quota/**, /admin/users/{username}/quota*; routes_quota.go):
	// 404 while quota is disabled, as Forgejo. Nil leaves the routes out
	// (501).
	Quota *quota.Service
	// Mirror serves migrations, pull mirrors and push mirrors (/repos/migrate,
	// mirror-sync, convert, push_mirrors; migrations need its
	// Config.Creator). Nil leaves those routes out.
	Mirror *mirror.Service
	// GPGKeys serves users' GPG keys and the host's signing keys
	// (/user/gpg_keys*, /user/gpg_key_token, /user/gpg_key_verify,
	// /users/{username}/gpg_keys, /signing-key.gpg, /signing-key.ssh,
	// /repos/{owner}/{repo}/signing-key.gpg). Nil leaves those routes out.
	GPGKeys *gpgkeys.Service
	// Git serves git's smart HTTP protocol for repositories
	// (storage/gitstore.Store does). Nil leaves /{owner}/{repo}.git out.
	Git GitServer
	// LFS serves Git LFS for repositories at /{owner}/{repo}.git/info/lfs
	// (httpapi/lfs.go). Nil leaves it out.
	LFS *lfs.Service
	// SSHKeys serves public SSH keys and deploy keys (/user/keys,
	// /users/{username}/keys, /admin/users/{username}/keys,
	// /repos/{owner}/{repo}/keys; routes_sshkeys.go). Nil leaves them out.
	SSHKeys *sshkeys.Service
	// SSHURL, when SSH is on, is how repositories' ssh_url is made
	// (SSHCloneURL). Nil: no ssh_url.
	SSHURL *SSHCloneURL
	// Packages serves the package registry: /api/packages/{owner}/generic
	// and /api/v1/packages (httpapi/packages*.go). Nil leaves them out.
	Packages *packages.Service
	// RootURL is the public URL of the forge, ending in "/", used in error
	// bodies (`<RootURL>api/swagger`), Link headers and HTML URLs. Empty
	// means "derive from each request's Host".
	RootURL string
	// DisableQueryAuthToken ignores the deprecated `token` and `access_token`
	// query parameters, as Forgejo's [security] DISABLE_QUERY_AUTH_TOKEN.
	// The deprecation Warning header is sent either way.
	DisableQueryAuthToken bool
	// MaxBodyBytes caps JSON request bodies; larger bodies get 413. Zero
	// means DefaultMaxBodyBytes.
	MaxBodyBytes int64
	// MaxUploadBytes caps uploaded files (release assets); larger ones get
	// 413. Zero means DefaultMaxUploadBytes.
	MaxUploadBytes int64
	// AttachmentsDisabled tells that issue and comment attachments are
	// refused (the issue service has no blob storage): GET
	// /settings/attachment answers enabled false.
	AttachmentsDisabled bool
	// Cron is the server's periodic tasks (/admin/cron). Nil leaves them
	// out (501).
	Cron *cron.Registry
	// Markup renders Markdown for /markdown, /markdown/raw and /markup.
	// Nil leaves them out (501).
	Markup *markup.Renderer
	// Federation serves /nodeinfo and /activitypub when it is enabled;
	// nil or disabled, those routes answer as unknown ones (Forgejo does
	// not register them).
	Federation *federation.Service
	// Logger receives a line per 5xx response. Nil discards.
	Logger *slog.Logger
	// ReverseProxy, when not nil, signs in the user named by a header that a
	// reverse proxy sets, as Forgejo's ENABLE_REVERSE_PROXY_AUTHENTICATION_API.
	// Off by default. With it on, anyone who can reach the handler without
	// passing through the proxy can claim any identity: trust, and the
	// protection against cross-site request forgery, rest with the proxy,
	// which must strip these headers from client requests.
	ReverseProxy *ReverseProxyAuth
	// TrustedProxies are the networks of the reverse proxies in front of
	// the handler. A request whose peer is in one of them gives its client
	// address by X-Forwarded-For (the rightmost address that is not a
	// trusted proxy); other requests' client address is their peer. The
	// address keys the failed sign-in throttle (auth.Throttle): behind a
	// proxy not named here every client shares the proxy's address budget,
	// and naming a network whose hosts are not proxies lets them choose
	// their address. Empty trusts no proxy.
	TrustedProxies []netip.Prefix
	// RateLimit limits each client's rate of expensive requests (archives,
	// searches, diffs; 429 past it). The zero value is DefaultRateLimit.
	RateLimit RateLimit
}

// ReverseProxyAuth configures reverse-proxy authentication. Empty header
// names take Forgejo's defaults.
type ReverseProxyAuth struct {
	// UserHeader names the user; default X-WEBAUTH-USER.
	UserHeader string
	// EmailHeader gives the e-mail of auto-registered users; default
	// X-WEBAUTH-EMAIL.
	EmailHeader string
	// FullNameHeader gives their full name; default X-WEBAUTH-FULLNAME.
	FullNameHeader string
	// AutoRegister creates unknown users; without it they stay anonymous.
	AutoRegister bool
}

// GitServer serves git's smart HTTP protocol for one repository once the
// request is authorised (storage/gitstore's Store and HTTP implement it):
// it runs exactly service ("git-upload-pack" or "git-receive-pack"; the
// ref advertisement when advertise is set), refuses a non-fast-forward
// update of any ref in fastForwardOnly (so the push changes nothing), and
// returns the reference updates git applied. remoteUser is the signed-in
// user's name ("" when anonymous).
type GitServer interface {
	ServeGitRPC(w http.ResponseWriter, r *http.Request, repo forge.ID, service string, advertise bool, remoteUser string, fastForwardOnly []string) []repos.RefUpdate
}

type API struct {
	cfg    Config
	log    *slog.Logger
	router chi.Router
	spec   servedSpec
	rate   *rateLimiter // nil: no rate limit
}

//go:generate go run ./internal/wiregen/cmd/wiregen

// New returns the API handler for cfg. It serves paths below /api/v1/ and,
// as Forgejo does beside the API, GET /swagger.v1.json (the OpenAPI document
// of the operations served); anything else is a 404. Mount both:
//
//	mux.Handle("/api/v1/", api)
//	mux.Handle("GET /swagger.v1.json", api)
//
// It returns an error, and no handler, when cfg lacks Auth (required) or
// has Git without Repos (git is served for repositories).
func New(cfg Config) (*API, error) {
	switch {
	case cfg.Auth == nil:
		return nil, errors.New("httpapi: Config.Auth is required")
	case cfg.Git != nil && cfg.Repos == nil:
		return nil, errors.New("httpapi: Config.Git needs Config.Repos")
	}
	if cfg.MaxBodyBytes <= 0 {
		cfg.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if cfg.RootURL != "" && !strings.HasSuffix(cfg.RootURL, "/") {
		cfg.RootURL += "/"
	}
	if rp := cfg.ReverseProxy; rp != nil {
		p := *rp
		p.UserHeader = cmp.Or(p.UserHeader, "X-WEBAUTH-USER")
		p.EmailHeader = cmp.Or(p.EmailHeader, "X-WEBAUTH-EMAIL")
		p.FullNameHeader = cmp.Or(p.FullNameHeader, "X-WEBAUTH-FULLNAME")
		cfg.ReverseProxy = &p
	}
	a := &API{cfg: cfg, log: cfg.Logger, rate: newRateLimiter(cfg.RateLimit)}
	if a.log == nil {
		a.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	r := chi.NewRouter()
	r.NotFound(func(w http.ResponseWriter, req *http.Request) {
		a.newCall(w, req).notFound()
	})
	r.MethodNotAllowed(func(w http.ResponseWriter, req *http.Request) {
		var allow []string
		for _, m := range []string{"GET", "POST", "PUT", "PATCH", "DELETE"} {
			if a.router.Match(chi.NewRouteContext(), m, req.URL.Path) {
				allow = append(allow, m)
			}
		}
		w.Header().Set("Allow", strings.Join(allow, ", "))
		a.newCall(w, req).errorStatus(http.StatusMethodNotAllowed, "method not allowed")
	})
	table, _ := a.table() // a test fails on any error
	for _, rt := range table {
		if rt.missing {
			r.Method(rt.Method, rt.chiPattern(), http.HandlerFunc(a.notImplemented))
			continue
		}
		if rt.absent {
			// Every method: an absent route is unknown, not a 405.
			r.Handle(rt.chiPattern(), http.HandlerFunc(a.absent))
			continue
		}
		r.Method(rt.Method, rt.chiPattern(), a.serveRoute(rt))
	}
	r.Get("/swagger.v1.json", a.serveSpec)
	if cfg.Repos != nil || cfg.Issues != nil {
		r.Get("/attachments/{uuid}", a.downloadAttachments)
	}
	if cfg.Repos != nil {
		r.Get("/repo-avatars/{key}", a.serveAvatar)
	}
	r.Get("/avatars/{key}", a.serveAccountAvatar)
	if cfg.Git != nil && cfg.Repos != nil {
		r.Get("/{owner}/{repo}/info/refs", a.serveGit)
		r.Post("/{owner}/{repo}/git-upload-pack", a.serveGit)
		r.Post("/{owner}/{repo}/git-receive-pack", a.serveGit)
	}
	a.mountLFSPackages(r)
	a.router = r
	return a, nil
}

// ServeHTTP serves one request.
func (a *API) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	a.router.ServeHTTP(w, r)
}
