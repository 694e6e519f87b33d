package hooks_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/forge/hooks"
	"github.com/hearthforge/hearth/forge/repos"
)

// TestDefaultHooksCopied: RepoCreated copies the default hooks into the
// new repository as its own hooks (system hooks stay system hooks), and
// queues the repository event for system hooks.
func TestDefaultHooksCopied(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	rc := newReceiver(t)
	e := newEnv(t, []string{"loopback"})
	root := forgetest.User("root", forgetest.Admin)
	require.NoError(t, e.store.Auth().Update(ctx, func(tx auth.Tx) error { return tx.CreateUser(ctx, root, "") }))
	admin := forgetest.ActorFor(root)
	def, err := e.hooks.Create(ctx, admin, hooks.AdminHooks(), hooks.CreateOptions{Type: hooks.TypeForgejo,
		Config: hooks.Settings{"url": rc.srv.URL + "/def", "content_type": "json", "secret": "d"}, Active: true, Events: []string{"push"}})
	require.NoError(t, err)
	assert.False(t, def.IsSystem)
	sys, err := e.hooks.Create(ctx, admin, hooks.AdminHooks(), hooks.CreateOptions{Type: hooks.TypeForgejo,
		Config: hooks.Settings{"url": rc.srv.URL + "/sys", "content_type": "json", "is_system_webhook": "true"}, Active: true,
		Events: []string{"repository", "fork"}})
	require.NoError(t, err)
	assert.True(t, sys.IsSystem)

	_, err = e.hooks.Create(ctx, e.alice, hooks.AdminHooks(), hooks.CreateOptions{Type: hooks.TypeForgejo,
		Config: hooks.Settings{"url": rc.srv.URL, "content_type": "json"}})
	assert.ErrorIs(t, err, forge.ErrForbidden, "admin hooks are for site administrators")

	v, err := e.repos.Create(ctx, e.alice, "", repos.CreateOptions{Name: "fresh"})
	require.NoError(t, err)
	require.NoError(t, e.hooks.RepoCreated(ctx, e.alice, v.Repo))
	list, _, err := e.hooks.List(ctx, e.alice, hooks.RepoHooks("alice", "fresh"), forge.ListOptions{})
	require.NoError(t, err)
	require.Len(t, list, 1, "the default hook, copied")
	assert.Equal(t, v.Repo.ID, list[0].RepoID)
	assert.Equal(t, rc.srv.URL+"/def", list[0].URL)
	assert.Equal(t, "d", list[0].Secret)
	assert.NotEqual(t, def.ID, list[0].ID)
	sysList, _, err := e.hooks.List(ctx, admin, hooks.AdminHooks(), forge.ListOptions{})
	require.NoError(t, err)
	assert.Len(t, sysList, 1, "system hooks only")

	require.NoError(t, e.hooks.Forked(ctx, e.alice, e.repo, v.Repo))
	_, err = e.hooks.DeliverDue(ctx)
	require.NoError(t, err)
	got := map[string]map[string]any{}
	for range 2 {
		d := rc.next(t)
		var p map[string]any
		require.NoError(t, json.Unmarshal(d.body, &p))
		got[d.header.Get("X-Forgejo-Event")] = p
	}
	assert.Equal(t, "created", got["repository"]["action"])
	assert.Equal(t, "alice/fresh", got["repository"]["repository"].(map[string]any)["full_name"])
	assert.Equal(t, "alice/proj", got["fork"]["forkee"].(map[string]any)["full_name"])
	assert.Equal(t, "alice/fresh", got["fork"]["repository"].(map[string]any)["full_name"])
	rc.none(t)
}

// TestTokenScopes: a Go caller gets the protection an HTTP client gets.
func TestTokenScopes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t, nil)
	ro := forgetest.TokenActor(e.alice.User, "read:repository")
	_, _, err := e.hooks.List(ctx, ro, hooks.RepoHooks("alice", "proj"), forge.ListOptions{})
	require.NoError(t, err)
	_, err = e.hooks.Create(ctx, ro, hooks.RepoHooks("alice", "proj"), hooks.CreateOptions{Type: hooks.TypeForgejo,
		Config: hooks.Settings{"url": "https://example.com", "content_type": "json"}})
	assert.ErrorIs(t, err, forge.ErrForbidden)
	_, _, err = e.hooks.List(ctx, forge.Anonymous, hooks.UserHooks(), forge.ListOptions{})
	assert.ErrorIs(t, err, forge.ErrUnauthenticated)
	_, _, err = e.hooks.List(ctx, e.alice, hooks.OrgHooks("acme"), forge.ListOptions{})
	assert.ErrorIs(t, err, forge.ErrPrecondition, "organisation hooks need Config.Orgs")
}
