package issues

import (
	"context"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// TrackingTx is the part of Tx that stores dependencies between issues,
// tracked times and stopwatches.
type TrackingTx interface {
	// CreateDependency records that issue d.IssueID depends on
	// d.DependsOn (d.ID is set). forge.ErrConflict if it is recorded;
	// forge.ErrNotFound if either issue does not exist.
	CreateDependency(ctx context.Context, d *Dependency) error
	// DeleteDependency removes "issueID depends on dependsOn".
	// forge.ErrNotFound if it is not recorded.
	DeleteDependency(ctx context.Context, issueID, dependsOn forge.ID) error
	// DependencyExists reports whether issueID depends on dependsOn.
	DependencyExists(ctx context.Context, issueID, dependsOn forge.ID) (bool, error)
	// Dependencies returns the ids of the issues issueID depends on (its
	// blockers), ordered by id. Never nil.
	Dependencies(ctx context.Context, issueID forge.ID) ([]forge.ID, error)
	// Dependents returns the ids of the issues that depend on issueID (the
	// issues it blocks), ordered by id. Never nil.
	Dependents(ctx context.Context, issueID forge.ID) ([]forge.ID, error)
	// RepoRefs returns the owner and name of each repository of ids that
	// exists, by ID. Never nil.
	RepoRefs(ctx context.Context, ids []forge.ID) (map[forge.ID]RepoRef, error)

	// CreateTrackedTime inserts t (t.ID is set). forge.ErrNotFound if its
	// issue or user does not exist.
	CreateTrackedTime(ctx context.Context, t *TrackedTime) error
	// TrackedTimeByID returns a tracked time, deleted or not;
	// forge.ErrNotFound if none.
	TrackedTimeByID(ctx context.Context, id forge.ID) (*TrackedTime, error)
	// ListTrackedTimes returns one page of the tracked times matching f
	// that are not deleted, ordered by id, and their number.
	ListTrackedTimes(ctx context.Context, f TimeFilter, o forge.ListOptions) ([]*TrackedTime, int64, error)
	// MarkTimesDeleted marks the tracked times of ids deleted (they stay
	// stored, as Forgejo's). Unknown ids are ignored.
	MarkTimesDeleted(ctx context.Context, ids []forge.ID) error

	// CreateStopwatch inserts sw (sw.ID is set). forge.ErrConflict if the
	// user has a stopwatch on that issue; forge.ErrNotFound if the issue
	// or the user does not exist.
	CreateStopwatch(ctx context.Context, sw *Stopwatch) error
	// DeleteStopwatch removes a stopwatch. forge.ErrNotFound if none.
	DeleteStopwatch(ctx context.Context, id forge.ID) error
	// Stopwatches returns one page of the stopwatches of userID (all of
	// its stopwatches when issueID is 0, else the one on that issue if
	// any), ordered by id, and their number.
	Stopwatches(ctx context.Context, userID, issueID forge.ID, o forge.ListOptions) ([]*Stopwatch, int64, error)
}

// Dependency records that IssueID depends on DependsOn: DependsOn blocks
// IssueID.
type Dependency struct {
	ID        forge.ID
	UserID    forge.ID
	IssueID   forge.ID
	DependsOn forge.ID
	Created   time.Time
}

// RepoRef names a repository.
type RepoRef struct {
	ID              forge.ID
	OwnerName, Name string
}

// TrackedTime is time a user spent on an issue (Forgejo's tracked_time).
type TrackedTime struct {
	ID      forge.ID
	IssueID forge.ID
	UserID  forge.ID
	Created time.Time
	// Seconds is the time spent.
	Seconds int64
	// Deleted marks a time removed by its user or an administrator.
	Deleted bool
}

// TimeFilter selects tracked times. Zero fields do not filter; at least
// one of IssueID, RepoID and UserID should be set.
type TimeFilter struct {
	IssueID, RepoID, UserID forge.ID
	// CreatedSince and CreatedBefore bound Created, both inclusive (zero:
	// no bound).
	CreatedSince, CreatedBefore time.Time
}

// Stopwatch is a running stopwatch of a user on an issue.
type Stopwatch struct {
	ID      forge.ID
	IssueID forge.ID
	UserID  forge.ID
	Created time.Time
}
