package lfs

import (
	"context"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/quota"
)

// Store is the persistence of LFS meta objects. Update runs fn in one
// transaction and commits iff it returns nil; View reads one snapshot.
type Store interface {
	Update(ctx context.Context, fn func(Tx) error) error
	View(ctx context.Context, fn func(Tx) error) error
}

// Tx is one transaction over LFS meta objects.
//
// It embeds quota.UsageTx: an upload charges the owner's quota in the
// transaction that records the object.
type Tx interface {
	quota.UsageTx
	// CreateMetaObject inserts m (Created as given); forge.ErrConflict if
	// m.RepoID already has m.Oid, forge.ErrNotFound if the repository does
	// not exist.
	CreateMetaObject(ctx context.Context, m *MetaObject) error
	// MetaObject returns a repository's object; forge.ErrNotFound if none.
	MetaObject(ctx context.Context, repo forge.ID, oid string) (*MetaObject, error)
	// DeleteMetaObject removes a repository's object; forge.ErrNotFound if
	// none.
	DeleteMetaObject(ctx context.Context, repo forge.ID, oid string) error
	// ListMetaObjects returns a page of a repository's objects by oid, and
	// their number.
	ListMetaObjects(ctx context.Context, repo forge.ID, o forge.ListOptions) ([]*MetaObject, int64, error)
	// CountOid returns how many repositories hold oid.
	CountOid(ctx context.Context, oid string) (int64, error)
	// RepoLFSSize returns the sum of the sizes of a repository's objects
	// (Forgejo's repository.lfs_size).
	RepoLFSSize(ctx context.Context, repo forge.ID) (int64, error)
}
