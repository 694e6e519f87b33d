package oauthapps

import (
	"context"

	"github.com/hearthforge/hearth/forge"
)

// Store is the persistence of OAuth2 applications. Update runs fn in one
// transaction and commits iff it returns nil; View reads one snapshot.
// Storage does no authorisation and reads no clock.
type Store interface {
	Update(ctx context.Context, fn func(Tx) error) error
	View(ctx context.Context, fn func(Tx) error) error
}

// Tx is one transaction over OAuth2 applications.
type Tx interface {
	// CreateApp inserts a (a.ID is set). forge.ErrConflict if its client
	// id is taken; forge.ErrNotFound if its user does not exist.
	CreateApp(ctx context.Context, a *App) error
	// UpdateApp writes Name, RedirectURIs, Confidential, SecretHash and
	// Updated of application a.ID. forge.ErrNotFound if none.
	UpdateApp(ctx context.Context, a *App) error
	// AppByID returns forge.ErrNotFound if none.
	AppByID(ctx context.Context, id forge.ID) (*App, error)
	// AppByClientID returns forge.ErrNotFound if none.
	AppByClientID(ctx context.Context, clientID string) (*App, error)
	// ListApps returns one page of a user's applications, by id
	// ascending, and their number.
	ListApps(ctx context.Context, userID forge.ID, o forge.ListOptions) ([]*App, int64, error)
	// DeleteApp deletes application id. forge.ErrNotFound if none.
	DeleteApp(ctx context.Context, id forge.ID) error
}
