package repos_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/forge/repos"
)

// F4: a fork's visibility follows its base, silently, as Forgejo's edit
// forces it; a change of the base's visibility carries to its forks.
func TestForkVisibilityFollowsBase(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newMemEnv(t)
	ann, bob := e.user(t, "ann"), e.user(t, "bob")
	e.repo(t, ann, "priv", true)
	require.NoError(t, e.svc.AddCollaborator(ctx, ann, "ann", "priv", "bob", forge.AccessModeRead))
	fork, err := e.svc.Fork(ctx, bob, "ann", "priv", "privfork")
	require.NoError(t, err)
	require.True(t, fork.Repo.Private)

	no, desc := false, "mine"
	v, err := e.svc.Edit(ctx, bob, "bob", "privfork", repos.EditOptions{Private: &no, Description: &desc})
	require.NoError(t, err)
	assert.True(t, v.Repo.Private, "a fork of a private repository stays private")
	assert.Equal(t, "mine", v.Repo.Description, "the rest of the edit applies")
	assert.False(t, no, "the caller's value is not changed")
	_, err = e.svc.Get(ctx, forge.Actor{}, "bob", "privfork")
	assert.ErrorIs(t, err, forge.ErrNotFound)

	// The base made public: the fork follows, and may not be made private.
	_, err = e.svc.Edit(ctx, ann, "ann", "priv", repos.EditOptions{Private: &no})
	require.NoError(t, err)
	v, err = e.svc.Get(ctx, forge.Actor{}, "bob", "privfork")
	require.NoError(t, err)
	assert.False(t, v.Repo.Private)
	yes := true
	v, err = e.svc.Edit(ctx, bob, "bob", "privfork", repos.EditOptions{Private: &yes})
	require.NoError(t, err)
	assert.False(t, v.Repo.Private)

	// A fork of the fork follows two levels down.
	carl := e.user(t, "carl")
	_, err = e.svc.Fork(ctx, carl, "bob", "privfork", "deep")
	require.NoError(t, err)
	_, err = e.svc.Edit(ctx, ann, "ann", "priv", repos.EditOptions{Private: &yes})
	require.NoError(t, err)
	root := e.user(t, "root", forgetest.Admin)
	for _, n := range [][2]string{{"bob", "privfork"}, {"carl", "deep"}} {
		v, err := e.svc.Get(ctx, root, n[0], n[1])
		require.NoError(t, err)
		assert.True(t, v.Repo.Private, n)
	}
}

// F9: an owner the actor may not see answers like a missing owner whatever
// the repository name; a collaborator of its repository still gets in.
func TestInvisibleOwnerAnswersAlike(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newMemEnv(t)
	carol := e.user(t, "carol", func(u *forge.User) { u.Visibility = forge.VisibilityPrivate })
	stranger, dave := e.user(t, "stranger"), e.user(t, "dave")
	e.repo(t, carol, "cpub", false)
	e.repo(t, carol, "cpriv", true)
	require.NoError(t, e.svc.AddCollaborator(ctx, carol, "carol", "cpriv", "dave", forge.AccessModeRead))
	for _, actor := range []forge.Actor{{}, stranger} {
		for _, name := range []string{"cpub", "cpriv", "doesnotexist"} {
			_, err := e.svc.Get(ctx, actor, "carol", name)
			var onf *repos.OwnerNotFoundError
			require.True(t, errors.As(err, &onf), "%v %s: %v", actor.UserID(), name, err)
			assert.Equal(t, "user redirect does not exist [name: carol]", err.Error())
		}
	}
	_, err := e.svc.Get(ctx, dave, "carol", "cpriv")
	assert.NoError(t, err, "a collaborator of a private owner's repository reads it")
	_, err = e.svc.Get(ctx, dave, "carol", "doesnotexist")
	var onf *repos.OwnerNotFoundError
	assert.True(t, errors.As(err, &onf), "%v", err)
	_, err = e.svc.Get(ctx, carol, "carol", "doesnotexist")
	assert.ErrorIs(t, err, repos.ErrRepoNotFound)
}

// F10: asking for another user's permission is refused before the user
// is looked up, so the answer is the same for existing and missing users.
func TestUserPermissionRefusesFirst(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newMemEnv(t)
	ann, bob := e.user(t, "ann"), e.user(t, "bob")
	e.user(t, "carol", func(u *forge.User) { u.Visibility = forge.VisibilityPrivate })
	e.repo(t, ann, "pub", false)
	for _, who := range []string{"carol", "zzz"} {
		_, _, err := e.svc.UserPermission(ctx, bob, "ann", "pub", who)
		assert.ErrorIs(t, err, forge.ErrForbidden, who)
		assert.EqualError(t, err, "Only admins can query all permissions, repo admins can query all repo permissions, collaborators can query only their own")
	}
	u, mode, err := e.svc.UserPermission(ctx, bob, "ann", "pub", "BOB")
	require.NoError(t, err)
	assert.Equal(t, "bob", u.Name)
	assert.Equal(t, forge.AccessModeRead, mode)
	_, _, err = e.svc.UserPermission(ctx, ann, "ann", "pub", "zzz")
	assert.ErrorIs(t, err, forge.ErrNotFound)
}

// A fork of a private owner's public repository is private, and stays so.
func TestForkOfPrivateOwnerIsPrivate(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newMemEnv(t)
	carol := e.user(t, "carol", func(u *forge.User) { u.Visibility = forge.VisibilityPrivate })
	dave := e.user(t, "dave")
	e.repo(t, carol, "cpub", false)
	require.NoError(t, e.svc.AddCollaborator(ctx, carol, "carol", "cpub", "dave", forge.AccessModeRead))
	fork, err := e.svc.Fork(ctx, dave, "carol", "cpub", "")
	require.NoError(t, err)
	assert.True(t, fork.Repo.Private)
	no := false
	v, err := e.svc.Edit(ctx, dave, "dave", "cpub", repos.EditOptions{Private: &no})
	require.NoError(t, err)
	assert.True(t, v.Repo.Private)
	_, err = e.svc.Get(ctx, forge.Actor{}, "dave", "cpub")
	assert.ErrorIs(t, err, forge.ErrNotFound)
}
