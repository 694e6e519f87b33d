package repos_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

// TestUsersAreRedactedForTheActor: no user the repository service returns
// shows an anonymous actor, or a stranger, a hidden e-mail or a login
// name; the user themself sees both.
func TestUsersAreRedactedForTheActor(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newMemEnv(t)
	secretive := func(u *forge.User) { u.HideEmail, u.LoginName = true, "ldap-"+u.Name }
	alice := e.user(t, "alice", secretive)
	bob := e.user(t, "bob", secretive)
	carol := e.user(t, "carol", secretive)
	stranger := e.user(t, "stranger")
	e.repo(t, alice, "pub", false)
	require.NoError(t, e.svc.AddCollaborator(ctx, alice, "alice", "pub", "bob", forge.AccessModeWrite))
	require.NoError(t, e.svc.Star(ctx, bob, "alice", "pub", true))
	fork, err := e.svc.Fork(ctx, carol, "alice", "pub", "")
	require.NoError(t, err)
	moving := e.repo(t, alice, "moving", false)
	_, err = e.svc.StartTransfer(ctx, alice, "alice", "moving", "bob", nil)
	require.NoError(t, err)

	// Every user the service returns to actor, by where it came from.
	users := func(actor forge.Actor) map[string]*forge.User {
		out := map[string]*forge.User{}
		v, err := e.svc.Get(ctx, actor, "alice", "pub")
		require.NoError(t, err)
		out["Get owner"] = v.Owner
		v, err = e.svc.GetByID(ctx, actor, fork.Repo.ID)
		require.NoError(t, err)
		out["GetByID owner"] = v.Owner
		list, _, err := e.svc.List(ctx, actor, repos.RepoFilter{OwnerID: alice.User.ID}, forge.ListOptions{})
		require.NoError(t, err)
		require.NotEmpty(t, list)
		out["List owner"] = list[0].Owner
		stars, _, err := e.svc.Stargazers(ctx, actor, "alice", "pub", forge.ListOptions{})
		require.NoError(t, err)
		require.Len(t, stars, 1)
		out["Stargazers"] = stars[0]
		watchers, _, err := e.svc.Watchers(ctx, actor, "alice", "pub", forge.ListOptions{})
		require.NoError(t, err)
		require.NotEmpty(t, watchers)
		out["Watchers"] = watchers[0]
		collabs, _, err := e.svc.ListCollaborators(ctx, actor, "alice", "pub", forge.ListOptions{})
		require.NoError(t, err)
		require.Len(t, collabs, 1)
		out["ListCollaborators"] = collabs[0].User
		tr, err := e.svc.PendingTransfer(ctx, actor, moving.Repo.ID)
		require.NoError(t, err)
		require.NotNil(t, tr)
		out["PendingTransfer doer"], out["PendingTransfer recipient"] = tr.Doer, tr.Recipient
		rel, err := e.svc.RelatedOf(ctx, actor, []forge.ID{moving.Repo.ID, fork.Repo.ID})
		require.NoError(t, err)
		require.NotNil(t, rel[moving.Repo.ID].Transfer)
		out["RelatedOf transfer doer"] = rel[moving.Repo.ID].Transfer.Doer
		out["RelatedOf transfer recipient"] = rel[moving.Repo.ID].Transfer.Recipient
		require.NotNil(t, rel[fork.Repo.ID].Parent)
		out["RelatedOf parent owner"] = rel[fork.Repo.ID].Parent.Owner
		p, err := e.svc.Parent(ctx, actor, fork.Repo.ID)
		require.NoError(t, err)
		require.NotNil(t, p)
		out["Parent owner"] = p.Owner
		return out
	}
	for name, actor := range map[string]forge.Actor{"anonymous": {}, "stranger": stranger} {
		for from, u := range users(actor) {
			require.NotNil(t, u, "%s: %s", name, from)
			assert.Empty(t, u.Email, "%s: %s shows %s's hidden e-mail", name, from, u.Name)
			assert.Empty(t, u.LoginName, "%s: %s shows %s's login name", name, from, u.Name)
			assert.True(t, u.Redacted, "%s: %s", name, from)
		}
	}
	// The user themself sees everything of itself.
	v, err := e.svc.Get(ctx, alice, "alice", "pub")
	require.NoError(t, err)
	assert.Equal(t, "alice@example.com", v.Owner.Email)
	assert.Equal(t, "ldap-alice", v.Owner.LoginName)
	assert.False(t, v.Owner.Redacted)
}
