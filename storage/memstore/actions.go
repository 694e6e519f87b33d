package memstore

import (
	"cmp"
	"context"
	"slices"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/actions"
)

// Actions returns the store package forge/actions consumes.
func (s *Store) Actions() actions.Store {
	return storeOf(s, func(t *tx) actions.Tx { return actionTx{t} })
}

// actionTx is a transaction seen as an actions.Tx.
type actionTx struct{ *tx }

var _ actions.Tx = actionTx{}

// pageOf returns one page of all, sorted by less, copied.
func pageOf[T any](all []T, less func(a, b T) int, o forge.ListOptions) ([]T, int64) {
	slices.SortFunc(all, less)
	lo, hi := o.Normalize().Bounds(len(all))
	return append([]T{}, all[lo:hi]...), int64(len(all))
}

func (t actionTx) PutSecret(ctx context.Context, s *actions.Secret) (bool, error) {
	if err := t.write(ctx); err != nil {
		return false, err
	}
	for id, cur := range t.st.actSecrets {
		if cur.Scope == s.Scope && cur.Name == s.Name {
			cur.Sealed = s.Sealed
			t.st.actSecrets[id] = cur
			s.ID, s.Created = id, cur.Created
			return false, nil
		}
	}
	s.ID, s.Created = t.st.nextID("secret"), ts(s.Created)
	t.st.actSecrets[s.ID] = *s
	return true, nil
}

func (t actionTx) SecretByName(ctx context.Context, sc actions.Scope, name string) (*actions.Secret, error) {
	return findRow(ctx, t, t.st.actSecrets, func(cur actions.Secret) bool { return cur.Scope == sc && cur.Name == name }, "secret")
}

func (t actionTx) ListSecrets(ctx context.Context, sc actions.Scope, o forge.ListOptions) ([]*actions.Secret, int64, error) {
	return pageRows(ctx, t, t.st.actSecrets, func(cur actions.Secret) bool { return cur.Scope == sc }, func(a, b *actions.Secret) int { return cmp.Or(cmp.Compare(a.Name, b.Name), cmp.Compare(a.ID, b.ID)) }, o)
}

func (t actionTx) DeleteSecret(ctx context.Context, sc actions.Scope, name string) error {
	if err := t.write(ctx); err != nil {
		return err
	}
	for id, cur := range t.st.actSecrets {
		if cur.Scope == sc && cur.Name == name {
			delete(t.st.actSecrets, id)
			return nil
		}
	}
	return notFound("secret")
}

func (t actionTx) variableTaken(v *actions.Variable) bool {
	for id, cur := range t.st.actVars {
		if id != v.ID && cur.Scope == v.Scope && cur.Name == v.Name {
			return true
		}
	}
	return false
}

func (t actionTx) CreateVariable(ctx context.Context, v *actions.Variable) error {
	if err := t.write(ctx); err != nil {
		return err
	}
	if t.variableTaken(v) {
		return forge.Errorf(forge.ErrConflict, "variable: already exists")
	}
	v.ID, v.Created = t.st.nextID("variable"), ts(v.Created)
	t.st.actVars[v.ID] = *v
	return nil
}

func (t actionTx) VariableByName(ctx context.Context, sc actions.Scope, name string) (*actions.Variable, error) {
	return findRow(ctx, t, t.st.actVars, func(cur actions.Variable) bool { return cur.Scope == sc && cur.Name == name }, "variable")
}

func (t actionTx) UpdateVariable(ctx context.Context, v *actions.Variable) error {
	cur, err := writeRow(ctx, t, t.st.actVars, v.ID, "variable")
	if err != nil {
		return err
	}
	probe := *v
	probe.Scope = cur.Scope
	if t.variableTaken(&probe) {
		return forge.Errorf(forge.ErrConflict, "variable: already exists")
	}
	cur.Name, cur.Data = v.Name, v.Data
	t.st.actVars[v.ID] = cur
	return nil
}

func (t actionTx) DeleteVariable(ctx context.Context, id forge.ID) error {
	return deleteRow(ctx, t, t.st.actVars, id, "variable", nil)
}

func (t actionTx) ListVariables(ctx context.Context, sc actions.Scope, o forge.ListOptions) ([]*actions.Variable, int64, error) {
	return pageRows(ctx, t, t.st.actVars, func(cur actions.Variable) bool { return cur.Scope == sc }, func(a, b *actions.Variable) int { return cmp.Or(cmp.Compare(a.Name, b.Name), cmp.Compare(a.ID, b.ID)) }, o)
}

func (t actionTx) LatestRunnerToken(ctx context.Context, sc actions.Scope) (*actions.RunnerToken, error) {
	if err := t.read(ctx); err != nil {
		return nil, err
	}
	var best *actions.RunnerToken
	for _, cur := range t.st.actTokens {
		if cur.Scope == sc && (best == nil || cur.ID > best.ID) {
			best = &cur
		}
	}
	if best == nil {
		return nil, notFound("runner token")
	}
	return best, nil
}

func (t actionTx) CreateRunnerToken(ctx context.Context, tok *actions.RunnerToken) error {
	if err := t.write(ctx); err != nil {
		return err
	}
	for id, cur := range t.st.actTokens {
		if cur.Scope == tok.Scope && cur.Active {
			cur.Active = false
			t.st.actTokens[id] = cur
		}
	}
	tok.ID, tok.Created = t.st.nextID("runner_token"), ts(tok.Created)
	t.st.actTokens[tok.ID] = *tok
	return nil
}

func (t actionTx) CreateRunner(ctx context.Context, r *actions.Runner) error {
	if err := t.write(ctx); err != nil {
		return err
	}
	for _, cur := range t.st.actRunners {
		if cur.UUID == r.UUID {
			return forge.Errorf(forge.ErrConflict, "runner: already exists")
		}
	}
	r.ID, r.Created = t.st.nextID("runner"), ts(r.Created)
	c := *r
	c.Labels = slices.Clone(r.Labels)
	t.st.actRunners[r.ID] = c
	return nil
}

func copyRunner(r actions.Runner) *actions.Runner {
	r.Labels = append([]string{}, r.Labels...)
	return &r
}

func (t actionTx) RunnerByID(ctx context.Context, id forge.ID) (*actions.Runner, error) {
	return readAs(ctx, t, t.st.actRunners, id, "runner", copyRunner)
}

// runnerMatches is RunnerFilter's rule.
func runnerMatches(f actions.RunnerFilter, r actions.Runner) bool {
	switch {
	case f.All, r.Scope == f.Scope:
		return true
	case !f.Visible:
		return false
	}
	return r.Scope == actions.Global || (f.VisibleOwner != 0 && r.Scope == actions.Scope{OwnerID: f.VisibleOwner})
}

func (t actionTx) ListRunners(ctx context.Context, f actions.RunnerFilter, o forge.ListOptions) ([]*actions.Runner, int64, error) {
	if err := t.read(ctx); err != nil {
		return nil, 0, err
	}
	all := []*actions.Runner{}
	for _, cur := range t.st.actRunners {
		if runnerMatches(f, cur) {
			all = append(all, copyRunner(cur))
		}
	}
	list, n := pageOf(all, func(a, b *actions.Runner) int { return cmp.Compare(a.ID, b.ID) }, o)
	return list, n, nil
}

func (t actionTx) DeleteRunner(ctx context.Context, id forge.ID) error {
	return deleteRow(ctx, t, t.st.actRunners, id, "runner", nil)
}

func (t actionTx) CreateRun(ctx context.Context, r *actions.Run) error {
	if _, err := writeRow(ctx, t, t.st.repos, r.RepoID, "repository"); err != nil {
		return err
	}
	var last int64
	for _, cur := range t.st.actRuns {
		if cur.RepoID == r.RepoID {
			last = max(last, cur.Index)
		}
	}
	r.ID, r.Index, r.Created, r.Updated = t.st.nextID("action_run"), last+1, ts(r.Created), ts(r.Updated)
	t.st.actRuns[r.ID] = *r
	return nil
}

func (t actionTx) RunByID(ctx context.Context, repoID, id forge.ID) (*actions.Run, error) {
	if err := t.read(ctx); err != nil {
		return nil, err
	}
	r, ok := t.st.actRuns[id]
	if !ok || r.RepoID != repoID {
		return nil, notFound("run")
	}
	return &r, nil
}

// runMatches is RunFilter's rule.
func runMatches(f actions.RunFilter, r actions.Run) bool {
	return r.RepoID == f.RepoID && (len(f.Events) == 0 || slices.Contains(f.Events, r.Event)) &&
		(f.Ref == "" || r.Ref == f.Ref) && (f.WorkflowID == "" || r.WorkflowID == f.WorkflowID) &&
		(len(f.Status) == 0 || slices.Contains(f.Status, r.Status)) &&
		(f.Index == 0 || r.Index == f.Index) && (f.CommitSHA == "" || r.CommitSHA == f.CommitSHA)
}

func (t actionTx) ListRuns(ctx context.Context, f actions.RunFilter, o forge.ListOptions) ([]*actions.Run, int64, error) {
	return pageRows(ctx, t, t.st.actRuns, func(cur actions.Run) bool { return runMatches(f, cur) }, func(a, b *actions.Run) int { return cmp.Compare(b.ID, a.ID) }, o)
}
