package issues

import (
	"context"
	"io"
	"log/slog"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/quota"
)

// RepoAccess finds a repository and the actor's permission on it:
// forge/repos.Service.RepoAccess. It checks the actor's account state but
// no token scope, and returns a not-found error for repositories the actor
// may not see.
type RepoAccess interface {
	RepoAccess(ctx context.Context, actor forge.Actor, owner, name string) (*forge.Repository, forge.Permission, error)
}

// OrgRoles finds an organisation and the actor's role in it:
// forge/orgs.Service.MemberRole. owner is true for members of its Owners
// team (and site administrators), member for any member. It returns a
// not-found error for organisations the actor may not see.
type OrgRoles interface {
	MemberRole(ctx context.Context, actor forge.Actor, org string) (o *forge.User, owner, member bool, err error)
}

// Config configures a Service. Store and Repos are required; every other
// zero value is a working default.
type Config struct {
	Store Store
	// Repos resolves repositories and permissions.
	Repos RepoAccess
	// Orgs resolves organisations for their labels. Nil answers every
	// organisation-label call with forge.ErrNotFound and resolves no
	// organisation labels on issues.
	Orgs OrgRoles
	// Search finds the repositories of GET /repos/issues/search. Nil makes
	// the search find nothing.
	Search RepoSearch
	// Clock stamps changes and bounds updated_at. Nil means
	// forge.SystemClock.
	Clock forge.Clock
	// Logger receives debug lines. Nil discards.
	Logger *slog.Logger
	// Blobs stores attachment bytes. Nil refuses uploads with
	// forge.ErrNotFound, as Forgejo's [attachment] ENABLED=false.
	Blobs Blobs
	// MaxAttachmentSize caps an upload, in bytes (forge.ErrInvalid when
	// over); 0 means no limit (Forgejo does not enforce [attachment]
	// MAX_SIZE on the API path).
	MaxAttachmentSize int64
	// MaxTextRefs and MaxTextMentions cap the issue references and the
	// mentions of one text (an issue's title and body, a comment's body)
	// that are acted on: the first ones, distinct, in the order of the
	// text; the others are ignored. Zero means DefaultMaxTextRefs (100)
	// and DefaultMaxTextMentions (50); negative means none.
	MaxTextRefs, MaxTextMentions int
	// NewUUID returns attachment UUIDs. Nil uses random version-4 UUIDs.
	NewUUID func() string
	// Outbox is signalled after a commit that appended events to the
	// outbox (outbox.go), waking its dispatcher. The events are appended
	// in the transaction of the change that caused them whether it is set
	// or not: the dispatcher's consumers (notifications, webhooks) read
	// them there. Nil wakes nothing (the dispatcher finds them at its
	// next poll).
	Outbox Outbox
	// Pulls configures pull requests (pull.go).
	Pulls PullConfig
	// Teams resolves `@org/team` mentions (mentions.go). Nil mentions no
	// team.
	Teams TeamMembers
	// TeamLookup finds the teams of a repository's owner for review
	// requests and branch protection's whitelists by team (pull_teams.go):
	// forge/orgs.Ports. Nil: team reviewers are unknown and whitelisted
	// teams admit nobody.
	TeamLookup TeamLookup
	// Quota is the [quota] configuration: attachment uploads are checked
	// against the repository owner's quota (the zero value: disabled).
	Quota quota.Config
}

// Service is the issue tracker. It is safe for concurrent use.
type Service struct {
	cfg   Config
	store Store
	repos RepoAccess
	clock forge.Clock
	log   *slog.Logger
	// checks is the pull request checker's queue (pull_checker.go).
	checks checker
}

// New returns a Service for cfg. It refuses a Config without Store or Repos
// (forge.ErrInvalid) rather than failing later.
func New(cfg Config) (*Service, error) {
	if cfg.Store == nil {
		return nil, forge.Errorf(forge.ErrInvalid, "issues: Config.Store is required")
	}
	if cfg.Repos == nil {
		return nil, forge.Errorf(forge.ErrInvalid, "issues: Config.Repos is required")
	}
	s := &Service{cfg: cfg, store: cfg.Store, repos: cfg.Repos, clock: forge.ClockOrSystem(cfg.Clock), log: cfg.Logger}
	if s.log == nil {
		s.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if s.cfg.NewUUID == nil {
		s.cfg.NewUUID = newUUID
	}
	if s.cfg.MaxTextRefs == 0 {
		s.cfg.MaxTextRefs = DefaultMaxTextRefs
	}
	if s.cfg.MaxTextMentions == 0 {
		s.cfg.MaxTextMentions = DefaultMaxTextMentions
	}
	return s, nil
}
