package oauthapps_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/auth/oauthapps"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/storage/memstore"
)

// TestSecretsAreShownOnceAndKeptAsDigests: the secret Create and Update
// answer is the one the stored digest verifies (the old one stops working
// after an edit), and no read gives a secret back.
func TestSecretsAreShownOnceAndKeptAsDigests(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := memstore.New()
	u := forgetest.User("ann")
	require.NoError(t, st.Auth().Update(ctx, func(tx auth.Tx) error { return tx.CreateUser(ctx, u, "") }))
	ann := forgetest.ActorFor(u)
	svc, err := oauthapps.New(oauthapps.Config{Store: st.OAuthApps()})
	require.NoError(t, err)

	created, err := svc.Create(ctx, ann, oauthapps.Options{Name: "a", RedirectURIs: []string{"https://a/cb"}})
	require.NoError(t, err)
	require.NotEmpty(t, created.Secret)
	stored, err := svc.Get(ctx, ann, created.ID)
	require.NoError(t, err)
	assert.Empty(t, stored.Secret, "a read gives no secret")
	assert.NotContains(t, stored.SecretHash, created.Secret, "the secret is not stored")
	assert.True(t, oauthapps.VerifySecret(stored, created.Secret))

	edited, err := svc.Update(ctx, ann, created.ID, oauthapps.Options{Name: "b", RedirectURIs: []string{"https://b/cb"}})
	require.NoError(t, err)
	stored, err = svc.Get(ctx, ann, created.ID)
	require.NoError(t, err)
	assert.True(t, oauthapps.VerifySecret(stored, edited.Secret), "the new secret works")
	assert.False(t, oauthapps.VerifySecret(stored, created.Secret), "the old one stops working")
	list, _, err := svc.List(ctx, ann, forge.ListOptions{})
	require.NoError(t, err)
	require.Len(t, list, 1)
	assert.Empty(t, list[0].Secret)
}

// TestRedirectAllowed is Forgejo's ContainsRedirectURI: exact matches
// ignoring case and a final slash; any port of an http loopback URI for
// public clients only.
func TestRedirectAllowed(t *testing.T) {
	t.Parallel()
	app := &oauthapps.App{RedirectURIs: []string{"https://a.example/cb", "http://127.0.0.1/cb"}}
	for uri, want := range map[string]bool{
		"https://a.example/cb": true, "HTTPS://A.EXAMPLE/CB/": true, "https://a.example/cb?x=1": false,
		"http://127.0.0.1:8080/cb": true, "http://127.0.0.1/cb": true, "http://localhost:8080/cb": false,
		"https://b.example/cb": false,
	} {
		assert.Equal(t, want, oauthapps.RedirectAllowed(app, uri), uri)
	}
	app.Confidential = true
	assert.False(t, oauthapps.RedirectAllowed(app, "http://127.0.0.1:8080/cb"), "no port freedom for confidential clients")
}
