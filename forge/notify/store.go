package notify

import (
	"context"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// Store is the persistence of notification threads. Update runs fn in one
// transaction and commits iff it returns nil; View reads one snapshot.
// Storage does no authorisation and reads no clock.
type Store interface {
	Update(ctx context.Context, fn func(Tx) error) error
	View(ctx context.Context, fn func(Tx) error) error
}

// Tx is one transaction over notification threads.
type Tx interface {
	// UsersByID returns the accounts of ids that exist, by ID. Never nil.
	UsersByID(ctx context.Context, ids []forge.ID) (map[forge.ID]*forge.User, error)
	// Subjects returns what a thread shows of each issue of ids that
	// exists, by ID. Never nil.
	Subjects(ctx context.Context, issueIDs []forge.ID) (map[forge.ID]Subject, error)

	// CreateThread inserts t (t.ID is set). forge.ErrConflict if the user
	// already has a thread of that issue; forge.ErrNotFound if the user,
	// the repository or the issue does not exist.
	CreateThread(ctx context.Context, t *Thread) error
	// UpdateThread writes Status, CommentID, UpdatedBy and Updated.
	// forge.ErrNotFound if none.
	UpdateThread(ctx context.Context, t *Thread) error
	// ThreadByID returns forge.ErrNotFound if none.
	ThreadByID(ctx context.Context, id forge.ID) (*Thread, error)
	// ThreadsOfIssue returns the threads of an issue of the users of
	// userIDs, by user. Never nil.
	ThreadsOfIssue(ctx context.Context, issueID forge.ID, userIDs []forge.ID) (map[forge.ID]*Thread, error)
	// ThreadRepos returns the distinct repositories of a user's threads,
	// ascending.
	ThreadRepos(ctx context.Context, userID forge.ID) ([]forge.ID, error)
	// ListThreads returns one page of the threads matching f, the most
	// recently updated first (then by id, descending), and their number.
	// A negative o.Limit lists all; a zero one none (only the number).
	ListThreads(ctx context.Context, f Filter, o forge.ListOptions) ([]*Thread, int64, error)
}

// Subject is what a thread shows of its issue.
type Subject struct {
	RepoID   forge.ID
	Index    int64
	Title    string
	IsPull   bool
	IsClosed bool
	// LastCommentID is the issue's latest plain comment, 0 if none.
	LastCommentID forge.ID
}

// Filter selects one user's threads. A thread matches when its source is
// SourceIssue and its repository is in IssueRepos, or SourcePull and in
// PullRepos (the repositories whose issues, or pull requests, the user may
// read); nil or empty lists match nothing.
type Filter struct {
	UserID     forge.ID
	IssueRepos []forge.ID
	PullRepos  []forge.ID
	// RepoID: only this repository's threads (0 any).
	RepoID forge.ID
	// Statuses: only these (nil any; a non-nil empty slice matches
	// nothing).
	Statuses []Status
	// Sources: only these (nil any; a non-nil empty slice matches
	// nothing).
	Sources []Source
	// UpdatedAfter and UpdatedBefore bound Updated strictly (zero: no
	// bound).
	UpdatedAfter, UpdatedBefore time.Time
}
