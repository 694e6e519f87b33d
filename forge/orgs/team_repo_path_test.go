package orgs_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/orgs"
)

// The {org} of /teams/{id}/repos/{org}/{repo} must name the team's
// organisation: another organisation's repository of the same name is
// never answered for, added or removed through the team.
func TestTeamRepoPathNamesTheTeamsOrg(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	own := e.user(t, "own")
	o := e.org(t, own, "acme", "")
	other := e.org(t, own, "other", "")
	e.repo(t, o, "code")
	e.repo(t, other, "code")
	tm := e.team(t, own, "acme", orgs.CreateTeamOptions{Name: "devs", Permission: "read", Units: []string{"repo.code"}})

	require.Equal(t, orgs.ErrTeamNotFound, e.svc.AddTeamRepo(ctx, own, tm.ID, "other", "code"))
	_, err := e.svc.TeamRepo(ctx, own, tm.ID, "acme", "code")
	require.Equal(t, orgs.ErrTeamNotFound, err, "nothing was added")
	require.NoError(t, e.svc.AddTeamRepo(ctx, own, tm.ID, "ACME", "code"))
	_, err = e.svc.TeamRepo(ctx, own, tm.ID, "other", "code")
	require.Equal(t, orgs.ErrTeamNotFound, err)
	require.Equal(t, orgs.ErrTeamNotFound, e.svc.RemoveTeamRepo(ctx, own, tm.ID, "other", "code"))
	got, err := e.svc.TeamRepo(ctx, own, tm.ID, "acme", "code")
	require.NoError(t, err, "still the team's")
	require.Equal(t, o.ID, got.OwnerID)
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
	_, err = e.svc.TeamRepo(ctx, reader, readers.ID, "acme", "secret")
	require.NoError(t, err)
}
