package storetest

import (
	"context"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/actions"
)

// The recording wrapper of actions.Tx (see record.go).

type recActionsStore struct {
	s   actions.Store
	rec *recorder
}

func (r recActionsStore) Update(ctx context.Context, fn func(actions.Tx) error) error {
	return r.s.Update(ctx, func(tx actions.Tx) error { return fn(recActionsTx{tx, r.rec}) })
}

func (r recActionsStore) View(ctx context.Context, fn func(actions.Tx) error) error {
	return r.s.View(ctx, func(tx actions.Tx) error { return fn(recActionsTx{tx, r.rec}) })
}

type recActionsTx struct {
	actions.Tx
	rec *recorder
}

func (x recActionsTx) PutSecret(ctx context.Context, s *actions.Secret) (bool, error) {
	x.rec.hit("actions.Tx.PutSecret")
	return x.Tx.PutSecret(ctx, s)
}

func (x recActionsTx) SecretByName(ctx context.Context, sc actions.Scope, name string) (*actions.Secret, error) {
	x.rec.hit("actions.Tx.SecretByName")
	return x.Tx.SecretByName(ctx, sc, name)
}

func (x recActionsTx) ListSecrets(ctx context.Context, sc actions.Scope, o forge.ListOptions) ([]*actions.Secret, int64, error) {
	x.rec.hit("actions.Tx.ListSecrets")
	return x.Tx.ListSecrets(ctx, sc, o)
}

func (x recActionsTx) DeleteSecret(ctx context.Context, sc actions.Scope, name string) error {
	x.rec.hit("actions.Tx.DeleteSecret")
	return x.Tx.DeleteSecret(ctx, sc, name)
}

func (x recActionsTx) CreateVariable(ctx context.Context, v *actions.Variable) error {
	x.rec.hit("actions.Tx.CreateVariable")
	return x.Tx.CreateVariable(ctx, v)
}

func (x recActionsTx) VariableByName(ctx context.Context, sc actions.Scope, name string) (*actions.Variable, error) {
	x.rec.hit("actions.Tx.VariableByName")
	return x.Tx.VariableByName(ctx, sc, name)
}

func (x recActionsTx) UpdateVariable(ctx context.Context, v *actions.Variable) error {
	x.rec.hit("actions.Tx.UpdateVariable")
	return x.Tx.UpdateVariable(ctx, v)
}

func (x recActionsTx) DeleteVariable(ctx context.Context, id forge.ID) error {
	x.rec.hit("actions.Tx.DeleteVariable")
	return x.Tx.DeleteVariable(ctx, id)
}

func (x recActionsTx) ListVariables(ctx context.Context, sc actions.Scope, o forge.ListOptions) ([]*actions.Variable, int64, error) {
	x.rec.hit("actions.Tx.ListVariables")
	return x.Tx.ListVariables(ctx, sc, o)
}

func (x recActionsTx) LatestRunnerToken(ctx context.Context, sc actions.Scope) (*actions.RunnerToken, error) {
	x.rec.hit("actions.Tx.LatestRunnerToken")
	return x.Tx.LatestRunnerToken(ctx, sc)
}

func (x recActionsTx) CreateRunnerToken(ctx context.Context, t *actions.RunnerToken) error {
	x.rec.hit("actions.Tx.CreateRunnerToken")
	return x.Tx.CreateRunnerToken(ctx, t)
}

func (x recActionsTx) CreateRunner(ctx context.Context, r *actions.Runner) error {
	x.rec.hit("actions.Tx.CreateRunner")
	return x.Tx.CreateRunner(ctx, r)
}

func (x recActionsTx) RunnerByID(ctx context.Context, id forge.ID) (*actions.Runner, error) {
	x.rec.hit("actions.Tx.RunnerByID")
	return x.Tx.RunnerByID(ctx, id)
}

func (x recActionsTx) ListRunners(ctx context.Context, f actions.RunnerFilter, o forge.ListOptions) ([]*actions.Runner, int64, error) {
	x.rec.hit("actions.Tx.ListRunners")
	return x.Tx.ListRunners(ctx, f, o)
}

func (x recActionsTx) DeleteRunner(ctx context.Context, id forge.ID) error {
	x.rec.hit("actions.Tx.DeleteRunner")
	return x.Tx.DeleteRunner(ctx, id)
}

func (x recActionsTx) CreateRun(ctx context.Context, r *actions.Run) error {
	x.rec.hit("actions.Tx.CreateRun")
	return x.Tx.CreateRun(ctx, r)
}

func (x recActionsTx) RunByID(ctx context.Context, repoID, id forge.ID) (*actions.Run, error) {
	x.rec.hit("actions.Tx.RunByID")
	return x.Tx.RunByID(ctx, repoID, id)
}

func (x recActionsTx) ListRuns(ctx context.Context, f actions.RunFilter, o forge.ListOptions) ([]*actions.Run, int64, error) {
	x.rec.hit("actions.Tx.ListRuns")
	return x.Tx.ListRuns(ctx, f, o)
}
