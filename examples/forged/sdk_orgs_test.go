package main

import (
	"path/filepath"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGiteaSDKOrganizations drives organisations and teams in forged with
// the Gitea Go SDK end to end: create an organisation, a team, add a
// member, create a repository in the organisation and give it to the team,
// and list them from every side.
func TestGiteaSDKOrganizations(t *testing.T) {
	t.Parallel()
	s := start(t, filepath.Join(t.TempDir(), "data"), map[string]string{
		"FORGED_ADMIN_USER": "boss", "FORGED_ADMIN_PASSWORD": "boss-password"})
	admin, err := gitea.NewClient(s.url, gitea.SetBasicAuth("boss", "boss-password"))
	require.NoError(t, err)
	no := false
	for _, name := range []string{"dave", "erin"} {
		_, _, err := admin.AdminCreateUser(gitea.CreateUserOption{Username: name, Email: name + "@example.com",
			Password: name + "-password", MustChangePassword: &no})
		require.NoError(t, err)
	}
	dave, err := gitea.NewClient(s.url, gitea.SetBasicAuth("dave", "dave-password"))
	require.NoError(t, err)
	erin, err := gitea.NewClient(s.url, gitea.SetBasicAuth("erin", "erin-password"))
	require.NoError(t, err)

	org, _, err := dave.CreateOrg(gitea.CreateOrgOption{Name: "guild", FullName: "The Guild", Visibility: gitea.VisibleTypeLimited})
	require.NoError(t, err)
	assert.Equal(t, "guild", org.UserName)
	assert.Equal(t, "limited", org.Visibility)

	team, _, err := dave.CreateTeam("guild", gitea.CreateTeamOption{Name: "smiths", Description: "they forge",
		Permission: gitea.AccessModeWrite, Units: []gitea.RepoUnitType{gitea.RepoUnitCode, gitea.RepoUnitIssues}})
	require.NoError(t, err)
	require.NotNil(t, team.Organization, "a created team carries its organisation")
	assert.Equal(t, "guild", team.Organization.UserName)
	assert.Equal(t, gitea.AccessModeWrite, team.Permission)

	_, err = dave.AddTeamMember(team.ID, "erin")
	require.NoError(t, err)
	member, _, err := dave.CheckOrgMembership("guild", "erin")
	require.NoError(t, err)
	assert.True(t, member)

	repo, _, err := dave.CreateOrgRepo("guild", gitea.CreateRepoOption{Name: "anvil", Private: true, AutoInit: true})
	require.NoError(t, err)
	assert.Equal(t, "guild/anvil", repo.FullName)
	_, err = dave.AddTeamRepository(team.ID, "guild", "anvil")
	require.NoError(t, err)

	teams, _, err := dave.ListOrgTeams("guild", gitea.ListTeamsOptions{})
	require.NoError(t, err)
	assert.ElementsMatch(t, []string{"Owners", "smiths"}, []string{teams[0].Name, teams[1].Name})
	members, _, err := dave.ListTeamMembers(team.ID, gitea.ListTeamMembersOptions{})
	require.NoError(t, err)
	require.Len(t, members, 1)
	assert.Equal(t, "erin", members[0].UserName)

	// erin sees the organisation, her team and the team's private
	// repository, with push access.
	mine, _, err := erin.ListMyOrgs(gitea.ListOrgsOptions{})
	require.NoError(t, err)
	require.Len(t, mine, 1)
	assert.Equal(t, "guild", mine[0].UserName)
	myTeams, _, err := erin.ListMyTeams(&gitea.ListTeamsOptions{})
	require.NoError(t, err)
	require.Len(t, myTeams, 1)
	assert.Equal(t, "smiths", myTeams[0].Name)
	require.NotNil(t, myTeams[0].Organization)
	repos, _, err := erin.ListTeamRepositories(team.ID, gitea.ListTeamRepositoriesOptions{})
	require.NoError(t, err)
	require.Len(t, repos, 1)
	assert.Equal(t, "anvil", repos[0].Name)
	assert.True(t, repos[0].Permissions.Push)
	assert.False(t, repos[0].Permissions.Admin)
	orgRepos, _, err := erin.ListOrgRepos("guild", gitea.ListOrgReposOptions{})
	require.NoError(t, err)
	require.Len(t, orgRepos, 1)
	perms, _, err := erin.GetOrgPermissions("guild", "erin")
	require.NoError(t, err)
	assert.True(t, perms.CanWrite)
	assert.False(t, perms.IsOwner)
	repoTeams, _, err := erin.GetRepoTeams("guild", "anvil")
	require.NoError(t, err)
	assert.Len(t, repoTeams, 2, "the Owners team includes every repository")

	// A stranger neither sees the private repository nor joins teams.
	_, _, err = admin.AdminCreateUser(gitea.CreateUserOption{Username: "finn", Email: "finn@example.com",
		Password: "finn-password", MustChangePassword: &no})
	require.NoError(t, err)
	finn, err := gitea.NewClient(s.url, gitea.SetBasicAuth("finn", "finn-password"))
	require.NoError(t, err)
	_, resp, err := finn.GetRepo("guild", "anvil")
	require.Error(t, err)
	assert.Equal(t, 404, resp.StatusCode)
	_, resp, err = finn.CreateTeam("guild", gitea.CreateTeamOption{Name: "rogues", Permission: gitea.AccessModeRead,
		Units: []gitea.RepoUnitType{gitea.RepoUnitCode}})
	require.Error(t, err)
	assert.Equal(t, 403, resp.StatusCode)

	all, _, err := admin.AdminListOrgs(gitea.AdminListOrgsOptions{})
	require.NoError(t, err)
	require.Len(t, all, 1)

	// Deleting the organisation is refused while it owns a repository.
	resp, err = dave.DeleteOrg("guild")
	require.Error(t, err)
	assert.Equal(t, 422, resp.StatusCode)
	_, err = dave.DeleteRepo("guild", "anvil")
	require.NoError(t, err)
	_, err = dave.DeleteOrg("guild")
	require.NoError(t, err)
}
