package artifacts

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io"
	"log/slog"
	"time"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/quota"
)

// DefaultRetention is how long an artifact is kept when Record is given no
// retention (Forgejo's [actions] ARTIFACT_RETENTION_DAYS default, 90).
const DefaultRetention = 90 * 24 * time.Hour

// Config configures a Service. Store, Blobs and Repos are required.
type Config struct {
	Store Store
	// Blobs holds the artifacts' bytes (storage/blob.Dir).
	Blobs Blobs
	// Repos resolves a repository and the actor's permission on it
	// (repos.Service.RepoAccess).
	Repos RepoAccess
	// Quota is the quota configuration every write is charged under
	// (quota.Charge); its zero value (disabled) still keeps the counters.
	Quota quota.Config
	// Clock stamps creations and decides expiry. Nil means
	// forge.SystemClock.
	Clock forge.Clock
	// Logger receives debug lines. Nil discards.
	Logger *slog.Logger
}

// Blobs is the blob store: storage/blob.Dir. Put must be atomic.
type Blobs interface {
	Put(ctx context.Context, key string, r io.Reader, max int64) (int64, error)
	Open(ctx context.Context, key string) (io.ReadCloser, error)
	Delete(ctx context.Context, key string) error
}

// RepoAccess is repos.Service.RepoAccess.
type RepoAccess interface {
	RepoAccess(ctx context.Context, actor forge.Actor, owner, name string) (*forge.Repository, forge.Permission, error)
}

// Service records, lists, deletes and expires artifacts. It is safe for
// concurrent use.
type Service struct {
	cfg   Config
	clock forge.Clock
	log   *slog.Logger
}

// New returns a Service for cfg; forge.ErrInvalid without Store, Blobs or
// Repos.
func New(cfg Config) (*Service, error) {
	if cfg.Store == nil || cfg.Blobs == nil || cfg.Repos == nil {
		return nil, forge.Errorf(forge.ErrInvalid, "artifacts: Config.Store, Blobs and Repos are required")
	}
	s := &Service{cfg: cfg, clock: forge.ClockOrSystem(cfg.Clock), log: cfg.Logger}
	if s.log == nil {
		s.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return s, nil
}

// ErrNotFound is a missing artifact, or a repository the actor may not see
// or whose Actions unit it may not read.
var ErrNotFound = forge.Errorf(forge.ErrNotFound, "artifact not found")

// repo resolves owner/name for the actor: read or write access to the
// Actions unit (a token needs read:repository or write:repository).
// forge.ErrNotFound without read access, forge.ErrForbidden for a reader
// asking to write.
func (s *Service) repo(ctx context.Context, actor forge.Actor, owner, name string, write bool) (*forge.Repository, error) {
	level := forge.AccessRead
	if write {
		level = forge.AccessWrite
	}
	if err := actor.Check(level, forge.CategoryRepository); err != nil {
		return nil, err
	}
	repo, perm, err := s.cfg.Repos.RepoAccess(ctx, actor, owner, name)
	if err != nil {
		return nil, err
	}
	switch {
	case !perm.CanRead(forge.UnitActions):
		return nil, ErrNotFound
	case write && !perm.CanWrite(forge.UnitActions):
		return nil, forge.Errorf(forge.ErrForbidden, "no write access to the repository's actions")
	case write && repo.Archived:
		return nil, forge.Errorf(forge.ErrArchived, "repository is archived")
	}
	return repo, nil
}

// RecordOptions describe an artifact to record.
type RecordOptions struct {
	RunID forge.ID
	Name  string
	// Size is the uncompressed size the runner reports; 0 means the size
	// of the bytes stored.
	Size int64
	// Retention is how long to keep it; 0 means DefaultRetention.
	Retention time.Duration
}

// Record stores r as the artifact o.Name of run o.RunID in the repository
// owner/name: the bytes (as uploaded, compressed) stream into the blob
// store, then the row and the owner's quota charge
// (size:assets:artifacts) are written in one transaction; if it fails the
// blob is deleted, so a refusal stores nothing. Needs write access to the
// repository's Actions. forge.ErrInvalid for an empty name or run,
// forge.ErrConflict if the run has an artifact of that name, the quota
// error.
func (s *Service) Record(ctx context.Context, actor forge.Actor, owner, name string, o RecordOptions, r io.Reader) (*Artifact, error) {
	if o.Name == "" || o.RunID == 0 {
		return nil, forge.Errorf(forge.ErrInvalid, "artifact needs a run and a name")
	}
	repo, err := s.repo(ctx, actor, owner, name, true)
	if err != nil {
		return nil, err
	}
	now := s.clock.Now()
	ret := o.Retention
	if ret <= 0 {
		ret = DefaultRetention
	}
	var b [16]byte
	rand.Read(b[:])
	a := &Artifact{RepoID: repo.ID, RunID: o.RunID, Name: o.Name, BlobKey: "art-" + hex.EncodeToString(b[:]),
		Status: StatusConfirmed, Created: now, Expires: now.Add(ret)}
	if a.CompressedSize, err = s.cfg.Blobs.Put(ctx, a.BlobKey, r, 0); err != nil {
		return nil, err
	}
	a.Size = o.Size
	if a.Size == 0 {
		a.Size = a.CompressedSize
	}
	err = s.cfg.Store.Update(ctx, func(tx Tx) error {
		if err := s.charge(ctx, tx, repo, a.CompressedSize); err != nil {
			return err
		}
		return tx.CreateArtifact(ctx, a)
	})
	if err != nil {
		if derr := s.cfg.Blobs.Delete(context.WithoutCancel(ctx), a.BlobKey); derr != nil {
			s.log.DebugContext(ctx, "artifacts: delete refused blob", "key", a.BlobKey, "err", derr)
		}
		return nil, err
	}
	return a, nil
}

// List returns a page of the repository's artifacts (of run, or every
// run's for 0), newest first, expired ones included, and their number.
// Needs read access to the repository's Actions.
func (s *Service) List(ctx context.Context, actor forge.Actor, owner, name string, run forge.ID, o forge.ListOptions) ([]*Artifact, int64, error) {
	repo, err := s.repo(ctx, actor, owner, name, false)
	if err != nil {
		return nil, 0, err
	}
	var list []*Artifact
	var n int64
	err = s.cfg.Store.View(ctx, func(tx Tx) error {
		list, n, err = tx.ListArtifacts(ctx, repo.ID, run, o)
		return err
	})
	return list, n, err
}

// Open returns an artifact's bytes; the caller closes them. ErrNotFound
// for a missing or expired artifact. Needs read access.
func (s *Service) Open(ctx context.Context, actor forge.Actor, owner, name string, id forge.ID) (io.ReadCloser, *Artifact, error) {
	repo, err := s.repo(ctx, actor, owner, name, false)
	if err != nil {
		return nil, nil, err
	}
	var a *Artifact
	err = s.cfg.Store.View(ctx, func(tx Tx) error {
		a, err = tx.Artifact(ctx, repo.ID, id)
		return err
	})
	if errors.Is(err, forge.ErrNotFound) || (err == nil && a.Status == StatusExpired) {
		return nil, nil, ErrNotFound
	} else if err != nil {
		return nil, nil, err
	}
	rc, err := s.cfg.Blobs.Open(ctx, a.BlobKey)
	return rc, a, err
}

// Delete removes an artifact with its bytes, refunding the owner's quota
// if it had not expired. ErrNotFound if none. Needs write access.
func (s *Service) Delete(ctx context.Context, actor forge.Actor, owner, name string, id forge.ID) error {
	repo, err := s.repo(ctx, actor, owner, name, true)
	if err != nil {
		return err
	}
	var key string
	err = s.cfg.Store.Update(ctx, func(tx Tx) error {
		a, err := tx.Artifact(ctx, repo.ID, id)
		if errors.Is(err, forge.ErrNotFound) {
			return ErrNotFound
		} else if err != nil {
			return err
		}
		if err := tx.DeleteArtifact(ctx, a.ID); err != nil {
			return err
		}
		if a.Status == StatusExpired {
			return nil
		}
		key = a.BlobKey
		return s.refund(ctx, tx, repo, a.CompressedSize)
	})
	if err != nil || key == "" {
		return err
	}
	return s.cfg.Blobs.Delete(ctx, key)
}

// Expire marks every artifact whose retention has ended (at the clock's
// now) expired, deletes its bytes and refunds its owner's quota, up to
// limit artifacts (limit <= 0: 100). It returns how many expired. It is
// the system's own work: no actor.
func (s *Service) Expire(ctx context.Context, limit int) (int, error) {
	if limit <= 0 {
		limit = 100
	}
	now := s.clock.Now()
	var keys []string
	err := s.cfg.Store.Update(ctx, func(tx Tx) error {
		keys = nil // a store may run this function again (PostgreSQL retries conflicts)
		due, err := tx.DueArtifacts(ctx, now, limit)
		if err != nil {
			return err
		}
		for _, a := range due {
			repo, err := tx.RepoByID(ctx, a.RepoID)
			if err != nil {
				return err
			}
			if err := tx.ExpireArtifact(ctx, a.ID); err != nil {
				return err
			}
			if err := s.refund(ctx, tx, repo, a.CompressedSize); err != nil {
				return err
			}
			keys = append(keys, a.BlobKey)
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	for _, k := range keys {
		if err := s.cfg.Blobs.Delete(ctx, k); err != nil {
			s.log.DebugContext(ctx, "artifacts: delete expired blob", "key", k, "err", err)
		}
	}
	return len(keys), nil
}

// Run expires artifacts until ctx ends: at once, then every interval
// (interval <= 0: one hour), each round until none is due. Run one per
// database. It returns nil when ctx ends.
func (s *Service) Run(ctx context.Context, interval time.Duration) error {
	if interval <= 0 {
		interval = time.Hour
	}
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for {
		for {
			n, err := s.Expire(ctx, 100)
			if err != nil && ctx.Err() == nil {
				s.log.InfoContext(ctx, "artifacts: expiry", "err", err)
			}
			if err != nil || n < 100 {
				break
			}
		}
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
		}
	}
}
