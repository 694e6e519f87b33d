package main

import (
	"path/filepath"
	"strings"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGiteaSDK drives forged with the real Gitea Go SDK, as a typical
// Forgejo automation does: version probe and feature gates, admin user
// management, token creation with basic auth, token use, listing, deletion.
// Whoever adds an API area adds its SDK calls here.
func TestGiteaSDK(t *testing.T) {
	t.Parallel()
	s := start(t, filepath.Join(t.TempDir(), "data"), map[string]string{
		"FORGED_ADMIN_USER": "boss", "FORGED_ADMIN_PASSWORD": "boss-password"})

	admin, err := gitea.NewClient(s.url, gitea.SetBasicAuth("boss", "boss-password"))
	require.NoError(t, err, "NewClient probes /api/v1/version")
	v, _, err := admin.ServerVersion()
	require.NoError(t, err)
	assert.Regexp(t, `^15\.0\.3\+hearth-`, v)
	for _, gate := range []string{">=1.11", ">=1.16", ">=1.20", ">=1.22", ">=1.23"} {
		assert.NoError(t, admin.CheckServerVersionConstraint(gate), gate)
	}

	me, _, err := admin.GetMyUserInfo()
	require.NoError(t, err)
	assert.Equal(t, "boss", me.UserName)
	assert.True(t, me.IsAdmin)

	no := false
	created, _, err := admin.AdminCreateUser(gitea.CreateUserOption{
		Username: "carol", Email: "carol@example.com", Password: "carol-password",
		FullName: "Carol C", MustChangePassword: &no})
	require.NoError(t, err)
	assert.Equal(t, "carol", created.UserName)
	assert.Equal(t, "Carol C", created.FullName)

	_, resp, err := admin.AdminCreateUser(gitea.CreateUserOption{Username: "carol", Email: "c2@example.com", Password: "carol-password"})
	require.Error(t, err)
	assert.Equal(t, 422, resp.StatusCode)

	loc := "Lisbon"
	_, err = admin.AdminEditUser("carol", gitea.EditUserOption{LoginName: "carol", Location: &loc})
	require.NoError(t, err)
	u, _, err := admin.GetUserInfo("carol")
	require.NoError(t, err)
	assert.Equal(t, "Lisbon", u.Location)

	users, resp, err := admin.AdminListUsers(gitea.AdminListUsersOptions{ListOptions: gitea.ListOptions{Page: 1, PageSize: 1}})
	require.NoError(t, err)
	assert.Len(t, users, 1)
	assert.Equal(t, "2", resp.Header.Get("X-Total-Count"))
	assert.Equal(t, 2, resp.NextPage, "the SDK follows the Link header")

	carol, err := gitea.NewClient(s.url, gitea.SetBasicAuth("carol", "carol-password"))
	require.NoError(t, err)
	tok, _, err := carol.CreateAccessToken(gitea.CreateAccessTokenOption{
		Name: "automation", Scopes: []gitea.AccessTokenScope{gitea.AccessTokenScopeReadUser, gitea.AccessTokenScope("write:repository")}})
	// (carol signs in with her password below; the token is checked on its own.)
	require.NoError(t, err)
	assert.Len(t, tok.Token, 40)
	assert.ElementsMatch(t, []gitea.AccessTokenScope{"write:repository", "read:user"}, tok.Scopes)

	byToken, err := gitea.NewClient(s.url, gitea.SetToken(tok.Token))
	require.NoError(t, err)
	me, _, err = byToken.GetMyUserInfo()
	require.NoError(t, err)
	assert.Equal(t, "carol", me.UserName)
	_, resp, err = byToken.AdminListUsers(gitea.AdminListUsersOptions{})
	require.Error(t, err)
	assert.Equal(t, 403, resp.StatusCode)

	list, _, err := carol.ListAccessTokens(gitea.ListAccessTokensOptions{})
	require.NoError(t, err)
	require.Len(t, list, 1)
	assert.Equal(t, "automation", list[0].Name)
	assert.Empty(t, list[0].Token)

	_, err = carol.DeleteAccessToken("automation")
	require.NoError(t, err)
	_, resp, err = byToken.GetMyUserInfo()
	require.Error(t, err)
	assert.Equal(t, 401, resp.StatusCode)

	// Repositories, branches, contents, commits, collaborators.
	for _, format := range []string{"sha1", "sha256"} {
		name := "tools-" + format
		repo, _, err := carol.CreateRepo(gitea.CreateRepoOption{Name: name, Description: "Tools", AutoInit: true,
			Gitignores: "Go", License: "MIT", ObjectFormatName: format})
		require.NoError(t, err, format)
		assert.Equal(t, "carol/"+name, repo.FullName)
		assert.Equal(t, "main", repo.DefaultBranch)

		got, _, err := carol.GetRepo("carol", name)
		require.NoError(t, err)
		assert.Equal(t, repo.ID, got.ID)
		desc := "Better tools"
		edited, _, err := carol.EditRepo("carol", name, gitea.EditRepoOption{Description: &desc})
		require.NoError(t, err)
		assert.Equal(t, "Better tools", edited.Description)

		file, _, err := carol.CreateFile("carol", name, "cmd/main.go", gitea.CreateFileOptions{
			FileOptions: gitea.FileOptions{Message: "add main"}, Content: "cGFja2FnZSBtYWluCg=="})
		require.NoError(t, err)
		hexLen := map[string]int{"sha1": 40, "sha256": 64}[format]
		assert.Len(t, file.Commit.SHA, hexLen)
		raw, _, err := carol.GetFile("carol", name, "main", "cmd/main.go")
		require.NoError(t, err)
		assert.Equal(t, "package main\n", string(raw))
		contents, _, err := carol.GetContents("carol", name, "main", "cmd/main.go")
		require.NoError(t, err)
		_, _, err = carol.UpdateFile("carol", name, "cmd/main.go", gitea.UpdateFileOptions{
			FileOptions: gitea.FileOptions{Message: "edit main"}, SHA: contents.SHA, Content: "cGFja2FnZSBtYWluIC8vIHYyCg=="})
		require.NoError(t, err)

		_, _, err = carol.CreateBranch("carol", name, gitea.CreateBranchOption{BranchName: "dev", OldBranchName: "main"})
		require.NoError(t, err)
		branches, _, err := carol.ListRepoBranches("carol", name, gitea.ListRepoBranchesOptions{})
		require.NoError(t, err)
		assert.Len(t, branches, 2)
		commits, _, err := carol.ListRepoCommits("carol", name, gitea.ListCommitOptions{SHA: "main", Stat: true, Files: true})
		require.NoError(t, err)
		require.Len(t, commits, 3)
		assert.Equal(t, "edit main", commits[0].RepoCommit.Message)
		require.NotNil(t, commits[0].Stats)
		assert.Equal(t, 1, commits[0].Stats.Additions)

		_, err = carol.AddCollaborator("carol", name, "boss", gitea.AddCollaboratorOption{})
		require.NoError(t, err)
		_, _, err = carol.CreateBranchProtection("carol", name, gitea.CreateBranchProtectionOption{RuleName: "main", RequiredApprovals: 1})
		require.NoError(t, err)
		// Releases, assets, tags, statuses, forks: what a release pipeline does.
		rel, _, err := carol.CreateRelease("carol", name, gitea.CreateReleaseOption{TagName: "v1.0.0", Title: "One", Note: "notes"})
		require.NoError(t, err)
		asset, _, err := carol.CreateReleaseAttachment("carol", name, rel.ID, strings.NewReader("binary"), "tool.bin")
		require.NoError(t, err)
		assert.EqualValues(t, 6, asset.Size)
		latest, _, err := carol.GetLatestRelease("carol", name)
		require.NoError(t, err)
		assert.Equal(t, "v1.0.0", latest.TagName)
		require.Len(t, latest.Attachments, 1)
		tags, _, err := carol.ListRepoTags("carol", name, gitea.ListRepoTagsOptions{})
		require.NoError(t, err)
		require.Len(t, tags, 1)
		_, _, err = carol.CreateStatus("carol", name, tags[0].Commit.SHA, gitea.CreateStatusOption{State: gitea.StatusSuccess, Context: "ci"})
		require.NoError(t, err)
		combined, _, err := carol.GetCombinedStatus("carol", name, "v1.0.0")
		require.NoError(t, err)
		assert.Equal(t, gitea.StatusSuccess, combined.State)
		fork, _, err := admin.CreateFork("carol", name, gitea.CreateForkOption{})
		require.NoError(t, err)
		assert.True(t, fork.Fork)
		_, err = admin.DeleteRepo("boss", name)
		require.NoError(t, err)

		mine, _, err := carol.ListMyRepos(gitea.ListReposOptions{})
		require.NoError(t, err)
		assert.NotEmpty(t, mine)
		_, err = carol.DeleteRepo("carol", name)
		require.NoError(t, err)
	}

	_, err = admin.AdminDeleteUser("carol")
	require.NoError(t, err)
	_, resp, err = admin.GetUserInfo("carol")
	require.Error(t, err)
	assert.Equal(t, 404, resp.StatusCode)
}
