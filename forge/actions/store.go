package actions

import (
	"context"

	"github.com/hearthforge/hearth/forge"
)

// Store is the persistence of Actions objects. Update runs fn in one
// transaction and commits iff it returns nil; View reads one snapshot.
type Store interface {
	Update(ctx context.Context, fn func(Tx) error) error
	View(ctx context.Context, fn func(Tx) error) error
}

// Tx is one transaction over Actions objects. Names are stored as given
// (the service upper-cases them) and looked up exactly. Lists are ordered
// by name (secrets, variables) or id (runners; runs newest first) and
// return one page with the number of matches.
type Tx interface {
	// PutSecret inserts s, or replaces the sealed value of the secret of
	// s.Scope with s.Name (keeping its id and creation time). It sets s.ID
	// and reports whether it inserted.
	PutSecret(ctx context.Context, s *Secret) (created bool, err error)
	// SecretByName returns a scope's secret with its sealed value;
	// forge.ErrNotFound if none.
	SecretByName(ctx context.Context, sc Scope, name string) (*Secret, error)
	// ListSecrets returns a page of a scope's secrets.
	ListSecrets(ctx context.Context, sc Scope, o forge.ListOptions) ([]*Secret, int64, error)
	// DeleteSecret removes a scope's secret; forge.ErrNotFound if none.
	DeleteSecret(ctx context.Context, sc Scope, name string) error

	// CreateVariable inserts v (v.ID is set); forge.ErrConflict if the
	// scope has a variable of that name.
	CreateVariable(ctx context.Context, v *Variable) error
	// VariableByName returns forge.ErrNotFound if the scope has none.
	VariableByName(ctx context.Context, sc Scope, name string) (*Variable, error)
	// UpdateVariable writes v's name and data by id; forge.ErrConflict on a
	// name taken in its scope, forge.ErrNotFound if there is no such id.
	UpdateVariable(ctx context.Context, v *Variable) error
	// DeleteVariable removes a variable by id; forge.ErrNotFound if none.
	DeleteVariable(ctx context.Context, id forge.ID) error
	// ListVariables returns a page of a scope's variables.
	ListVariables(ctx context.Context, sc Scope, o forge.ListOptions) ([]*Variable, int64, error)

	// LatestRunnerToken returns the newest registration token of a scope;
	// forge.ErrNotFound if it has none.
	LatestRunnerToken(ctx context.Context, sc Scope) (*RunnerToken, error)
	// CreateRunnerToken inserts t (t.ID is set) and marks every other
	// token of its scope inactive.
	CreateRunnerToken(ctx context.Context, t *RunnerToken) error

	// CreateRunner inserts r (r.ID is set); forge.ErrConflict on a taken
	// UUID.
	CreateRunner(ctx context.Context, r *Runner) error
	// RunnerByID returns forge.ErrNotFound if none.
	RunnerByID(ctx context.Context, id forge.ID) (*Runner, error)
	// ListRunners returns a page of the runners matching f, by id.
	ListRunners(ctx context.Context, f RunnerFilter, o forge.ListOptions) ([]*Runner, int64, error)
	// DeleteRunner removes a runner; forge.ErrNotFound if none.
	DeleteRunner(ctx context.Context, id forge.ID) error

	// CreateRun inserts r with the next index of its repository (r.ID and
	// r.Index are set).
	CreateRun(ctx context.Context, r *Run) error
	// RunByID returns a repository's run; forge.ErrNotFound if none.
	RunByID(ctx context.Context, repoID, id forge.ID) (*Run, error)
	// ListRuns returns a page of the runs matching f, newest first.
	ListRuns(ctx context.Context, f RunFilter, o forge.ListOptions) ([]*Run, int64, error)
}
