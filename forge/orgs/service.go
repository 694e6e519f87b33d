package orgs

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
	// Clock stamps changes (blocks). Nil means forge.SystemClock.
	Clock forge.Clock
	// Logger receives debug lines. Nil discards.
	Logger *slog.Logger
	// Repos answers the actor's permission on a repository, for the
	// /repos/{owner}/{repo}/teams routes. Nil refuses them
	// (forge.ErrPrecondition).
	Repos RepoAccess
	// Blobs stores avatar images. Nil refuses avatar uploads
	// (forge.ErrPrecondition).
	Blobs Blobs
	// DisableRegularOrgCreation lets only site administrators create
	// organisations (Forgejo's [admin] DISABLE_REGULAR_ORG_CREATION).
	DisableRegularOrgCreation bool
}

// RepoAccess is the one repository question orgs asks:
// repos.Service.RepoAccess. It returns the repository owner/name with the
// actor's permission on it; forge.ErrNotFound for a repository the actor
// may not see.
type RepoAccess interface {
	RepoAccess(ctx context.Context, actor forge.Actor, owner, name string) (*forge.Repository, forge.Permission, error)
}

// Blobs stores avatar images (the subset of a blob store orgs uses, as
// repos.Blobs).
type Blobs interface {
	// Put stores r under key, reading at most max bytes (0: no limit);
	// forge.ErrInvalid when r is longer.
	Put(ctx context.Context, key string, r io.Reader, max int64) (int64, error)
	// Open returns the blob; forge.ErrNotFound if there is none.
	Open(ctx context.Context, key string) (io.ReadCloser, error)
	// Delete removes the blob.
	Delete(ctx context.Context, key string) error
}

// Service is the organisation and team service. It is safe for concurrent
// use.
type Service struct {
	cfg   Config
	store Store
	clock forge.Clock
	log   *slog.Logger
}

// New returns a Service for cfg. It refuses a Config without Store
// (forge.ErrInvalid).
func New(cfg Config) (*Service, error) {
	if cfg.Store == nil {
		return nil, forge.Errorf(forge.ErrInvalid, "orgs: Config.Store is required")
	}
	s := &Service{cfg: cfg, store: cfg.Store, clock: forge.ClockOrSystem(cfg.Clock), log: cfg.Logger}
	if s.log == nil {
		s.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return s, nil
}
