package orgs_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/forge/orgs"
)

func teamNames(list []*forge.Team) []string {
	out := []string{}
	for _, t := range list {
		out = append(out, t.Name)
	}
	return out
}

func TestCreateTeam(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	own := e.user(t, "own")
	mem := e.user(t, "mem")
	stranger := e.user(t, "stranger")
	o := e.org(t, own, "acme", "")
	e.member(t, own, "acme", mem)
	r1, r2 := e.repo(t, o, "one"), e.repo(t, o, "two")

	opts := orgs.CreateTeamOptions{Name: "devs", Permission: "write", Units: []string{"repo.code"}}
	_, err := e.svc.CreateTeam(ctx, stranger, "acme", opts)
	requireErr(t, err, forge.ErrForbidden, "Must be an organization member")
	_, err = e.svc.CreateTeam(ctx, mem, "acme", opts)
	requireErr(t, err, forge.ErrForbidden, "Must be an organization owner")
	_, err = e.svc.CreateTeam(ctx, forge.Anonymous, "acme", opts)
	requireErr(t, err, forge.ErrUnauthenticated, "token is required")
	_, err = e.svc.CreateTeam(ctx, own, "acme", orgs.CreateTeamOptions{Name: "nounits", Permission: "write"})
	requireErr(t, err, forge.ErrInvalid, "units permission should not be empty")
	_, err = e.svc.CreateTeam(ctx, own, "acme", orgs.CreateTeamOptions{Name: "bad name", Permission: "admin"})
	requireErr(t, err, forge.ErrInvalid, "[Name]: AlphaDashDot")
	_, err = e.svc.CreateTeam(ctx, own, "acme", orgs.CreateTeamOptions{Name: "owners", Permission: "admin"})
	requireErr(t, err, forge.ErrInvalid, fmt.Sprintf("team already exists [org_id: %d, name: owners]", o.ID))

	v, err := e.svc.CreateTeam(ctx, own, "acme", orgs.CreateTeamOptions{Name: "Devs", Description: "the devs",
		UnitsMap: map[string]string{"repo.code": "write", "repo.issues": "read"}, CanCreateOrgRepo: true})
	require.NoError(t, err)
	require.Equal(t, o.ID, v.Org.ID)
	require.Equal(t, "acme", v.Org.Name)
	require.Equal(t, read, v.Team.Mode)
	require.Equal(t, map[forge.Unit]forge.AccessMode{forge.UnitCode: write, forge.UnitIssues: read}, v.Team.Units)
	require.True(t, v.Team.CanCreateOrgRepo)
	require.Zero(t, v.Team.NumRepos)
	_, err = e.svc.CreateTeam(ctx, own, "acme", orgs.CreateTeamOptions{Name: "DEVS", Permission: "admin"})
	requireErr(t, err, forge.ErrInvalid, fmt.Sprintf("team already exists [org_id: %d, name: devs]", o.ID))

	// A team that includes all repositories gets them all.
	v, err = e.svc.CreateTeam(ctx, own, "acme", orgs.CreateTeamOptions{Name: "all", Permission: "read", Units: []string{"repo.code"}, IncludesAllRepos: true})
	require.NoError(t, err)
	require.Equal(t, 2, v.Team.NumRepos)
	tr, err := e.svc.ListTeamRepos(ctx, own, v.Team.ID, forge.ListOptions{})
	require.NoError(t, err)
	require.EqualValues(t, 2, tr.Total)
	require.Equal(t, []forge.ID{r1.ID, r2.ID}, []forge.ID{tr.Repos[0].ID, tr.Repos[1].ID})

	// The Owners team includes all repositories too.
	owners, _, err := e.svc.SearchTeams(ctx, own, "acme", "own", false, forge.ListOptions{})
	require.NoError(t, err)
	require.Equal(t, []string{"Owners"}, teamNames(owners))

	list, n, err := e.svc.ListTeams(ctx, mem, "acme", forge.ListOptions{})
	require.NoError(t, err)
	require.EqualValues(t, 4, n)
	require.Equal(t, []string{"all", "Devs", "Owners", "readers-mem"}, teamNames(list))
	_, _, err = e.svc.ListTeams(ctx, stranger, "acme", forge.ListOptions{})
	requireErr(t, err, forge.ErrForbidden, "Must be an organization member")
}

func TestSearchTeams(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	own := e.user(t, "own")
	mem := e.user(t, "mem")
	root := e.user(t, "root", forgetest.Admin)
	e.org(t, own, "acme", "")
	e.member(t, own, "acme", mem)
	e.team(t, own, "acme", orgs.CreateTeamOptions{Name: "frontend", Description: "web people", Permission: "read", Units: []string{"repo.code"}})
	e.team(t, own, "acme", orgs.CreateTeamOptions{Name: "backend", Description: "api people", Permission: "read", Units: []string{"repo.code"}})

	// Only site administrators search every team (Forgejo's rule).
	list, _, err := e.svc.SearchTeams(ctx, root, "acme", "END", false, forge.ListOptions{})
	require.NoError(t, err)
	require.Equal(t, []string{"backend", "frontend"}, teamNames(list))
	list, _, err = e.svc.SearchTeams(ctx, root, "acme", "people", false, forge.ListOptions{})
	require.NoError(t, err)
	require.Empty(t, list)
	list, n, err := e.svc.SearchTeams(ctx, root, "acme", "web", true, forge.ListOptions{})
	require.NoError(t, err)
	require.EqualValues(t, 1, n)
	require.Equal(t, []string{"frontend"}, teamNames(list))
	list, _, err = e.svc.SearchTeams(ctx, own, "acme", "", true, forge.ListOptions{})
	require.NoError(t, err)
	require.Equal(t, []string{"Owners"}, teamNames(list))
	list, _, err = e.svc.SearchTeams(ctx, mem, "acme", "read", true, forge.ListOptions{})
	require.NoError(t, err)
	require.Equal(t, []string{"readers-mem"}, teamNames(list))
}

func TestTeamAccessRoutes(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	own := e.user(t, "own")
	mem := e.user(t, "mem")
	other := e.user(t, "other")
	stranger := e.user(t, "stranger")
	root := e.user(t, "root", forgetest.Admin)
	e.org(t, own, "acme", "")
	tm := e.member(t, own, "acme", mem)
	e.member(t, own, "acme", other)
	e.org(t, own, "secret", forge.VisibilityPrivate)
	secretTeam := e.member(t, own, "secret", mem)

	for who, want := range map[string]error{"own": nil, "mem": nil, "root": nil,
		"other": orgs.ErrMustBeTeamMember, "stranger": orgs.ErrTeamNotFound} {
		actor := map[string]forge.Actor{"own": own, "mem": mem, "root": root, "other": other, "stranger": stranger}[who]
		v, err := e.svc.GetTeam(ctx, actor, tm.ID)
		if want != nil {
			require.Equal(t, want, err, who)
			continue
		}
		require.NoError(t, err, who)
		require.Equal(t, "acme", v.Org.Name)
		require.Equal(t, 1, v.Team.NumMembers)
	}
	_, err := e.svc.GetTeam(ctx, stranger, secretTeam.ID)
	require.Equal(t, orgs.ErrTeamNotFound, err)
	_, err = e.svc.GetTeam(ctx, own, 9999)
	requireErr(t, err, forge.ErrNotFound, "The target couldn't be found.")
	_, err = e.svc.GetTeam(ctx, forgetest.TokenActor(mem.User, "read:organization", "public-only"), secretTeam.ID)
	require.Equal(t, orgs.ErrTeamNotFound, err)
	_, err = e.svc.GetTeam(ctx, forgetest.TokenActor(mem.User, "read:user"), tm.ID)
	requireErr(t, err, forge.ErrForbidden, "token does not have at least one of required scope(s): [read:organization]")

	// A team member who does not own the organisation gets 404 on owner
	// routes (Forgejo's reqOrgOwnership reached through a team).
	_, err = e.svc.EditTeam(ctx, mem, tm.ID, orgs.EditTeamOptions{Description: ptr("x")})
	require.Equal(t, orgs.ErrTeamNotFound, err)
	require.Equal(t, orgs.ErrTeamNotFound, e.svc.DeleteTeam(ctx, mem, tm.ID))
	require.Equal(t, orgs.ErrTeamNotFound, e.svc.AddTeamMember(ctx, mem, tm.ID, "other"))

	members, n, err := e.svc.ListTeamMembers(ctx, mem, tm.ID, forge.ListOptions{})
	require.NoError(t, err)
	require.EqualValues(t, 1, n)
	require.Equal(t, []string{"mem"}, memberNames(members))
	u, err := e.svc.TeamMember(ctx, mem, tm.ID, "MEM")
	require.NoError(t, err)
	require.Equal(t, "mem", u.Name)
	_, err = e.svc.TeamMember(ctx, mem, tm.ID, "own")
	require.Equal(t, orgs.ErrTeamNotFound, err)
	_, err = e.svc.TeamMember(ctx, mem, tm.ID, "nobody")
	requireErr(t, err, forge.ErrNotFound, "user redirect does not exist [name: nobody]")

	teams, n, err := e.svc.ListUserTeams(ctx, mem, forge.ListOptions{})
	require.NoError(t, err)
	require.EqualValues(t, 2, n)
	require.Equal(t, "acme", teams[0].Org.Name)
	require.Equal(t, "secret", teams[1].Org.Name)
	teams, _, err = e.svc.ListUserTeams(ctx, forgetest.TokenActor(mem.User, "read:user", "public-only"), forge.ListOptions{})
	require.NoError(t, err)
	require.Len(t, teams, 1)
	_, _, err = e.svc.ListUserTeams(ctx, forge.Anonymous, forge.ListOptions{})
	requireErr(t, err, forge.ErrUnauthenticated, "token is required")
}

func TestEditTeam(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	own := e.user(t, "own")
	o := e.org(t, own, "acme", "")
	e.repo(t, o, "one")
	tm := e.team(t, own, "acme", orgs.CreateTeamOptions{Name: "devs", Permission: "read", Units: []string{"repo.code"}})
	e.team(t, own, "acme", orgs.CreateTeamOptions{Name: "ops", Permission: "read", Units: []string{"repo.code"}})

	_, err := e.svc.EditTeam(ctx, own, tm.ID, orgs.EditTeamOptions{Name: ptr("OPS")})
	requireErr(t, err, forge.ErrInvalid, fmt.Sprintf("team already exists [org_id: %d, name: ops]", o.ID))
	_, err = e.svc.EditTeam(ctx, own, tm.ID, orgs.EditTeamOptions{Name: ptr("a/b")})
	requireErr(t, err, forge.ErrInvalid, "[Name]: AlphaDashDot")

	// A new permission with a units_map takes the map's minimum.
	v, err := e.svc.EditTeam(ctx, own, tm.ID, orgs.EditTeamOptions{Name: ptr("developers"), Description: ptr("d"),
		Permission: ptr("admin"), UnitsMap: map[string]string{"repo.code": "write"}})
	require.NoError(t, err)
	require.Equal(t, admin, v.Team.Mode, "admin is not lowered by the map")
	require.Equal(t, orgs.AdminUnits(), v.Team.Units)
	v, err = e.svc.EditTeam(ctx, own, tm.ID, orgs.EditTeamOptions{Permission: ptr("read"),
		UnitsMap: map[string]string{"repo.code": "write", "repo.pulls": "write"}})
	require.NoError(t, err)
	require.Equal(t, write, v.Team.Mode)
	require.Equal(t, map[forge.Unit]forge.AccessMode{forge.UnitCode: write, forge.UnitPulls: write}, v.Team.Units)
	// Units alone keep the mode.
	v, err = e.svc.EditTeam(ctx, own, tm.ID, orgs.EditTeamOptions{Units: []string{"repo.wiki"}})
	require.NoError(t, err)
	require.Equal(t, "developers", v.Team.Name)
	require.Equal(t, "d", v.Team.Description)
	require.Equal(t, map[forge.Unit]forge.AccessMode{forge.UnitWiki: write}, v.Team.Units)

	// includes_all_repositories fills the team, and empties it when off.
	v, err = e.svc.EditTeam(ctx, own, tm.ID, orgs.EditTeamOptions{IncludesAllRepos: ptr(true)})
	require.NoError(t, err)
	require.Equal(t, 1, v.Team.NumRepos)
	v, err = e.svc.EditTeam(ctx, own, tm.ID, orgs.EditTeamOptions{IncludesAllRepos: ptr(false)})
	require.NoError(t, err)
	require.Zero(t, v.Team.NumRepos)

	// The Owners team keeps its name, mode and units.
	owners, _, err := e.svc.SearchTeams(ctx, own, "acme", "owners", false, forge.ListOptions{})
	require.NoError(t, err)
	id := owners[0].ID
	_, err = e.svc.EditTeam(ctx, own, id, orgs.EditTeamOptions{Name: ptr("bosses")})
	requireErr(t, err, forge.ErrInvalid, "cannot rename the Owners team")
	v, err = e.svc.EditTeam(ctx, own, id, orgs.EditTeamOptions{Name: ptr("Owners"), Description: ptr("the bosses"),
		Permission: ptr("read"), UnitsMap: map[string]string{"repo.code": "read"}, CanCreateOrgRepo: ptr(false), IncludesAllRepos: ptr(false)})
	require.NoError(t, err)
	require.Equal(t, "the bosses", v.Team.Description)
	require.Equal(t, owner, v.Team.Mode)
	require.Equal(t, orgs.OwnerUnits(), v.Team.Units)
	require.True(t, v.Team.CanCreateOrgRepo)
	require.True(t, v.Team.IncludesAllRepos)
}

func TestDeleteTeam(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	own := e.user(t, "own")
	mem := e.user(t, "mem")
	both := e.user(t, "both")
	e.org(t, own, "acme", "")
	tm := e.member(t, own, "acme", mem)
	require.NoError(t, e.svc.AddTeamMember(ctx, own, tm.ID, "both"))
	e.member(t, own, "acme", both)

	owners, _, err := e.svc.SearchTeams(ctx, own, "acme", "owners", false, forge.ListOptions{})
	require.NoError(t, err)
	requireErr(t, e.svc.DeleteTeam(ctx, own, owners[0].ID), forge.ErrInvalid, "cannot delete Owners team")
	require.NoError(t, e.svc.DeleteTeam(ctx, own, tm.ID))
	_, err = e.svc.GetTeam(ctx, own, tm.ID)
	require.Equal(t, orgs.ErrTeamNotFound, err)
	// mem was in that team only and left the organisation; both stays.
	_, _, member, err := e.svc.MemberRole(ctx, mem, "acme")
	require.NoError(t, err)
	require.False(t, member)
	_, _, member, err = e.svc.MemberRole(ctx, both, "acme")
	require.NoError(t, err)
	require.True(t, member)
}

func TestTeamMembers(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	own := e.user(t, "own")
	e.user(t, "newbie")
	e.org(t, own, "acme", "")
	e.org(t, own, "other", "")
	tm := e.team(t, own, "acme", orgs.CreateTeamOptions{Name: "devs", Permission: "write", Units: []string{"repo.code"}})

	requireErr(t, e.svc.AddTeamMember(ctx, own, tm.ID, "other"), forge.ErrInvalid, "other is an organization not a user")
	requireErr(t, e.svc.AddTeamMember(ctx, own, tm.ID, "nobody"), forge.ErrNotFound, "user redirect does not exist [name: nobody]")
	require.NoError(t, e.svc.AddTeamMember(ctx, own, tm.ID, "newbie"))
	require.NoError(t, e.svc.AddTeamMember(ctx, own, tm.ID, "NEWBIE"), "adding again changes nothing")
	newbie := forgetest.ActorFor(&forge.User{ID: 2, Name: "newbie", IsActive: true})
	_, _, member, err := e.svc.MemberRole(ctx, newbie, "acme")
	require.NoError(t, err)
	require.True(t, member, "a team member is an organisation member")
	v, err := e.svc.GetTeam(ctx, own, tm.ID)
	require.NoError(t, err)
	require.Equal(t, 1, v.Team.NumMembers)

	require.NoError(t, e.svc.RemoveTeamMember(ctx, own, tm.ID, "own"), "not in it: nothing to do")
	require.NoError(t, e.svc.RemoveTeamMember(ctx, own, tm.ID, "newbie"))
	_, _, member, err = e.svc.MemberRole(ctx, newbie, "acme")
	require.NoError(t, err)
	require.False(t, member, "their last team gone, they left the organisation")

	owners, _, err := e.svc.SearchTeams(ctx, own, "acme", "owners", false, forge.ListOptions{})
	require.NoError(t, err)
	requireErr(t, e.svc.RemoveTeamMember(ctx, own, owners[0].ID, "own"), forge.ErrPrecondition,
		fmt.Sprintf("user is the last member of owner team [uid: %d]", own.UserID()))
	require.NoError(t, e.svc.AddTeamMember(ctx, own, owners[0].ID, "newbie"))
	require.NoError(t, e.svc.RemoveTeamMember(ctx, own, owners[0].ID, "own"))
	_, owner, member, err := e.svc.MemberRole(ctx, own, "acme")
	require.NoError(t, err)
	require.False(t, owner || member)
}

func TestTeamRepos(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	own := e.user(t, "own")
	mem := e.user(t, "mem")
	o := e.org(t, own, "acme", "")
	o2 := e.org(t, own, "other", "")
	r := e.repo(t, o, "code")
	e.repo(t, o2, "elsewhere")
	tm := e.member(t, own, "acme", mem)

	_, err := e.svc.TeamRepo(ctx, mem, tm.ID, "acme", "code")
	require.Equal(t, orgs.ErrTeamNotFound, err)
	// A team member without admin access to the repository may not add it.
	require.Equal(t, errRepoAdmin(), e.svc.AddTeamRepo(ctx, mem, tm.ID, "acme", "code"))
	require.NoError(t, e.svc.AddTeamRepo(ctx, own, tm.ID, "acme", "code"))
	require.NoError(t, e.svc.AddTeamRepo(ctx, own, tm.ID, "acme", "code.git"), "adding again changes nothing")
	// Only repositories of the team's organisation.
	require.Equal(t, orgs.ErrTeamNotFound, e.svc.AddTeamRepo(ctx, own, tm.ID, "other", "elsewhere"))

	got, err := e.svc.TeamRepo(ctx, mem, tm.ID, "acme", "CODE")
	require.NoError(t, err)
	require.Equal(t, r.ID, got.ID)
	tr, err := e.svc.ListTeamRepos(ctx, mem, tm.ID, forge.ListOptions{})
	require.NoError(t, err)
	require.Equal(t, "acme", tr.Org.Name)
	require.EqualValues(t, 1, tr.Total)

	// A repository administrator (through the repository service) may.
	e.repos.set(mem, admin)
	require.NoError(t, e.svc.RemoveTeamRepo(ctx, mem, tm.ID, "acme", "code"))
	require.NoError(t, e.svc.RemoveTeamRepo(ctx, mem, tm.ID, "acme", "code"), "removing again changes nothing")
	_, err = e.svc.TeamRepo(ctx, mem, tm.ID, "acme", "code")
	require.Equal(t, orgs.ErrTeamNotFound, err)

	// A team that includes all repositories keeps them.
	owners, _, err := e.svc.SearchTeams(ctx, own, "acme", "owners", false, forge.ListOptions{})
	require.NoError(t, err)
	require.NoError(t, e.svc.RemoveTeamRepo(ctx, own, owners[0].ID, "acme", "code"))
	_, err = e.svc.TeamRepo(ctx, own, owners[0].ID, "acme", "code")
	require.NoError(t, err)
}

func errRepoAdmin() error {
	return forge.Errorf(forge.ErrForbidden, "Must have admin-level access to the repository")
}

func TestRepoTeams(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	own := e.user(t, "own")
	repoAdmin := e.user(t, "radmin")
	reader := e.user(t, "reader")
	stranger := e.user(t, "stranger")
	o := e.org(t, own, "acme", "")
	e.repo(t, o, "code")
	e.repo(t, own.User, "mine")
	devs := e.team(t, own, "acme", orgs.CreateTeamOptions{Name: "devs", Permission: "write", Units: []string{"repo.code"}})
	e.repos.set(own, owner)
	e.repos.set(repoAdmin, admin)
	e.repos.set(reader, read)

	list, err := e.svc.RepoTeams(ctx, reader, "acme", "code")
	require.NoError(t, err)
	require.Equal(t, []string{"Owners"}, teamNames(list))
	_, err = e.svc.RepoTeams(ctx, stranger, "acme", "code")
	requireErr(t, err, forge.ErrForbidden, "user should have any permission to read repository or permissions of site admin")
	_, err = e.svc.RepoTeams(ctx, own, "own", "mine")
	require.Equal(t, orgs.ErrNotOrgRepo, err)
	_, err = e.svc.RepoTeams(ctx, own, "acme", "nothing")
	require.ErrorIs(t, err, forge.ErrNotFound)

	requireErr(t, e.svc.AddRepoTeam(ctx, reader, "acme", "code", "devs"), forge.ErrForbidden,
		"user should be an owner or a collaborator with admin write of a repository")
	requireErr(t, e.svc.AddRepoTeam(ctx, repoAdmin, "acme", "code", "devs"), forge.ErrForbidden, "user is nor repo admin nor owner")
	requireErr(t, e.svc.AddRepoTeam(ctx, own, "acme", "code", "nope"), forge.ErrNotFound,
		fmt.Sprintf("team does not exist [org_id %d, team_id 0, name: nope]", o.ID))
	require.NoError(t, e.svc.AddRepoTeam(ctx, own, "acme", "code", "DEVS"))
	requireErr(t, e.svc.AddRepoTeam(ctx, own, "acme", "code", "devs"), forge.ErrInvalid, "team 'devs' is already added to repo")
	got, err := e.svc.RepoTeam(ctx, reader, "acme", "code", "devs")
	require.NoError(t, err)
	require.Equal(t, devs.ID, got.ID)

	// With RepoAdminChangeTeamAccess, repository administrators may.
	_, err = e.svc.Edit(ctx, own, "acme", orgs.EditOptions{RepoAdminChangeTeamAccess: ptr(true)})
	require.NoError(t, err)
	require.NoError(t, e.svc.RemoveRepoTeam(ctx, repoAdmin, "acme", "code", "devs"))
	requireErr(t, e.svc.RemoveRepoTeam(ctx, repoAdmin, "acme", "code", "devs"), forge.ErrInvalid, "team 'devs' was not added to repo")
	_, err = e.svc.RepoTeam(ctx, reader, "acme", "code", "devs")
	require.Equal(t, orgs.ErrTeamNotFound, err)
	_, err = e.svc.RepoTeams(ctx, forgetest.TokenActor(own.User, "read:organization"), "acme", "code")
	requireErr(t, err, forge.ErrForbidden, "token does not have at least one of required scope(s): [read:repository]")

	e2 := newEnv(t, func(c *orgs.Config) { c.Repos = nil })
	_, err = e2.svc.RepoTeams(ctx, e2.user(t, "x"), "acme", "code")
	require.ErrorIs(t, err, forge.ErrPrecondition)
}
