package gpgkeys

import (
	"context"

	"github.com/hearthforge/hearth/forge"
)

// Store is the persistence of GPG keys. Update runs fn in one transaction
// and commits iff it returns nil; View reads one snapshot. Storage does no
// authorisation and reads no clock.
type Store interface {
	Update(ctx context.Context, fn func(Tx) error) error
	View(ctx context.Context, fn func(Tx) error) error
}

// Tx is one transaction over GPG keys. Keys returned carry their SubKeys
// (a primary key's, ascending by id; none for a subkey) and are copies.
type Tx interface {
	// KeyIDUsed reports whether any stored key or subkey, of any user,
	// has keyID.
	KeyIDUsed(ctx context.Context, keyID string) (bool, error)
	// CreateKey inserts the primary key k and its SubKeys (their IDs and
	// k.ID are set). forge.ErrConflict if one of their key ids is stored;
	// forge.ErrNotFound if the owner does not exist.
	CreateKey(ctx context.Context, k *Key) error
	// KeyByID returns ownerID's key (primary or subkey) id;
	// forge.ErrNotFound if none.
	KeyByID(ctx context.Context, ownerID, id forge.ID) (*Key, error)
	// KeyByKeyID returns ownerID's primary key whose KeyID is keyID;
	// forge.ErrNotFound if none.
	KeyByKeyID(ctx context.Context, ownerID forge.ID, keyID string) (*Key, error)
	// ListKeys returns one page of ownerID's primary keys, ascending by
	// id, and their number. A negative o.Limit lists all.
	ListKeys(ctx context.Context, ownerID forge.ID, o forge.ListOptions) ([]*Key, int64, error)
	// SetVerified marks key id verified. forge.ErrNotFound if none.
	SetVerified(ctx context.Context, id forge.ID) error
	// DeleteKey deletes key id and, when it is a primary key, its
	// subkeys. forge.ErrNotFound if none.
	DeleteKey(ctx context.Context, id forge.ID) error
}
