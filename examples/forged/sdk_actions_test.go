package main

import (
	"net/http"
	"path/filepath"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGiteaSDKActions drives organisation Actions secrets and variables in
// forged with the Gitea Go SDK: PUT creates (201) then updates (204), the
// list shows names but never values, variables read back, and a member
// who does not own the organisation is refused.
func TestGiteaSDKActions(t *testing.T) {
	t.Parallel()
	s := start(t, filepath.Join(t.TempDir(), "data"), map[string]string{
		"FORGED_ADMIN_USER": "boss", "FORGED_ADMIN_PASSWORD": "boss-password"})
	admin, err := gitea.NewClient(s.url, gitea.SetBasicAuth("boss", "boss-password"))
	require.NoError(t, err)
	no := false
	_, _, err = admin.AdminCreateUser(gitea.CreateUserOption{Username: "frank", Email: "frank@example.com",
		Password: "frank-password", MustChangePassword: &no})
	require.NoError(t, err)
	frank, err := gitea.NewClient(s.url, gitea.SetBasicAuth("frank", "frank-password"))
	require.NoError(t, err)
	_, _, err = admin.CreateOrg(gitea.CreateOrgOption{Name: "ops"})
	require.NoError(t, err)

	res, err := admin.CreateOrgActionSecret("ops", "deploy_token", gitea.CreateOrUpdateSecretOption{Data: "s3cr3t"})
	require.NoError(t, err)
	assert.Equal(t, http.StatusCreated, res.StatusCode)
	res, err = admin.CreateOrgActionSecret("ops", "DEPLOY_TOKEN", gitea.CreateOrUpdateSecretOption{Data: "rotated"})
	require.NoError(t, err)
	assert.Equal(t, http.StatusNoContent, res.StatusCode)
	secrets, _, err := admin.ListOrgActionSecret("ops", gitea.ListOrgActionSecretOption{})
	require.NoError(t, err)
	require.Len(t, secrets, 1)
	assert.Equal(t, "DEPLOY_TOKEN", secrets[0].Name)
	assert.Empty(t, secrets[0].Data, "values are never returned")
	_, err = admin.CreateOrgActionSecret("ops", "GITHUB_X", gitea.CreateOrUpdateSecretOption{Data: "x"})
	assert.Error(t, err, "reserved prefix")

	_, err = admin.CreateOrgActionVariable("ops", "region", gitea.CreateActionVariableOption{Value: "eu"})
	require.NoError(t, err)
	v, _, err := admin.GetOrgActionVariable("ops", "REGION")
	require.NoError(t, err)
	assert.Equal(t, "eu", v.Data)

	res, err = frank.CreateOrgActionSecret("ops", "X", gitea.CreateOrUpdateSecretOption{Data: "x"})
	require.Error(t, err)
	assert.Equal(t, http.StatusForbidden, res.StatusCode)
}
