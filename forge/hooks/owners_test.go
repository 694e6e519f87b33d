package hooks_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/forge/hooks"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/issues"
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
	require.NoError(t, e.sinks.repoCreated(ctx, e.alice, v.Repo))
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

	require.NoError(t, e.sinks.forked(ctx, e.alice, e.repo, v.Repo))
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

// TestIssueEvents: issues and issue_comment payloads reach the hooks
// subscribed to them; "issues" is the family, comments included
// (Forgejo's issuesHook), "issues_only" the issues event alone.
func TestIssueEvents(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	rc := newReceiver(t)
	// Four deliveries at once: a time-out long enough for a loaded
	// machine (the environment's 100 ms is for the time-out tests).
	e := newEnv(t, []string{"loopback"}, func(c *hooks.Config) { c.Timeout = 10 * time.Second })
	issuesHook := e.hook(t, rc.srv.URL+"/i", "issues_only")
	commentHook := e.hook(t, rc.srv.URL+"/c", "issue_comment")
	familyHook := e.hook(t, rc.srv.URL+"/f", "issues")
	is := issueView(e.repo, &issues.Issue{ID: 7, Index: 3, Title: "Bug", Body: "it breaks", PosterID: e.alice.User.ID,
		Created: e.clock.Now(), Updated: e.clock.Now()}, e.alice.User)
	require.NoError(t, e.sinks.issueChanged(ctx, e.alice, is, hooks.ActionOpened))
	require.NoError(t, e.sinks.issueCommented(ctx, e.alice, is, &issues.Comment{ID: 11, Body: "+1", PosterID: e.alice.User.ID}))
	assert.Len(t, e.tasks(t, issuesHook.ID), 1)
	assert.Len(t, e.tasks(t, commentHook.ID), 1)
	assert.Len(t, e.tasks(t, familyHook.ID), 2, "issues stands for the issue family, comments included")
	_, err := e.hooks.DeliverDue(ctx)
	require.NoError(t, err)
	got := map[string]map[string]any{}
	for range 4 {
		d := rc.next(t)
		verify(t, d, "s3cret")
		var p map[string]any
		require.NoError(t, json.Unmarshal(d.body, &p))
		got[d.header.Get("X-Forgejo-Event")] = p
	}
	assert.Equal(t, "opened", got["issues"]["action"])
	assert.Equal(t, float64(3), got["issues"]["number"])
	assert.Equal(t, "Bug", got["issues"]["issue"].(map[string]any)["title"])
	assert.Equal(t, "open", got["issues"]["issue"].(map[string]any)["state"])
	assert.Equal(t, "created", got["issue_comment"]["action"])
	assert.Equal(t, "+1", got["issue_comment"]["comment"].(map[string]any)["body"])
	assert.Equal(t, "alice", got["issue_comment"]["comment"].(map[string]any)["user"].(map[string]any)["login"])
	assert.Equal(t, "alice", got["issues"]["issue"].(map[string]any)["user"].(map[string]any)["login"])
	assert.Equal(t, false, got["issue_comment"]["is_pull"])
}

// TestSecretsSealedAtRest: with Config.SecretKey the store holds neither
// the secret nor the authorization header in clear; the service and the
// deliveries use them as given.
func TestSecretsSealedAtRest(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	rc := newReceiver(t)
	e := newEnv(t, []string{"loopback"}, func(c *hooks.Config) { c.SecretKey = []byte("server-key") })
	h, err := e.hooks.Create(ctx, e.alice, hooks.RepoHooks("alice", "proj"), hooks.CreateOptions{Type: hooks.TypeForgejo,
		Config: hooks.Settings{"url": rc.srv.URL, "content_type": "json", "secret": "s3cret"}, AuthorizationHeader: "Bearer tok", Active: true})
	require.NoError(t, err)
	require.NoError(t, e.store.Hooks().View(ctx, func(tx hooks.Tx) error {
		raw, err := tx.Hook(ctx, h.ID)
		require.NoError(t, err)
		assert.NotContains(t, raw.Secret, "s3cret")
		assert.NotEmpty(t, raw.Secret)
		assert.NotContains(t, raw.AuthorizationHeader, "tok")
		return nil
	}))
	got, err := e.hooks.Get(ctx, e.alice, hooks.RepoHooks("alice", "proj"), h.ID)
	require.NoError(t, err)
	assert.Equal(t, "s3cret", got.Secret)
	assert.Equal(t, "Bearer tok", got.AuthorizationHeader)
	e.push(t, repos.RefUpdate{Ref: "refs/heads/main", OldID: c1, NewID: c2})
	_, err = e.hooks.DeliverDue(ctx)
	require.NoError(t, err)
	d := rc.next(t)
	verify(t, d, "s3cret")
	assert.Equal(t, "Bearer tok", d.header.Get("Authorization"))
}
