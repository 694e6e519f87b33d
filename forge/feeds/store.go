package feeds

import (
	"context"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// Store is the persistence of feed actions. Update runs fn in one
// transaction and commits iff it returns nil; View reads one snapshot.
// Storage does no authorisation and reads no clock.
type Store interface {
	Update(ctx context.Context, fn func(Tx) error) error
	View(ctx context.Context, fn func(Tx) error) error
}

// Tx is one transaction over feed actions.
type Tx interface {
	// UsersByID returns the accounts of ids that exist, by ID. Never nil.
	UsersByID(ctx context.Context, ids []forge.ID) (map[forge.ID]*forge.User, error)
	// EventRecorded reports whether actions of outbox event id exist.
	EventRecorded(ctx context.Context, eventID forge.ID) (bool, error)
	// CreateActions inserts the actions (their IDs are set).
	// forge.ErrNotFound if a user or repository they name does not exist.
	CreateActions(ctx context.Context, list []*Action) error
	// ActionRepos returns the distinct repositories of the actions
	// matching f's UserID and RepoID (its other fields ignored),
	// ascending.
	ActionRepos(ctx context.Context, f Filter) ([]forge.ID, error)
	// ListActions returns one page of the actions matching f, newest
	// first (then by id, descending), and their number.
	ListActions(ctx context.Context, f Filter, o forge.ListOptions) ([]*Action, int64, error)
	// Heatmap counts the actions matching f per HeatmapBucketSeconds
	// bucket of their time, ascending; buckets without actions are left
	// out.
	Heatmap(ctx context.Context, f Filter) ([]HeatmapBucket, error)
}

// Filter selects actions (Forgejo's activityQueryCondition once the
// service has resolved its rules into ids).
type Filter struct {
	// UserID: only the rows received by this user (0 any).
	UserID forge.ID
	// RepoID: only this repository's actions (0 any).
	RepoID forge.ID
	// RepoIDs: only these repositories' actions (nil any; a non-nil
	// empty list matches nothing).
	RepoIDs []forge.ID
	// ActUserID: only actions done by this user (0 any).
	ActUserID forge.ID
	// ActVisibilities: only actions whose doer has one of these
	// visibilities, or is in ActUsers, or is an organisation of which
	// ActOrgsOf is a member (nil: any doer).
	ActVisibilities []forge.Visibility
	ActUsers        []forge.ID
	ActOrgsOf       forge.ID
	// OnlyDoerRows: only the rows their doers received (user_id =
	// act_user_id: each action once; Forgejo's OnlyPerformedByActor).
	OnlyDoerRows bool
	// ExcludePrivate: only actions not marked private.
	ExcludePrivate bool
	// From and To bound the time, both included (zero: no bound).
	From, To time.Time
}
