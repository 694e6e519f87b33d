package federation

import (
	"context"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// Store is what federation reads. View reads one snapshot; storage does no
// authorisation and reads no clock.
type Store interface {
	View(ctx context.Context, fn func(Tx) error) error
}

// Tx is one read transaction.
type Tx interface {
	// UserByID returns forge.ErrNotFound if no account has that id.
	UserByID(ctx context.Context, id forge.ID) (*forge.User, error)
	// RepoByID returns forge.ErrNotFound if no repository has that id.
	RepoByID(ctx context.Context, id forge.ID) (*forge.Repository, error)
	// CountIndividuals returns the number of individual accounts (not
	// organisations) whose last sign-in is at or after since; a zero since
	// counts every individual account (Forgejo's user_model.CountUsers with
	// CountUserFilter.LastLoginSince).
	CountIndividuals(ctx context.Context, since time.Time) (int64, error)
	// CountIssues returns the number of issues and pull requests of every
	// repository (Forgejo's issues_model.CountIssues with no option).
	CountIssues(ctx context.Context) (int64, error)
	// CountComments returns the number of comments of every kind on every
	// issue and pull request (Forgejo's issues_model.CountComments with no
	// option).
	CountComments(ctx context.Context) (int64, error)
}
