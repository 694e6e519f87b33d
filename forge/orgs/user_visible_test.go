package orgs_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/forge/orgs"
	"github.com/hearthforge/hearth/forge/repos"
)

func TestUserVisible(t *testing.T) {
	t.Parallel()
	self := forgetest.User("self")
	self.ID = 99
	stranger := forgetest.User("stranger")
	stranger.ID = 10
	adminU := forgetest.User("root", forgetest.Admin)
	adminU.ID = 11
	actors := []struct {
		name  string
		actor forge.Actor
	}{
		{"anonymous", forge.Anonymous},
		{"stranger", forgetest.ActorFor(stranger)},
		{"self", forgetest.ActorFor(self)},
		{"admin", forgetest.ActorFor(adminU)},
		{"self public-only", forgetest.TokenActor(self, "all", "public-only")},
		{"admin public-only", forgetest.TokenActor(adminU, "all", "public-only")},
	}
	// want per actor: public, limited, private.
	want := map[string][3]bool{
		"anonymous":         {true, false, false},
		"stranger":          {true, true, false},
		"self":              {true, true, true},
		"admin":             {true, true, true},
		"self public-only":  {true, false, false},
		"admin public-only": {true, false, false},
	}
	for _, a := range actors {
		for i, vis := range []forge.Visibility{forge.VisibilityPublic, forge.VisibilityLimited, forge.VisibilityPrivate} {
			u := &forge.User{ID: 99, Name: "self", Visibility: vis}
			require.Equal(t, want[a.name][i], orgs.UserVisible(a.actor, u), "%s on %s", a.name, vis)
		}
	}
}

// TestHiddenUserOrgs: a private user's organisations and permissions are
// not found to a stranger, exactly as a missing user's; the user and site
// administrators still see them (found by the access matrix).
func TestHiddenUserOrgs(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	owner := e.user(t, "owner")
	e.org(t, owner, "acme", forge.VisibilityPublic)
	hidden := e.user(t, "hidden", func(u *forge.User) { u.Visibility = forge.VisibilityPrivate })
	stranger := e.user(t, "stranger")
	root := e.user(t, "root", forgetest.Admin)
	for _, a := range []forge.Actor{stranger, forge.Anonymous} {
		_, _, err := e.svc.ListForUser(ctx, a, "hidden", forge.ListOptions{})
		_, _, missing := e.svc.ListForUser(ctx, a, "nobody", forge.ListOptions{})
		require.ErrorIs(t, err, forge.ErrNotFound)
		require.Equal(t, strings.ReplaceAll(missing.Error(), "nobody", "hidden"), err.Error())
	}
	_, err := e.svc.Permissions(ctx, stranger, "hidden", "acme")
	require.ErrorIs(t, err, forge.ErrNotFound)
	for _, a := range []forge.Actor{hidden, root} {
		_, _, err := e.svc.ListForUser(ctx, a, "hidden", forge.ListOptions{})
		require.NoError(t, err)
		_, err = e.svc.Permissions(ctx, a, "hidden", "acme")
		require.NoError(t, err)
	}
}

// TestPublicOnlyTeamRepo: a public-only token adds or removes no private
// repository of a team, even its organisation's owner's; a public one it
// may (found by the access matrix).
func TestPublicOnlyTeamRepo(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	owner := e.user(t, "owner")
	org := e.org(t, owner, "acme", forge.VisibilityPublic)
	priv := e.repo(t, org, "secret")
	require.NoError(t, e.st.Repos().Update(ctx, func(tx repos.Tx) error {
		priv.Private = true
		return tx.UpdateRepo(ctx, priv)
	}))
	e.repo(t, org, "open")
	tm := e.team(t, owner, "acme", orgs.CreateTeamOptions{Name: "devs", Permission: "write", Units: []string{"repo.code"}})
	po := forgetest.TokenActor(owner.User, "all", "public-only")
	require.ErrorIs(t, e.svc.AddTeamRepo(ctx, po, tm.ID, "acme", "secret"), forge.ErrNotFound)
	require.ErrorIs(t, e.svc.RemoveTeamRepo(ctx, po, tm.ID, "acme", "secret"), forge.ErrNotFound)
	require.NoError(t, e.svc.AddTeamRepo(ctx, po, tm.ID, "acme", "open"))
	require.NoError(t, e.svc.AddTeamRepo(ctx, owner, tm.ID, "acme", "secret"))
}
