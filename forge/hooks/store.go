package hooks

import (
	"context"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// Store is the persistence of hooks and their tasks. Update runs fn in one
// transaction and commits iff it returns nil; View reads one snapshot.
type Store interface {
	Update(ctx context.Context, fn func(Tx) error) error
	View(ctx context.Context, fn func(Tx) error) error
}

// Filter selects the hooks of one owner: RepoID, or OwnerID, or neither
// (system and default hooks, told apart by System).
type Filter struct {
	RepoID  forge.ID
	OwnerID forge.ID
	System  bool
	// ActiveOnly keeps active hooks only.
	ActiveOnly bool
}

// Tx is one transaction over hooks and tasks.
type Tx interface {
	// UserByID returns an account; forge.ErrNotFound if none. (The
	// payloads' accounts are read by the composition root now:
	// repos.Ports.UsersByID.)
	UserByID(ctx context.Context, id forge.ID) (*forge.User, error)

	// CreateHook inserts h (h.ID is set).
	CreateHook(ctx context.Context, h *Hook) error
	// Hook returns a hook; forge.ErrNotFound if none.
	Hook(ctx context.Context, id forge.ID) (*Hook, error)
	// UpdateHook writes every field of h; forge.ErrNotFound if none.
	UpdateHook(ctx context.Context, h *Hook) error
	// DeleteHook removes a hook and its tasks; forge.ErrNotFound if none.
	DeleteHook(ctx context.Context, id forge.ID) error
	// ListHooks returns one page (a negative Limit: all) of the hooks
	// matching f, ordered by id, and their number. For RepoID or OwnerID
	// the System flag is ignored.
	ListHooks(ctx context.Context, f Filter, o forge.ListOptions) ([]*Hook, int64, error)

	// CreateTask inserts t (t.ID is set); forge.ErrNotFound if its hook is
	// missing.
	CreateTask(ctx context.Context, t *Task) error
	// Task returns a task; forge.ErrNotFound if none.
	Task(ctx context.Context, id forge.ID) (*Task, error)
	// UpdateTask writes every field of t; forge.ErrNotFound if none.
	UpdateTask(ctx context.Context, t *Task) error
	// DueTasks returns at most limit undelivered tasks whose NextAttempt
	// is not after now, ordered by NextAttempt then id.
	DueTasks(ctx context.Context, now time.Time, limit int) ([]*Task, error)
	// ListTasks returns one page of a hook's tasks, newest first, and
	// their number.
	ListTasks(ctx context.Context, hookID forge.ID, o forge.ListOptions) ([]*Task, int64, error)

	// AppendOutbox appends an event (its kind and JSON data) to the
	// outbox, pending, created at; domains call it in the transaction of
	// the change the event tells.
	AppendOutbox(ctx context.Context, kind string, data []byte, at time.Time) error
	// ClaimOutbox claims for claim until until, and returns, at most limit
	// pending events whose claim is free or ended (ClaimUntil not after
	// now), oldest first. On engines with several writers it skips the
	// events another transaction holds.
	ClaimOutbox(ctx context.Context, claim string, now, until time.Time, limit int) ([]*OutboxEvent, error)
	// FinishOutbox marks event id processed at at; forge.ErrNotFound if
	// there is no such event, forge.ErrConflict if it is processed
	// already or its claim is no longer claim.
	FinishOutbox(ctx context.Context, id forge.ID, claim string, at time.Time) error
	// PruneOutbox deletes the events processed before before (pending
	// ones stay) and returns how many.
	PruneOutbox(ctx context.Context, before time.Time) (int64, error)
}
