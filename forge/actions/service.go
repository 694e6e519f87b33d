package actions

import (
	"context"
	"io"
	"log/slog"

	"github.com/hearthforge/hearth/forge"
)

// Config configures a Service. Store is required; every other zero value is
// a working default.
type Config struct {
	Store Store
	// Key seals secrets at rest (forge.Seal): the server's secret key, the
	// one auth seals TOTP secrets with. Empty refuses secret writes
	// (forge.ErrPrecondition).
	Key []byte
	// Repos resolves repositories and the actor's permission on them
	// (repos.Service). Nil refuses repository targets
	// (forge.ErrPrecondition).
	Repos RepoAccess
	// Orgs tells whether the actor owns an organisation (orgs.Service).
	// Nil refuses organisation targets (forge.ErrPrecondition).
	Orgs OrgRole
	// Clock stamps creations. Nil means forge.SystemClock.
	Clock forge.Clock
	// Logger receives debug lines. Nil discards.
	Logger *slog.Logger
}

// RepoAccess is repos.Service.RepoAccess: the repository owner/name with
// the actor's permission on it; forge.ErrNotFound for a repository the
// actor may not see.
type RepoAccess interface {
	RepoAccess(ctx context.Context, actor forge.Actor, owner, name string) (*forge.Repository, forge.Permission, error)
}

// OrgRole is orgs.Service.MemberRole: the organisation, and whether the
// actor owns it (site administrators count) or is a member;
// forge.ErrNotFound for a missing organisation or one the actor may not
// see.
type OrgRole interface {
	MemberRole(ctx context.Context, actor forge.Actor, org string) (o *forge.User, owner, member bool, err error)
}

// Service is the Actions service. It is safe for concurrent use.
type Service struct {
	cfg   Config
	store Store
	clock forge.Clock
	log   *slog.Logger
}

// New returns a Service for cfg; forge.ErrInvalid without a Store.
func New(cfg Config) (*Service, error) {
	if cfg.Store == nil {
		return nil, forge.Errorf(forge.ErrInvalid, "actions: Config.Store is required")
	}
	s := &Service{cfg: cfg, store: cfg.Store, clock: forge.ClockOrSystem(cfg.Clock), log: cfg.Logger}
	if s.log == nil {
		s.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return s, nil
}
