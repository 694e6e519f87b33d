package repos_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/forge/repos"
)

// TestResolvedKeepsEveryRule: a repos.Resolved (the access a workflow
// resolved once) is no way around a rule. Its methods apply their
// operation's token scope and unit access; a value older than a workflow
// is resolved again, so an actor who lost access since is refused; the
// zero value and nil are refused as a missing repository; the repository
// it hands out is a copy, so changing it does not change what the value
// acts on.
func TestResolvedKeepsEveryRule(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newMemEnv(t)
	alice, bob := e.user(t, "alice"), e.user(t, "bob")
	_, err := e.svc.Create(ctx, alice, "", repos.CreateOptions{Name: "proj", Private: true, AutoInit: true})
	require.NoError(t, err)
	require.NoError(t, e.svc.AddCollaborator(ctx, alice, "alice", "proj", "bob", forge.AccessModeWrite))
	for _, b := range []string{"one", "two", "three"} {
		_, _, err = e.svc.CreateBranch(ctx, alice, "alice", "proj", b, "")
		require.NoError(t, err)
	}
	gone := func(branch string) bool {
		_, _, err := e.svc.GetBranch(ctx, alice, "alice", "proj", branch)
		return err != nil
	}

	r, err := e.svc.Resolve(ctx, bob, "alice", "proj")
	require.NoError(t, err)
	require.True(t, r.Perm().CanWrite(forge.UnitCode))
	id := r.Repo().ID
	r.Repo().ID = id + 1000 // a copy
	require.Equal(t, id, r.Repo().ID)
	b, err := r.Branch(ctx, "one")
	require.NoError(t, err)
	require.Equal(t, "one", b.Name)
	require.NoError(t, r.DeleteBranch(ctx, "one"))
	require.True(t, gone("one"))

	// A token that may only read: the resolution does not lend it the
	// write scope.
	reader, err := e.svc.Resolve(ctx, forgetest.TokenActor(bob.User, "read:repository"), "alice", "proj")
	require.NoError(t, err)
	_, err = reader.Branch(ctx, "two")
	require.NoError(t, err)
	require.ErrorIs(t, reader.DeleteBranch(ctx, "two"), forge.ErrForbidden)
	require.ErrorIs(t, reader.AfterPush(ctx, nil), forge.ErrForbidden)
	require.False(t, gone("two"))

	// bob loses access; within a workflow's time the resolution holds,
	// after it the value acts with the access of now.
	require.NoError(t, e.svc.RemoveCollaborator(ctx, alice, "alice", "proj", "bob"))
	e.clock.Step(2 * time.Minute)
	_, err = r.Branch(ctx, "two")
	require.ErrorIs(t, err, forge.ErrNotFound)
	require.ErrorIs(t, r.DeleteBranch(ctx, "two"), forge.ErrNotFound)
	_, _, _, err = r.CombinedStatus(ctx, "two")
	require.ErrorIs(t, err, forge.ErrNotFound)
	require.False(t, gone("two"))

	// Only the service makes one.
	var zero repos.Resolved
	var none *repos.Resolved
	for _, z := range []*repos.Resolved{&zero, none} {
		_, err = z.Branch(ctx, "two")
		require.ErrorIs(t, err, forge.ErrNotFound)
		require.ErrorIs(t, z.DeleteBranch(ctx, "two"), forge.ErrNotFound)
		require.ErrorIs(t, z.AfterPush(ctx, []repos.RefUpdate{{Ref: "refs/heads/two"}}), forge.ErrNotFound)
		require.Nil(t, z.Repo())
	}
	require.False(t, gone("two"))
}
