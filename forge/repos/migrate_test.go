package repos_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

// TestMigrationSteps: a migration's repository is created in two steps
// around the directory its caller makes (BeginMigration, then
// FinishMigration or AbortMigration). Between them the repository is
// shown to no one and holds its name; only the actor that began it can
// finish or abort it; a finished one is not aborted, an aborted one not
// finished.
func TestMigrationSteps(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	alice := w.user(t, "alice", forge.VisibilityPublic)
	bob := w.user(t, "bob", forge.VisibilityPublic)

	c, err := w.svc.BeginMigration(ctx, alice, "", repos.MigrationTarget{Name: "m", Description: "d", Private: true})
	require.NoError(t, err)
	require.Equal(t, forge.RepoCreating, c.Repo.Status)
	_, err = w.svc.Get(ctx, alice, "alice", "m")
	require.ErrorIs(t, err, forge.ErrNotFound, "not shown while being made")
	_, err = w.svc.BeginMigration(ctx, alice, "", repos.MigrationTarget{Name: "m"})
	require.ErrorIs(t, err, forge.ErrConflict, "the name is held")

	require.NoError(t, w.git.Create(ctx, c.Repo.ID, forge.SHA1, "main")) // the clone
	_, err = w.svc.FinishMigration(ctx, bob, c, forge.SHA1)
	require.ErrorIs(t, err, forge.ErrForbidden, "another actor can't finish it")
	require.ErrorIs(t, w.svc.AbortMigration(ctx, bob, c), forge.ErrForbidden, "nor abort it")
	require.ErrorIs(t, w.svc.AbortMigration(ctx, alice, nil), forge.ErrForbidden)

	v, err := w.svc.FinishMigration(ctx, alice, c, forge.SHA1)
	require.NoError(t, err)
	require.Equal(t, forge.RepoReady, v.Repo.Status)
	require.Equal(t, forge.SHA1, v.Repo.ObjectFormat, "the clone's object format")
	require.True(t, v.Repo.Private)
	require.Equal(t, "d", v.Repo.Description)
	_, err = w.svc.Get(ctx, alice, "alice", "m")
	require.NoError(t, err)
	require.ErrorIs(t, w.svc.AbortMigration(ctx, alice, c), forge.ErrConflict, "a finished migration is not undone")
	_, err = w.svc.FinishMigration(ctx, alice, c, "")
	require.ErrorIs(t, err, forge.ErrConflict, "nor finished twice")

	// Aborted: row and directory gone, the name free; a second abort is
	// no error, a finish after it is refused.
	c, err = w.svc.BeginMigration(ctx, alice, "", repos.MigrationTarget{Name: "n"})
	require.NoError(t, err)
	require.NoError(t, w.git.Create(ctx, c.Repo.ID, forge.SHA1, "main"))
	require.NoError(t, w.svc.AbortMigration(ctx, alice, c))
	require.NoError(t, w.svc.AbortMigration(ctx, alice, c))
	_, err = w.svc.FinishMigration(ctx, alice, c, "")
	require.ErrorIs(t, err, forge.ErrNotFound)
	_, err = w.git.Size(ctx, c.Repo.ID)
	require.ErrorIs(t, err, forge.ErrNotFound, "the directory went with the row")
	_, err = w.svc.Create(ctx, alice, "", repos.CreateOptions{Name: "n"})
	require.NoError(t, err, "the name is free")

	// The creation's checks: another user's namespace is the
	// administrators'.
	_, err = w.svc.BeginMigration(ctx, bob, "alice", repos.MigrationTarget{Name: "x"})
	require.ErrorIs(t, err, forge.ErrForbidden)
	_, err = w.svc.BeginMigration(ctx, forge.Actor{}, "", repos.MigrationTarget{Name: "x"})
	require.ErrorIs(t, err, forge.ErrUnauthenticated)
}
