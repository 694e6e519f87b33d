package orgs_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/orgs"
)

// The team repository routes act on the repository of the team's
// organisation whatever {org} says (as Forgejo): another organisation's
// repository of the same name is never answered for, added or removed.
func TestTeamRepoIsTheTeamOrgs(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	own := e.user(t, "own")
	o := e.org(t, own, "acme", "")
	other := e.org(t, own, "other", "")
	e.repo(t, o, "code")
	theirs := e.repo(t, other, "code")
	tm := e.team(t, own, "acme", orgs.CreateTeamOptions{Name: "devs", Permission: "read", Units: []string{"repo.code"}})
	otherTeam := e.team(t, own, "other", orgs.CreateTeamOptions{Name: "devs", Permission: "read", Units: []string{"repo.code"}})

	require.NoError(t, e.svc.AddTeamRepo(ctx, own, tm.ID, "other", "code"))
	got, err := e.svc.TeamRepo(ctx, own, tm.ID, "other", "code")
	require.NoError(t, err)
	require.Equal(t, o.ID, got.OwnerID, "acme's repository, never other's")
	_, err = e.svc.TeamRepo(ctx, own, otherTeam.ID, "other", "code")
	require.Equal(t, orgs.ErrTeamNotFound, err, "other's team did not get its repository")
	require.NoError(t, e.svc.AddTeamRepo(ctx, own, otherTeam.ID, "acme", "code"))
	got, err = e.svc.TeamRepo(ctx, own, otherTeam.ID, "acme", "code")
	require.NoError(t, err)
	require.Equal(t, theirs.ID, got.ID)
	require.NoError(t, e.svc.RemoveTeamRepo(ctx, own, tm.ID, "other", "code"))
	_, err = e.svc.TeamRepo(ctx, own, tm.ID, "acme", "code")
	require.Equal(t, orgs.ErrTeamNotFound, err)
}

// A member of a team without access to its repositories learns nothing of
// them through TeamRepo (Forgejo's HasAccess check).
func TestTeamRepoNeedsAccess(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	own := e.user(t, "own")
	idle := e.user(t, "idle")
	reader := e.user(t, "reader")
	o := e.org(t, own, "acme", forge.VisibilityPrivate)
	e.repo(t, o, "secret")
	none := e.team(t, own, "acme", orgs.CreateTeamOptions{Name: "none", UnitsMap: map[string]string{"repo.code": "none"}})
	readers := e.team(t, own, "acme", orgs.CreateTeamOptions{Name: "readers", Permission: "read", Units: []string{"repo.code"}})
	for _, c := range []struct {
		team *forge.Team
		user forge.Actor
	}{{none, idle}, {readers, reader}} {
		require.NoError(t, e.svc.AddTeamMember(ctx, own, c.team.ID, c.user.User.Name))
		require.NoError(t, e.svc.AddTeamRepo(ctx, own, c.team.ID, "acme", "secret"))
	}
	_, err := e.svc.TeamRepo(ctx, idle, none.ID, "acme", "secret")
	require.Equal(t, orgs.ErrTeamNotFound, err)
	_, err = e.svc.TeamRepo(ctx, reader, readers.ID, "x", "secret")
	require.NoError(t, err, "{org} is not consulted")
}
