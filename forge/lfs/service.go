package lfs

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"sync"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/quota"
)

// Config configures a Service. Store, Blobs and Repos are required.
type Config struct {
	Store Store
	// Blobs holds the objects' bytes (storage/blob.Dir).
	Blobs Blobs
	// Repos resolves a repository and the actor's permission on it
	// (repos.Service.RepoAccess).
	Repos RepoAccess
	// MaxFileSize refuses larger objects (Forgejo's [server]
	// LFS_MAX_FILE_SIZE); 0 means no limit.
	MaxFileSize int64
	// Quota is the quota configuration every write is charged under
	// (quota.Charge); its zero value (disabled) still keeps the counters.
	Quota quota.Config
	// Clock stamps new objects. Nil means forge.SystemClock.
	Clock forge.Clock
	// Logger receives debug lines. Nil discards.
	Logger *slog.Logger
}

// Blobs is the blob store the objects' bytes live in: storage/blob.Dir.
// Put must be atomic (a failed read leaves nothing under key).
type Blobs interface {
	Put(ctx context.Context, key string, r io.Reader, max int64) (int64, error)
	Open(ctx context.Context, key string) (io.ReadCloser, error)
	Delete(ctx context.Context, key string) error
}

// RepoAccess is repos.Service.RepoAccess: the repository owner/name (one
// ".git" suffix dropped) with the actor's permission on it; forge.ErrNotFound
// for a repository the actor may not see.
type RepoAccess interface {
	RepoAccess(ctx context.Context, actor forge.Actor, owner, name string) (*forge.Repository, forge.Permission, error)
}

// Service serves LFS objects. It is safe for concurrent use.
type Service struct {
	cfg   Config
	clock forge.Clock
	log   *slog.Logger
	// oids serialises writes of one oid's blob, so that a refused upload
	// deletes only a blob no repository holds.
	oids keyedMutex
}

// New returns a Service for cfg; forge.ErrInvalid without Store, Blobs or
// Repos.
func New(cfg Config) (*Service, error) {
	if cfg.Store == nil || cfg.Blobs == nil || cfg.Repos == nil {
		return nil, forge.Errorf(forge.ErrInvalid, "lfs: Config.Store, Blobs and Repos are required")
	}
	s := &Service{cfg: cfg, clock: forge.ClockOrSystem(cfg.Clock), log: cfg.Logger}
	if s.log == nil {
		s.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return s, nil
}

// Errors of access, each a forge category.
var (
	// ErrNotFound: no such repository, or one the actor may not see.
	ErrNotFound = forge.Errorf(forge.ErrNotFound, "Not Found")
	// ErrUnauthorized: the actor may see the repository but not do what
	// it asks (Forgejo answers 401 with its challenge).
	ErrUnauthorized = forge.Errorf(forge.ErrUnauthenticated, "Unauthorized")
)

// access resolves the repository for an operation that reads (write
// false) or writes it: the actor's account state and token scope
// (read:repository or write:repository), then its permission on the code
// unit. Anonymous actors and readers asking to write get ErrUnauthorized;
// a repository the actor may not see is ErrNotFound, or ErrUnauthorized
// for an anonymous actor (who may sign in). Archived repositories refuse
// writes (forge.ErrArchived).
func (s *Service) access(ctx context.Context, actor forge.Actor, owner, name string, write bool) (*forge.Repository, error) {
	level := forge.AccessRead
	if write {
		level = forge.AccessWrite
	}
	if err := actor.Check(level, forge.CategoryRepository); err != nil {
		return nil, err
	}
	repo, perm, err := s.cfg.Repos.RepoAccess(ctx, actor, owner, name)
	if errors.Is(err, forge.ErrNotFound) || (err == nil && !perm.CanRead(forge.UnitCode)) {
		if !actor.IsSignedIn() {
			return nil, ErrUnauthorized
		}
		return nil, ErrNotFound
	} else if err != nil {
		return nil, err
	}
	if write {
		if !perm.CanWrite(forge.UnitCode) {
			return nil, ErrUnauthorized
		}
		if repo.Archived {
			return nil, forge.Errorf(forge.ErrArchived, "repository is archived")
		}
	}
	return repo, nil
}

// keyedMutex is a mutex per key.
type keyedMutex struct {
	mu    sync.Mutex
	locks map[string]*keyedEntry
}

type keyedEntry struct {
	sync.Mutex
	n int
}

func (k *keyedMutex) lock(key string) func() {
	k.mu.Lock()
	if k.locks == nil {
		k.locks = map[string]*keyedEntry{}
	}
	e := k.locks[key]
	if e == nil {
		e = &keyedEntry{}
		k.locks[key] = e
	}
	e.n++
	k.mu.Unlock()
	e.Lock()
	return func() {
		e.Unlock()
		k.mu.Lock()
		if e.n--; e.n == 0 {
			delete(k.locks, key)
		}
		k.mu.Unlock()
	}
}
