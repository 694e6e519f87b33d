package storetest

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/actions"
)

// The conformance cases of actions.Tx: secrets, variables, registration
// tokens, runners and runs, each at its scope.

var actAt = time.Date(2024, 3, 4, 5, 6, 7, 0, time.UTC)

// testActionSecrets: PutSecret inserts then replaces within a scope; the
// same name in another scope is another secret; lists page by name and
// carry the sealed value only where asked for.
func testActionSecrets(t *testing.T, b Backend) {
	ctx := context.Background()
	owner, repo := newUserRepo(t, b, "sec-owner", "sec-repo")
	rs, us := actions.Scope{RepoID: repo.ID}, actions.Scope{OwnerID: owner.ID}

	put := func(sc actions.Scope, name, sealed string, at time.Time) (*actions.Secret, bool) {
		s := &actions.Secret{Scope: sc, Name: name, Sealed: sealed, Created: at}
		var created bool
		actUpdate(t, b, func(tx actions.Tx) error {
			var err error
			created, err = tx.PutSecret(ctx, s)
			return err
		})
		return s, created
	}
	a, created := put(rs, "B_SECRET", "sealed-1", actAt)
	require.True(t, created)
	require.NotZero(t, a.ID)
	again, created := put(rs, "B_SECRET", "sealed-2", actAt.Add(time.Hour))
	assert.False(t, created, "the same name in the same scope is an update")
	assert.Equal(t, a.ID, again.ID)
	assert.Equal(t, actAt, again.Created, "an update keeps the creation time")
	_, created = put(us, "B_SECRET", "sealed-user", actAt)
	assert.True(t, created, "another scope has its own secrets")
	put(rs, "A_SECRET", "sealed-a", actAt)

	actView(t, b, func(tx actions.Tx) error {
		got, err := tx.SecretByName(ctx, rs, "B_SECRET")
		require.NoError(t, err)
		assert.Equal(t, "sealed-2", got.Sealed)
		assert.Equal(t, actions.Secret{ID: a.ID, Scope: rs, Name: "B_SECRET", Sealed: "sealed-2", Created: actAt}, *got)
		_, err = tx.SecretByName(ctx, rs, "NONE")
		assert.ErrorIs(t, err, forge.ErrNotFound)

		list, total, err := tx.ListSecrets(ctx, rs, forge.ListOptions{Page: 1, Limit: 1})
		require.NoError(t, err)
		assert.EqualValues(t, 2, total)
		require.Len(t, list, 1)
		assert.Equal(t, "A_SECRET", list[0].Name)
		list, _, err = tx.ListSecrets(ctx, rs, forge.ListOptions{Page: 2, Limit: 1})
		require.NoError(t, err)
		require.Len(t, list, 1)
		assert.Equal(t, "B_SECRET", list[0].Name)
		empty, total, err := tx.ListSecrets(ctx, actions.Scope{OwnerID: 99999}, forge.ListOptions{})
		require.NoError(t, err)
		assert.NotNil(t, empty)
		assert.Zero(t, total)
		return nil
	})

	actUpdate(t, b, func(tx actions.Tx) error {
		deleteOnce(t, func() error { return tx.DeleteSecret(ctx, rs, "B_SECRET") })
		_, err := tx.SecretByName(ctx, us, "B_SECRET")
		assert.NoError(t, err, "deleting in one scope leaves the other")
		return nil
	})
}

// testActionVariables: names are unique per scope; updates rename and
// conflict on a taken name.
func testActionVariables(t *testing.T, b Backend) {
	ctx := context.Background()
	owner := newUser(t, b, "var-owner")
	sc := actions.Scope{OwnerID: owner.ID}
	x := &actions.Variable{Scope: sc, Name: "X", Data: "1", Created: actAt}
	y := &actions.Variable{Scope: sc, Name: "Y", Data: "2", Created: actAt}
	actUpdate(t, b, func(tx actions.Tx) error {
		require.NoError(t, tx.CreateVariable(ctx, x))
		require.NoError(t, tx.CreateVariable(ctx, y))
		assert.ErrorIs(t, tx.CreateVariable(ctx, &actions.Variable{Scope: sc, Name: "X"}), forge.ErrConflict)
		require.NoError(t, tx.CreateVariable(ctx, &actions.Variable{Scope: actions.Scope{OwnerID: owner.ID + 1000}, Name: "X"}))
		return nil
	})
	require.NotZero(t, x.ID)
	actUpdate(t, b, func(tx actions.Tx) error {
		assert.ErrorIs(t, tx.UpdateVariable(ctx, &actions.Variable{ID: x.ID, Name: "Y", Data: "3"}), forge.ErrConflict)
		require.NoError(t, tx.UpdateVariable(ctx, &actions.Variable{ID: x.ID, Name: "Z", Data: "3"}))
		assert.ErrorIs(t, tx.UpdateVariable(ctx, &actions.Variable{ID: 999999, Name: "Q"}), forge.ErrNotFound)
		return nil
	})
	actView(t, b, func(tx actions.Tx) error {
		got, err := tx.VariableByName(ctx, sc, "Z")
		require.NoError(t, err)
		assert.Equal(t, actions.Variable{ID: x.ID, Scope: sc, Name: "Z", Data: "3", Created: actAt}, *got)
		_, err = tx.VariableByName(ctx, sc, "X")
		assert.ErrorIs(t, err, forge.ErrNotFound)
		list, total, err := tx.ListVariables(ctx, sc, forge.ListOptions{})
		require.NoError(t, err)
		assert.EqualValues(t, 2, total)
		require.Len(t, list, 2)
		assert.Equal(t, []string{"Y", "Z"}, []string{list[0].Name, list[1].Name})
		return nil
	})
	actUpdate(t, b, func(tx actions.Tx) error {
		deleteOnce(t, func() error { return tx.DeleteVariable(ctx, y.ID) })
		return nil
	})
}

// testActionRunnerTokens: the latest token of a scope, and a new one
// retires the others of that scope only.
func testActionRunnerTokens(t *testing.T, b Backend) {
	ctx := context.Background()
	owner := newUser(t, b, "tok-owner")
	sc := actions.Scope{OwnerID: owner.ID}
	wantNotFound(t, b.Actions(), func(ctx context.Context, tx actions.Tx) error { _, err := tx.LatestRunnerToken(ctx, sc); return err })
	first := &actions.RunnerToken{Scope: sc, Token: "tok-first-" + owner.Name, Active: true, Created: actAt}
	global := &actions.RunnerToken{Scope: actions.Global, Token: "tok-global-" + owner.Name, Active: true, Created: actAt}
	second := &actions.RunnerToken{Scope: sc, Token: "tok-second-" + owner.Name, Active: true, Created: actAt}
	actUpdate(t, b, func(tx actions.Tx) error {
		require.NoError(t, tx.CreateRunnerToken(ctx, first))
		require.NoError(t, tx.CreateRunnerToken(ctx, global))
		return nil
	})
	actView(t, b, func(tx actions.Tx) error {
		got, err := tx.LatestRunnerToken(ctx, sc)
		require.NoError(t, err)
		assert.Equal(t, *first, *got)
		return nil
	})
	actUpdate(t, b, func(tx actions.Tx) error { return tx.CreateRunnerToken(ctx, second) })
	actView(t, b, func(tx actions.Tx) error {
		got, err := tx.LatestRunnerToken(ctx, sc)
		require.NoError(t, err)
		assert.Equal(t, second.Token, got.Token)
		assert.True(t, got.Active)
		g, err := tx.LatestRunnerToken(ctx, actions.Global)
		require.NoError(t, err)
		assert.True(t, g.Active, "another scope's token stays active")
		return nil
	})
}

// testActionRunners: runners keep their labels; filters select a scope,
// what it sees, or everything.
func testActionRunners(t *testing.T, b Backend) {
	ctx := context.Background()
	owner, repo := newUserRepo(t, b, "run-owner", "run-repo")
	mk := func(sc actions.Scope, uuid string, labels ...string) *actions.Runner {
		r := &actions.Runner{Scope: sc, UUID: uuid, Name: "n-" + uuid, Description: "d", Ephemeral: true,
			TokenHash: "h", Labels: labels, Version: "v1", Created: actAt}
		actUpdate(t, b, func(tx actions.Tx) error { return tx.CreateRunner(ctx, r) })
		return r
	}
	rr := mk(actions.Scope{RepoID: repo.ID}, owner.Name+"-repo", "ubuntu", "docker")
	or := mk(actions.Scope{OwnerID: owner.ID}, owner.Name+"-owner")
	gr := mk(actions.Global, owner.Name+"-global")
	actUpdate(t, b, func(tx actions.Tx) error {
		err := tx.CreateRunner(ctx, &actions.Runner{UUID: rr.UUID, Name: "dup", Labels: []string{}})
		assert.ErrorIs(t, err, forge.ErrConflict)
		return nil
	})
	ids := func(list []*actions.Runner) []forge.ID {
		out := []forge.ID{}
		for _, r := range list {
			out = append(out, r.ID)
		}
		return out
	}
	actView(t, b, func(tx actions.Tx) error {
		got, err := tx.RunnerByID(ctx, rr.ID)
		require.NoError(t, err)
		assert.Equal(t, *rr, *got)
		_, err = tx.RunnerByID(ctx, 999999)
		assert.ErrorIs(t, err, forge.ErrNotFound)

		list, total, err := tx.ListRunners(ctx, actions.RunnerFilter{Scope: rr.Scope}, forge.ListOptions{})
		require.NoError(t, err)
		assert.Equal(t, []forge.ID{rr.ID}, ids(list))
		assert.EqualValues(t, 1, total)
		assert.Equal(t, []string{"ubuntu", "docker"}, list[0].Labels)
		list, _, err = tx.ListRunners(ctx, actions.RunnerFilter{Scope: rr.Scope, Visible: true, VisibleOwner: owner.ID}, forge.ListOptions{})
		require.NoError(t, err)
		assert.Subset(t, ids(list), []forge.ID{rr.ID, or.ID, gr.ID})
		list, _, err = tx.ListRunners(ctx, actions.RunnerFilter{Scope: or.Scope, Visible: true}, forge.ListOptions{})
		require.NoError(t, err)
		assert.Contains(t, ids(list), gr.ID)
		assert.NotContains(t, ids(list), rr.ID)
		list, total, err = tx.ListRunners(ctx, actions.RunnerFilter{All: true}, forge.ListOptions{Page: 1, Limit: 2})
		require.NoError(t, err)
		assert.Len(t, list, 2)
		assert.GreaterOrEqual(t, total, int64(3))
		return nil
	})
	actUpdate(t, b, func(tx actions.Tx) error {
		deleteOnce(t, func() error { return tx.DeleteRunner(ctx, rr.ID) })
		return nil
	})
}

// testActionRuns: runs are numbered per repository and filtered.
func testActionRuns(t *testing.T, b Backend) {
	ctx := context.Background()
	owner, r1, r2 := newUserRepos(t, b, "runs-owner", "runs-1", "runs-2")
	mk := func(repo *forge.Repository, event string) *actions.Run {
		r := &actions.Run{RepoID: repo.ID, OwnerID: owner.ID, Title: "t", WorkflowID: "ci.yml", Ref: "refs/heads/main",
			CommitSHA: "abc", Event: event, TriggerUserID: owner.ID, Status: actions.StatusWaiting, Created: actAt, Updated: actAt}
		actUpdate(t, b, func(tx actions.Tx) error { return tx.CreateRun(ctx, r) })
		return r
	}
	a, bb, c := mk(r1, "workflow_dispatch"), mk(r1, "push"), mk(r2, "push")
	assert.Equal(t, []int64{1, 2, 1}, []int64{a.Index, bb.Index, c.Index})
	err := b.Actions().Update(ctx, func(tx actions.Tx) error {
		return tx.CreateRun(ctx, &actions.Run{RepoID: 999999, Status: actions.StatusWaiting})
	})
	assert.True(t, errors.Is(err, forge.ErrNotFound), "a run of no repository: %v", err)
	actView(t, b, func(tx actions.Tx) error {
		got, err := tx.RunByID(ctx, r1.ID, a.ID)
		require.NoError(t, err)
		assert.Equal(t, *a, *got)
		_, err = tx.RunByID(ctx, r2.ID, a.ID)
		assert.ErrorIs(t, err, forge.ErrNotFound, "a run is found in its repository only")
		list, total, err := tx.ListRuns(ctx, actions.RunFilter{RepoID: r1.ID}, forge.ListOptions{})
		require.NoError(t, err)
		assert.EqualValues(t, 2, total)
		require.Len(t, list, 2)
		assert.Equal(t, bb.ID, list[0].ID, "newest first")
		list, total, err = tx.ListRuns(ctx, actions.RunFilter{RepoID: r1.ID, Events: []string{"push", "schedule"}, Ref: "refs/heads/main", WorkflowID: "ci.yml", Status: []actions.RunStatus{actions.StatusWaiting}, Index: 2, CommitSHA: "abc"}, forge.ListOptions{})
		require.NoError(t, err)
		assert.EqualValues(t, 1, total)
		require.Len(t, list, 1)
		for _, f := range []actions.RunFilter{
			{RepoID: r1.ID, Status: []actions.RunStatus{actions.StatusSuccess}},
			{RepoID: r1.ID, Ref: "refs/heads/other"},
			{RepoID: r1.ID, WorkflowID: "other.yml"},
			{RepoID: r1.ID, Events: []string{"schedule"}},
		} {
			list, total, err = tx.ListRuns(ctx, f, forge.ListOptions{})
			require.NoError(t, err)
			assert.Zero(t, total, "%+v", f)
		}
		list, total, err = tx.ListRuns(ctx, actions.RunFilter{RepoID: r1.ID, Status: []actions.RunStatus{actions.StatusSuccess}}, forge.ListOptions{})
		require.NoError(t, err)
		assert.Zero(t, total)
		assert.NotNil(t, list)
		return nil
	})
}
