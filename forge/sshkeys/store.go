package sshkeys

import (
	"context"

	"github.com/hearthforge/hearth/forge"
)

// Store is the persistence of public keys and deploy keys. Update runs fn
// in one transaction and commits iff it returns nil; View reads one
// snapshot. Storage does no authorisation and reads no clock.
type Store interface {
	Update(ctx context.Context, fn func(Tx) error) error
	View(ctx context.Context, fn func(Tx) error) error
}

// Tx is one transaction over keys.
type Tx interface {
	// UserByName returns the user or organisation named name (any case);
	// forge.ErrNotFound if none.
	UserByName(ctx context.Context, name string) (*forge.User, error)
	// UsersByID returns the accounts of ids that exist, by ID. Never nil.
	UsersByID(ctx context.Context, ids []forge.ID) (map[forge.ID]*forge.User, error)

	// CreateKey inserts k (k.ID is set). forge.ErrConflict when a key of
	// that fingerprint exists; forge.ErrNotFound when the owner (non-zero
	// OwnerID) does not exist.
	CreateKey(ctx context.Context, k *Key) error
	// KeyByID returns forge.ErrNotFound if none.
	KeyByID(ctx context.Context, id forge.ID) (*Key, error)
	// KeyByFingerprint returns forge.ErrNotFound if none.
	KeyByFingerprint(ctx context.Context, fingerprint string) (*Key, error)
	// DeleteKey removes a key (and the deploy keys using it).
	// forge.ErrNotFound if none.
	DeleteKey(ctx context.Context, id forge.ID) error
	// ListKeys returns one page of the keys matching f, by ID, and their
	// number. A negative o.Limit lists all.
	ListKeys(ctx context.Context, f KeyFilter, o forge.ListOptions) ([]*Key, int64, error)

	// CreateDeployKey inserts d (d.ID is set; Fingerprint and Content are
	// not stored: they are the key's). forge.ErrConflict when the
	// repository has the key already; forge.ErrNotFound when the key or
	// the repository does not exist.
	CreateDeployKey(ctx context.Context, d *DeployKey) error
	// DeployKeyByID returns the deploy key with its key's fingerprint and
	// content; forge.ErrNotFound if none.
	DeployKeyByID(ctx context.Context, id forge.ID) (*DeployKey, error)
	// DeleteDeployKey removes one deploy key. forge.ErrNotFound if none.
	DeleteDeployKey(ctx context.Context, id forge.ID) error
	// ListDeployKeys returns one page of the deploy keys matching f, by
	// ID, with their keys' fingerprint and content, and their number. A
	// negative o.Limit lists all.
	ListDeployKeys(ctx context.Context, f DeployFilter, o forge.ListOptions) ([]*DeployKey, int64, error)
}

// KeyFilter selects keys; zero fields match any.
type KeyFilter struct {
	OwnerID     forge.ID
	Fingerprint string
	// Name matches exactly.
	Name string
	Type Type
}

// DeployFilter selects deploy keys; zero fields match any.
type DeployFilter struct {
	RepoID      forge.ID
	KeyID       forge.ID
	Fingerprint string
	Name        string
}
