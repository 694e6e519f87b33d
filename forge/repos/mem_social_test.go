package repos_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

func TestMemCollaborators(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newMemEnv(t)
	ann := e.user(t, "ann")
	bob := e.user(t, "bob")
	carl := e.user(t, "carl")
	e.repo(t, ann, "secret", true)

	_, err := e.svc.Get(ctx, bob, "ann", "secret")
	require.ErrorIs(t, err, forge.ErrNotFound)
	require.NoError(t, e.svc.AddCollaborator(ctx, ann, "ann", "secret", "bob", forge.AccessModeWrite))
	v, err := e.svc.Get(ctx, bob, "ann", "secret")
	require.NoError(t, err, "a collaborator sees the private repository")
	assert.Equal(t, forge.AccessModeWrite, v.Perm.Mode)
	_, total, err := e.svc.List(ctx, bob, repos.RepoFilter{}, forge.ListOptions{})
	require.NoError(t, err)
	assert.EqualValues(t, 1, total)

	assert.ErrorIs(t, e.svc.AddCollaborator(ctx, bob, "ann", "secret", "carl", forge.AccessModeRead), forge.ErrForbidden,
		"writers do not manage collaborators")
	assert.ErrorIs(t, e.svc.AddCollaborator(ctx, ann, "ann", "secret", "ann", forge.AccessModeRead), forge.ErrInvalid)
	assert.Error(t, e.svc.AddCollaborator(ctx, ann, "ann", "secret", "nobody", forge.AccessModeRead))

	ok, err := e.svc.IsCollaborator(ctx, ann, "ann", "secret", "BOB")
	require.NoError(t, err)
	assert.True(t, ok)
	list, n, err := e.svc.ListCollaborators(ctx, ann, "ann", "secret", forge.ListOptions{})
	require.NoError(t, err)
	assert.EqualValues(t, 1, n)
	assert.Equal(t, "bob", list[0].User.Name)
	u, mode, err := e.svc.UserPermission(ctx, ann, "ann", "secret", "bob")
	require.NoError(t, err)
	assert.Equal(t, "bob", u.Name)
	assert.Equal(t, forge.AccessModeWrite, mode)

	// Added collaborators watch automatically.
	_, err = e.svc.Subscription(ctx, bob, "ann", "secret")
	require.NoError(t, err)

	require.NoError(t, e.svc.RemoveCollaborator(ctx, ann, "ann", "secret", "bob"))
	assert.ErrorIs(t, e.svc.RemoveCollaborator(ctx, ann, "ann", "secret", "bob"), forge.ErrNotFound)
	_, err = e.svc.Get(ctx, bob, "ann", "secret")
	assert.ErrorIs(t, err, forge.ErrNotFound, "removed: private again")
	_, err = e.svc.Get(ctx, carl, "ann", "secret")
	assert.ErrorIs(t, err, forge.ErrNotFound)
}

func TestMemWatchAndStar(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newMemEnv(t)
	ann := e.user(t, "ann")
	bob := e.user(t, "bob")
	carl := e.user(t, "carl")
	e.repo(t, ann, "tools", false)
	e.repo(t, ann, "secret", true)

	for _, a := range []forge.Actor{bob, carl} {
		_, err := e.svc.Watch(ctx, a, "ann", "tools")
		require.NoError(t, err)
		require.NoError(t, e.svc.Star(ctx, a, "ann", "tools", true))
	}
	require.NoError(t, e.svc.Star(ctx, bob, "ann", "tools", true), "starring twice is one star")
	v, err := e.svc.Get(ctx, ann, "ann", "tools")
	require.NoError(t, err)
	assert.Equal(t, 3, v.Repo.NumWatches, "ann watches what she created")
	assert.Equal(t, 2, v.Repo.NumStars)

	watchers, n, err := e.svc.Watchers(ctx, forge.Actor{}, "ann", "tools", forge.ListOptions{})
	require.NoError(t, err)
	assert.EqualValues(t, 3, n)
	assert.Len(t, watchers, 3)
	gazers, n, err := e.svc.Stargazers(ctx, ann, "ann", "tools", forge.ListOptions{Page: 1, Limit: 1})
	require.NoError(t, err)
	assert.EqualValues(t, 2, n)
	assert.Len(t, gazers, 1)
	ok, err := e.svc.IsStarred(ctx, carl, "ann", "tools")
	require.NoError(t, err)
	assert.True(t, ok)

	require.NoError(t, e.svc.Unwatch(ctx, bob, "ann", "tools"))
	_, err = e.svc.Subscription(ctx, bob, "ann", "tools")
	assert.ErrorIs(t, err, forge.ErrNotFound)
	require.NoError(t, e.svc.Star(ctx, carl, "ann", "tools", false))
	v, _ = e.svc.Get(ctx, ann, "ann", "tools")
	assert.Equal(t, 2, v.Repo.NumWatches)
	assert.Equal(t, 1, v.Repo.NumStars)

	_, err = e.svc.Watch(ctx, bob, "ann", "secret")
	assert.ErrorIs(t, err, forge.ErrNotFound, "what one cannot see one cannot watch")
	assert.ErrorIs(t, e.svc.Star(ctx, bob, "ann", "secret", true), forge.ErrNotFound)
	assert.Error(t, e.svc.Star(ctx, forge.Actor{}, "ann", "tools", true), "anonymous actors do not star")
}
