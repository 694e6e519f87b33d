package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"strings"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/actions"
)

// Actions returns the store package forge/actions consumes.
func (db *DB) Actions() actions.Store { return storeOf(db, func(t *tx) actions.Tx { return t }) }

var _ actions.Tx = (*tx)(nil)

var (
	sqlFindSecret = prepared(`SELECT id, created_unix FROM secret WHERE owner_id = ? AND repo_id = ? AND name = ?`)
	sqlSetSecret  = prepared(`UPDATE secret SET data = ? WHERE id = ?`)
	sqlAddSecret  = prepared(`INSERT INTO secret (owner_id, repo_id, name, data, created_unix) VALUES (?,?,?,?,?) RETURNING id`)
	sqlGetSecret  = prepared(`SELECT id, owner_id, repo_id, name, data, created_unix FROM secret
		WHERE owner_id = ? AND repo_id = ? AND name = ?`)
	sqlCountSecrets = prepared(`SELECT count(*) FROM secret WHERE owner_id = ? AND repo_id = ?`)
	sqlListSecrets  = prepared(`SELECT id, owner_id, repo_id, name, '', created_unix FROM secret
		WHERE owner_id = ? AND repo_id = ? ORDER BY name, id LIMIT ? OFFSET ?`)
	sqlDelSecret = prepared(`DELETE FROM secret WHERE owner_id = ? AND repo_id = ? AND name = ?`)
)

// PutSecret implements actions.Tx.
func (t *tx) PutSecret(ctx context.Context, s *actions.Secret) (bool, error) {
	var created int64
	err := t.queryRow(ctx, sqlFindSecret, s.Scope.OwnerID, s.Scope.RepoID, s.Name).Scan(&s.ID, &created)
	switch {
	case err == nil:
		s.Created = fromUnix(created)
		_, err = t.exec(ctx, sqlSetSecret, s.Sealed, s.ID)
		return false, mapError(err, "update secret")
	case !errors.Is(err, sql.ErrNoRows):
		return false, mapError(err, "find secret")
	}
	err = t.guarded(ctx, func() error {
		return t.queryRow(ctx, sqlAddSecret, s.Scope.OwnerID, s.Scope.RepoID, s.Name, s.Sealed, toUnix(s.Created)).Scan(&s.ID)
	})
	s.Created = fromUnix(toUnix(s.Created))
	return err == nil, mapError(err, "create secret")
}

func scanSecret(sc interface{ Scan(...any) error }) (*actions.Secret, error) {
	s := &actions.Secret{}
	var created int64
	err := sc.Scan(&s.ID, &s.Scope.OwnerID, &s.Scope.RepoID, &s.Name, &s.Sealed, &created)
	s.Created = fromUnix(created)
	return s, err
}

// SecretByName implements actions.Tx.
func (t *tx) SecretByName(ctx context.Context, sc actions.Scope, name string) (*actions.Secret, error) {
	s, err := scanSecret(t.queryRow(ctx, sqlGetSecret, sc.OwnerID, sc.RepoID, name))
	if err != nil {
		return nil, mapError(err, "secret")
	}
	return s, nil
}

// ListSecrets implements actions.Tx; the values are not read.
func (t *tx) ListSecrets(ctx context.Context, sc actions.Scope, o forge.ListOptions) ([]*actions.Secret, int64, error) {
	return pageRows(ctx, t, "list secrets", sqlCountSecrets, sqlListSecrets, []any{sc.OwnerID, sc.RepoID}, o, scanSecret)
}

// DeleteSecret implements actions.Tx.
func (t *tx) DeleteSecret(ctx context.Context, sc actions.Scope, name string) error {
	res, err := t.exec(ctx, sqlDelSecret, sc.OwnerID, sc.RepoID, name)
	return affectedOne(res, err, "delete secret")
}

// pageRows runs a count and a page query (ending in LIMIT ? OFFSET ?) with
// args and o normalised, scanning rows with scan.
func pageRows[T any](ctx context.Context, t *tx, what, countQ, listQ string, args []any, o forge.ListOptions,
	scan func(rowScanner) (T, error)) ([]T, int64, error) {
	o = o.Normalize()
	return countedRows(ctx, t, scan, what, countQ, args, listQ, append(args, o.Limit, o.Offset())...)
}

// countedRows returns the rows of listQ with listArgs (queryAll) and the
// count countQ answers with countArgs.
func countedRows[T any](ctx context.Context, t *tx, scan func(rowScanner) (T, error), what, countQ string, countArgs []any,
	listQ string, listArgs ...any) ([]T, int64, error) {
	var total int64
	if err := t.queryRow(ctx, countQ, countArgs...).Scan(&total); err != nil {
		return nil, 0, mapError(err, what)
	}
	list, err := queryAll(ctx, t, scan, what, listQ, listArgs...)
	if err != nil {
		return nil, 0, err
	}
	return list, total, nil
}

const variableCols = `id, owner_id, repo_id, name, data, created_unix`

var (
	sqlAddVariable = prepared(`INSERT INTO action_variable (owner_id, repo_id, name, data, created_unix)
		VALUES (?,?,?,?,?) RETURNING id`)
	sqlGetVariable = prepared(`SELECT ` + variableCols + ` FROM action_variable
		WHERE owner_id = ? AND repo_id = ? AND name = ?`)
	sqlSetVariable    = prepared(`UPDATE action_variable SET name = ?, data = ? WHERE id = ?`)
	sqlDelVariable    = prepared(`DELETE FROM action_variable WHERE id = ?`)
	sqlCountVariables = prepared(`SELECT count(*) FROM action_variable WHERE owner_id = ? AND repo_id = ?`)
	sqlListVariables  = prepared(`SELECT ` + variableCols + ` FROM action_variable
		WHERE owner_id = ? AND repo_id = ? ORDER BY name, id LIMIT ? OFFSET ?`)
)

func scanVariable(sc interface{ Scan(...any) error }) (*actions.Variable, error) {
	v := &actions.Variable{}
	var created int64
	err := sc.Scan(&v.ID, &v.Scope.OwnerID, &v.Scope.RepoID, &v.Name, &v.Data, &created)
	v.Created = fromUnix(created)
	return v, err
}

// CreateVariable implements actions.Tx.
func (t *tx) CreateVariable(ctx context.Context, v *actions.Variable) error {
	err := t.guarded(ctx, func() error {
		return t.queryRow(ctx, sqlAddVariable, v.Scope.OwnerID, v.Scope.RepoID, v.Name, v.Data, toUnix(v.Created)).Scan(&v.ID)
	})
	v.Created = fromUnix(toUnix(v.Created))
	return mapError(err, "create variable")
}

// VariableByName implements actions.Tx.
func (t *tx) VariableByName(ctx context.Context, sc actions.Scope, name string) (*actions.Variable, error) {
	v, err := scanVariable(t.queryRow(ctx, sqlGetVariable, sc.OwnerID, sc.RepoID, name))
	if err != nil {
		return nil, mapError(err, "variable")
	}
	return v, nil
}

// UpdateVariable implements actions.Tx.
func (t *tx) UpdateVariable(ctx context.Context, v *actions.Variable) error {
	return t.guarded(ctx, func() error {
		res, err := t.exec(ctx, sqlSetVariable, v.Name, v.Data, v.ID)
		return affectedOne(res, err, "update variable")
	})
}

// DeleteVariable implements actions.Tx.
func (t *tx) DeleteVariable(ctx context.Context, id forge.ID) error {
	res, err := t.exec(ctx, sqlDelVariable, id)
	return affectedOne(res, err, "delete variable")
}

// ListVariables implements actions.Tx.
func (t *tx) ListVariables(ctx context.Context, sc actions.Scope, o forge.ListOptions) ([]*actions.Variable, int64, error) {
	return pageRows(ctx, t, "list variables", sqlCountVariables, sqlListVariables, []any{sc.OwnerID, sc.RepoID}, o, scanVariable)
}

var (
	sqlLatestRunnerToken = prepared(`SELECT id, owner_id, repo_id, token, is_active, created_unix FROM action_runner_token
		WHERE owner_id = ? AND repo_id = ? ORDER BY id DESC LIMIT 1`)
	sqlRetireRunnerTokens = prepared(`UPDATE action_runner_token SET is_active = FALSE WHERE owner_id = ? AND repo_id = ?`)
	sqlAddRunnerToken     = prepared(`INSERT INTO action_runner_token (owner_id, repo_id, token, is_active, created_unix)
		VALUES (?,?,?,?,?) RETURNING id`)
)

// LatestRunnerToken implements actions.Tx.
func (t *tx) LatestRunnerToken(ctx context.Context, sc actions.Scope) (*actions.RunnerToken, error) {
	tok := &actions.RunnerToken{}
	var created int64
	err := t.queryRow(ctx, sqlLatestRunnerToken, sc.OwnerID, sc.RepoID).
		Scan(&tok.ID, &tok.Scope.OwnerID, &tok.Scope.RepoID, &tok.Token, &tok.Active, &created)
	if err != nil {
		return nil, mapError(err, "runner token")
	}
	tok.Created = fromUnix(created)
	return tok, nil
}

// CreateRunnerToken implements actions.Tx.
func (t *tx) CreateRunnerToken(ctx context.Context, tok *actions.RunnerToken) error {
	if _, err := t.exec(ctx, sqlRetireRunnerTokens, tok.Scope.OwnerID, tok.Scope.RepoID); err != nil {
		return mapError(err, "retire runner tokens")
	}
	err := t.guarded(ctx, func() error {
		return t.queryRow(ctx, sqlAddRunnerToken, tok.Scope.OwnerID, tok.Scope.RepoID, tok.Token, tok.Active, toUnix(tok.Created)).Scan(&tok.ID)
	})
	tok.Created = fromUnix(toUnix(tok.Created))
	return mapError(err, "create runner token")
}

const runnerCols = `id, uuid, owner_id, repo_id, name, description, ephemeral, token_hash, version, created_unix`

var (
	sqlAddRunner = prepared(`INSERT INTO action_runner (uuid, owner_id, repo_id, name, description, ephemeral,
		token_hash, version, created_unix) VALUES (?,?,?,?,?,?,?,?,?) RETURNING id`)
	sqlAddRunnerLabel = prepared(`INSERT INTO action_runner_label (runner_id, position, label) VALUES (?,?,?)`)
	sqlGetRunner      = prepared(`SELECT ` + runnerCols + ` FROM action_runner WHERE id = ?`)
	sqlRunnerLabels   = prepared(`SELECT label FROM action_runner_label WHERE runner_id = ? ORDER BY position`)
	sqlDelRunner      = prepared(`DELETE FROM action_runner WHERE id = ?`)
)

func scanRunner(sc interface{ Scan(...any) error }) (*actions.Runner, error) {
	r := &actions.Runner{Labels: []string{}}
	var created int64
	err := sc.Scan(&r.ID, &r.UUID, &r.Scope.OwnerID, &r.Scope.RepoID, &r.Name, &r.Description, &r.Ephemeral,
		&r.TokenHash, &r.Version, &created)
	r.Created = fromUnix(created)
	return r, err
}

// CreateRunner implements actions.Tx.
func (t *tx) CreateRunner(ctx context.Context, r *actions.Runner) error {
	var id forge.ID
	err := t.guarded(ctx, func() error {
		err := t.queryRow(ctx, sqlAddRunner, r.UUID, r.Scope.OwnerID, r.Scope.RepoID, r.Name, r.Description, r.Ephemeral,
			r.TokenHash, r.Version, toUnix(r.Created)).Scan(&id)
		if err != nil {
			return mapError(err, "create runner")
		}
		for i, l := range r.Labels {
			if _, err := t.exec(ctx, sqlAddRunnerLabel, id, i, l); err != nil {
				return mapError(err, "create runner label")
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	r.ID, r.Created = id, fromUnix(toUnix(r.Created))
	return nil
}

// runnerLabels fills the labels of runners, one query per runner (runner
// pages are short and labels few).
func (t *tx) runnerLabels(ctx context.Context, list []*actions.Runner) error {
	for _, r := range list {
		rows, err := t.query(ctx, sqlRunnerLabels, r.ID)
		if err != nil {
			return mapError(err, "runner labels")
		}
		for rows.Next() {
			var l string
			if err := rows.Scan(&l); err != nil {
				rows.Close()
				return mapError(err, "runner labels")
			}
			r.Labels = append(r.Labels, l)
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return mapError(err, "runner labels")
		}
	}
	return nil
}

// RunnerByID implements actions.Tx.
func (t *tx) RunnerByID(ctx context.Context, id forge.ID) (*actions.Runner, error) {
	r, err := scanRunner(t.queryRow(ctx, sqlGetRunner, id))
	if err != nil {
		return nil, mapError(err, "runner")
	}
	return r, t.runnerLabels(ctx, []*actions.Runner{r})
}

// ListRunners implements actions.Tx.
func (t *tx) ListRunners(ctx context.Context, f actions.RunnerFilter, o forge.ListOptions) ([]*actions.Runner, int64, error) {
	where, args := "1 = 1", []any{}
	if !f.All {
		conds := []string{"(owner_id = ? AND repo_id = ?)"}
		args = append(args, f.Scope.OwnerID, f.Scope.RepoID)
		if f.Visible {
			conds = append(conds, "(owner_id = 0 AND repo_id = 0)")
			if f.VisibleOwner != 0 {
				conds = append(conds, "(owner_id = ? AND repo_id = 0)")
				args = append(args, f.VisibleOwner)
			}
		}
		where = strings.Join(conds, " OR ")
	}
	list, total, err := pageRows(ctx, t, "list runners", "SELECT count(*) FROM action_runner WHERE "+where,
		"SELECT "+runnerCols+" FROM action_runner WHERE "+where+" ORDER BY id LIMIT ? OFFSET ?", args, o, scanRunner)
	if err != nil {
		return nil, 0, err
	}
	return list, total, t.runnerLabels(ctx, list)
}

// DeleteRunner implements actions.Tx; its labels go with it.
func (t *tx) DeleteRunner(ctx context.Context, id forge.ID) error {
	res, err := t.exec(ctx, sqlDelRunner, id)
	return affectedOne(res, err, "delete runner")
}

const runCols = `id, repo_id, owner_id, "index", title, workflow_id, ref, commit_sha, event, trigger_user_id, status,
	created_unix, updated_unix`

var (
	sqlAddRun = prepared(`INSERT INTO action_run (repo_id, owner_id, "index", title, workflow_id, ref, commit_sha, event,
		trigger_user_id, status, created_unix, updated_unix)
		VALUES (?1, ?2, (SELECT coalesce(max("index"), 0) + 1 FROM action_run WHERE repo_id = ?1), ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)
		RETURNING id, "index"`)
	sqlGetRun = prepared(`SELECT ` + runCols + ` FROM action_run WHERE repo_id = ? AND id = ?`)
)

func scanRun(sc interface{ Scan(...any) error }) (*actions.Run, error) {
	r := &actions.Run{}
	var created, updated int64
	var status string
	err := sc.Scan(&r.ID, &r.RepoID, &r.OwnerID, &r.Index, &r.Title, &r.WorkflowID, &r.Ref, &r.CommitSHA, &r.Event,
		&r.TriggerUserID, &status, &created, &updated)
	r.Status, r.Created, r.Updated = actions.RunStatus(status), fromUnix(created), fromUnix(updated)
	return r, err
}

// CreateRun implements actions.Tx; forge.ErrNotFound for a repository
// that does not exist.
func (t *tx) CreateRun(ctx context.Context, r *actions.Run) error {
	err := t.guarded(ctx, func() error {
		return t.queryRow(ctx, sqlAddRun, r.RepoID, r.OwnerID, r.Title, r.WorkflowID, r.Ref, r.CommitSHA, r.Event,
			r.TriggerUserID, string(r.Status), toUnix(r.Created), toUnix(r.Updated)).Scan(&r.ID, &r.Index)
	})
	r.Created, r.Updated = fromUnix(toUnix(r.Created)), fromUnix(toUnix(r.Updated))
	return mapError(err, "create run")
}

// RunByID implements actions.Tx.
func (t *tx) RunByID(ctx context.Context, repoID, id forge.ID) (*actions.Run, error) {
	r, err := scanRun(t.queryRow(ctx, sqlGetRun, repoID, id))
	if err != nil {
		return nil, mapError(err, "run")
	}
	return r, nil
}

// ListRuns implements actions.Tx, newest first.
func (t *tx) ListRuns(ctx context.Context, f actions.RunFilter, o forge.ListOptions) ([]*actions.Run, int64, error) {
	conds, args := []string{"repo_id = ?"}, []any{f.RepoID}
	if len(f.Events) > 0 {
		conds = append(conds, "event IN ("+placeholders(len(f.Events))+")")
		for _, e := range f.Events {
			args = append(args, e)
		}
	}
	if f.Ref != "" {
		conds, args = append(conds, "ref = ?"), append(args, f.Ref)
	}
	if f.WorkflowID != "" {
		conds, args = append(conds, "workflow_id = ?"), append(args, f.WorkflowID)
	}
	if len(f.Status) > 0 {
		conds = append(conds, "status IN ("+placeholders(len(f.Status))+")")
		for _, s := range f.Status {
			args = append(args, string(s))
		}
	}
	if f.Index != 0 {
		conds, args = append(conds, `"index" = ?`), append(args, f.Index)
	}
	if f.CommitSHA != "" {
		conds, args = append(conds, "commit_sha = ?"), append(args, f.CommitSHA)
	}
	where := strings.Join(conds, " AND ")
	return pageRows(ctx, t, "list runs", "SELECT count(*) FROM action_run WHERE "+where,
		"SELECT "+runCols+" FROM action_run WHERE "+where+" ORDER BY id DESC LIMIT ? OFFSET ?", args, o, scanRun)
}
