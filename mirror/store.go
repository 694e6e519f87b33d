package mirror

import (
	"context"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// Store is the persistence of mirrors and their leases. Update runs fn in
// one transaction and commits iff it returns nil; View reads one snapshot.
// Storage does no authorisation and reads no clock.
type Store interface {
	Update(ctx context.Context, fn func(Tx) error) error
	View(ctx context.Context, fn func(Tx) error) error
}

// Tx is one transaction over mirrors. Values returned are the caller's;
// values passed in are copied.
type Tx interface {
	// PullMirrorByRepo returns forge.ErrNotFound if the repository is not a
	// pull mirror.
	PullMirrorByRepo(ctx context.Context, repoID forge.ID) (*PullMirror, error)
	// PullMirrorByID returns forge.ErrNotFound if none.
	PullMirrorByID(ctx context.Context, id forge.ID) (*PullMirror, error)
	// PullMirrorsByRepo returns the pull mirrors of the repositories of
	// repoIDs that have one, by repository. Never nil.
	PullMirrorsByRepo(ctx context.Context, repoIDs []forge.ID) (map[forge.ID]*PullMirror, error)
	// CreatePullMirror inserts m (m.ID is set). forge.ErrConflict if the
	// repository already has one.
	CreatePullMirror(ctx context.Context, m *PullMirror) error
	// UpdatePullMirror writes every field of m but RepoID. forge.ErrNotFound if none.
	UpdatePullMirror(ctx context.Context, m *PullMirror) error
	// DeletePullMirror removes the repository's pull mirror and its lease.
	// forge.ErrNotFound if none.
	DeletePullMirror(ctx context.Context, repoID forge.ID) error

	// PushMirrors returns one page of a repository's push mirrors by ID and
	// their number.
	PushMirrors(ctx context.Context, repoID forge.ID, o forge.ListOptions) ([]*PushMirror, int64, error)
	// PushMirrorByName returns forge.ErrNotFound if none.
	PushMirrorByName(ctx context.Context, repoID forge.ID, remoteName string) (*PushMirror, error)
	// PushMirrorByID returns forge.ErrNotFound if none.
	PushMirrorByID(ctx context.Context, id forge.ID) (*PushMirror, error)
	// CreatePushMirror inserts m (m.ID is set). forge.ErrConflict if the
	// repository has a push mirror of that remote name.
	CreatePushMirror(ctx context.Context, m *PushMirror) error
	// UpdatePushMirror writes every field of m but RepoID, RemoteName and
	// Created. forge.ErrNotFound if none.
	UpdatePushMirror(ctx context.Context, m *PushMirror) error
	// DeletePushMirror removes one push mirror and its lease; deleting a
	// missing one is not an error (Forgejo answers 204).
	DeletePushMirror(ctx context.Context, repoID forge.ID, remoteName string) error

	// DueMirrors returns up to limit mirrors whose NextUpdate is not zero and
	// not after before, in NextUpdate order (then kind, then ID): pull
	// mirrors, and push mirrors of repositories that are not archived.
	// Mirrors under a lease that has not expired at now are left out.
	DueMirrors(ctx context.Context, before, now time.Time, limit int) ([]Due, error)
	// ClaimLease gives l.Key to l.Holder until l.Expires if the key has no
	// lease, an expired one at now, or one of the same holder; it reports
	// whether it did. Atomic: of two transactions claiming one key, one wins.
	ClaimLease(ctx context.Context, l Lease, now time.Time) (bool, error)
	// ReleaseLease removes the key's lease if holder holds it.
	ReleaseLease(ctx context.Context, k Key, holder string) error
	// ReleaseLeases removes every lease holder holds, expired or not (a
	// server that restarts under the same name releases what its crash
	// left), and returns how many it removed.
	ReleaseLeases(ctx context.Context, holder string) (int, error)
}
