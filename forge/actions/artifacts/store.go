package artifacts

import (
	"context"
	"time"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/quota"
)

// Store is the persistence of artifacts. Update runs fn in one transaction
// and commits iff it returns nil; View reads one snapshot.
type Store interface {
	Update(ctx context.Context, fn func(Tx) error) error
	View(ctx context.Context, fn func(Tx) error) error
}

// Tx is one transaction over artifacts.
//
// It embeds quota.UsageTx: recording charges the owner's quota in the
// transaction that records the artifact.
type Tx interface {
	quota.UsageTx
	// RepoByID returns forge.ErrNotFound if there is no such repository.
	RepoByID(ctx context.Context, id forge.ID) (*forge.Repository, error)
	// CreateArtifact inserts a (a.ID is set); forge.ErrConflict if its run
	// has an artifact of that name, forge.ErrNotFound if the repository
	// does not exist.
	CreateArtifact(ctx context.Context, a *Artifact) error
	// Artifact returns a repository's artifact; forge.ErrNotFound if none.
	Artifact(ctx context.Context, repo, id forge.ID) (*Artifact, error)
	// ListArtifacts returns a page of a repository's artifacts (run 0:
	// every run's; otherwise that run's), newest first, and their number.
	ListArtifacts(ctx context.Context, repo, run forge.ID, o forge.ListOptions) ([]*Artifact, int64, error)
	// ExpireArtifact marks an artifact expired and forgets its blob key;
	// forge.ErrNotFound if none.
	ExpireArtifact(ctx context.Context, id forge.ID) error
	// DeleteArtifact removes an artifact; forge.ErrNotFound if none.
	DeleteArtifact(ctx context.Context, id forge.ID) error
	// DueArtifacts returns up to limit artifacts not expired whose Expires
	// is at or before now, oldest first.
	DueArtifacts(ctx context.Context, now time.Time, limit int) ([]*Artifact, error)
}
