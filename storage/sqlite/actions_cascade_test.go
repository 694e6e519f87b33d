package sqlite_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/actions"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/storage/sqlite"
)

// TestActionsGoWithTheirOwner: deleting a repository or an account
// removes the secrets, variables, registration tokens and runners that
// belonged to it (migration 00019's triggers), and no other's.
func TestActionsGoWithTheirOwner(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, err := sqlite.Open(ctx, ":memory:")
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	gone, kept := forgetest.User("gone"), forgetest.User("kept")
	require.NoError(t, db.Auth().Update(ctx, func(tx auth.Tx) error {
		require.NoError(t, tx.CreateUser(ctx, gone, ""))
		return tx.CreateUser(ctx, kept, "")
	}))
	r1 := &forge.Repository{OwnerID: kept.ID, Name: "r1"}
	r2 := &forge.Repository{OwnerID: kept.ID, Name: "r2"}
	require.NoError(t, db.Repos().Update(ctx, func(tx repos.Tx) error {
		require.NoError(t, tx.CreateRepo(ctx, r1))
		return tx.CreateRepo(ctx, r2)
	}))
	scopes := []actions.Scope{{RepoID: r1.ID}, {RepoID: r2.ID}, {OwnerID: gone.ID}, {OwnerID: kept.ID}}
	require.NoError(t, db.Actions().Update(ctx, func(tx actions.Tx) error {
		for i, sc := range scopes {
			if _, err := tx.PutSecret(ctx, &actions.Secret{Scope: sc, Name: "S", Sealed: "x"}); err != nil {
				return err
			}
			if err := tx.CreateVariable(ctx, &actions.Variable{Scope: sc, Name: "V"}); err != nil {
				return err
			}
			if err := tx.CreateRunnerToken(ctx, &actions.RunnerToken{Scope: sc, Token: "t" + string(rune('a'+i)), Active: true}); err != nil {
				return err
			}
			if err := tx.CreateRunner(ctx, &actions.Runner{Scope: sc, UUID: "u" + string(rune('a'+i)), Name: "n"}); err != nil {
				return err
			}
		}
		return nil
	}))
	require.NoError(t, db.Repos().Update(ctx, func(tx repos.Tx) error { return tx.DeleteRepo(ctx, r1.ID) }))
	require.NoError(t, db.Auth().Update(ctx, func(tx auth.Tx) error { return tx.DeleteUser(ctx, gone.ID) }))
	require.NoError(t, db.Actions().View(ctx, func(tx actions.Tx) error {
		for i, sc := range scopes {
			want := i == 1 || i == 3 // r2 and kept remain
			_, err := tx.SecretByName(ctx, sc, "S")
			assert.Equal(t, want, err == nil, "secret of %+v: %v", sc, err)
			_, err = tx.VariableByName(ctx, sc, "V")
			assert.Equal(t, want, err == nil, "variable of %+v: %v", sc, err)
			_, err = tx.LatestRunnerToken(ctx, sc)
			assert.Equal(t, want, err == nil, "token of %+v: %v", sc, err)
			_, n, err := tx.ListRunners(ctx, actions.RunnerFilter{Scope: sc}, forge.ListOptions{})
			require.NoError(t, err)
			assert.Equal(t, want, n == 1, "runners of %+v", sc)
		}
		return nil
	}))
}
