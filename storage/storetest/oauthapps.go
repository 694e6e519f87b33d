package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/auth/oauthapps"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/forgetest"
)

// testOAuthApps covers oauthapps.Tx: applications round trip (redirect
// URIs and confidentiality included), client ids are unique, updates,
// a user's page by id, deletion, the not-found errors, and that a
// deleted user's applications go with it.
func testOAuthApps(t *testing.T, b Backend) {
	ctx := context.Background()
	s := b.OAuthApps()
	ann := createUser(t, b.Auth(), forgetest.User("oann"))
	bob := createUser(t, b.Auth(), forgetest.User("obob"))
	at := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
	a1 := &oauthapps.App{UserID: ann.ID, Name: "one", ClientID: "c-1", SecretHash: "h1",
		RedirectURIs: []string{"https://a.example/cb", "http://127.0.0.1/cb"}, Confidential: true, Created: at, Updated: at}
	a2 := &oauthapps.App{UserID: ann.ID, Name: "two", ClientID: "c-2", SecretHash: "h2", RedirectURIs: []string{"app:/cb"},
		Created: at, Updated: at}
	a3 := &oauthapps.App{UserID: bob.ID, Name: "bob's", ClientID: "c-3", SecretHash: "h3", RedirectURIs: []string{"https://b/"},
		Created: at, Updated: at}
	require.NoError(t, s.Update(ctx, func(tx oauthapps.Tx) error {
		for _, a := range []*oauthapps.App{a1, a2, a3} {
			if err := tx.CreateApp(ctx, a); err != nil {
				return err
			}
		}
		return nil
	}))
	require.NotZero(t, a1.ID)

	err := s.Update(ctx, func(tx oauthapps.Tx) error {
		return tx.CreateApp(ctx, &oauthapps.App{UserID: bob.ID, Name: "dup", ClientID: "c-1", SecretHash: "x",
			RedirectURIs: []string{}, Created: at, Updated: at})
	})
	assert.ErrorIs(t, err, forge.ErrConflict, "a client id is unique")
	err = s.Update(ctx, func(tx oauthapps.Tx) error {
		return tx.CreateApp(ctx, &oauthapps.App{UserID: 999999, Name: "x", ClientID: "c-x", RedirectURIs: []string{}, Created: at, Updated: at})
	})
	assert.ErrorIs(t, err, forge.ErrNotFound, "the user must exist")

	later := at.Add(time.Hour)
	a2.Name, a2.RedirectURIs, a2.Confidential, a2.SecretHash, a2.Updated = "two!", []string{"https://c/", "https://d/"}, true, "h2b", later
	require.NoError(t, s.Update(ctx, func(tx oauthapps.Tx) error { return tx.UpdateApp(ctx, a2) }))

	require.NoError(t, s.View(ctx, func(tx oauthapps.Tx) error {
		got, err := tx.AppByID(ctx, a2.ID)
		require.NoError(t, err)
		assert.Empty(t, cmp.Diff(a2, got))
		got, err = tx.AppByClientID(ctx, "c-1")
		require.NoError(t, err)
		assert.Empty(t, cmp.Diff(a1, got))
		_, err = tx.AppByID(ctx, 999999)
		assert.ErrorIs(t, err, forge.ErrNotFound)
		_, err = tx.AppByClientID(ctx, "nope")
		assert.ErrorIs(t, err, forge.ErrNotFound)

		list, n, err := tx.ListApps(ctx, ann.ID, forge.ListOptions{Page: 1, Limit: 1})
		require.NoError(t, err)
		assert.Equal(t, int64(2), n)
		require.Len(t, list, 1)
		assert.Equal(t, a1.ID, list[0].ID, "by id ascending")
		list, _, err = tx.ListApps(ctx, ann.ID, forge.ListOptions{Page: 2, Limit: 1})
		require.NoError(t, err)
		require.Len(t, list, 1)
		assert.Equal(t, a2.ID, list[0].ID)
		return nil
	}))
	assert.ErrorIs(t, s.Update(ctx, func(tx oauthapps.Tx) error {
		return tx.UpdateApp(ctx, &oauthapps.App{ID: 999999, RedirectURIs: []string{}})
	}), forge.ErrNotFound)

	require.NoError(t, s.Update(ctx, func(tx oauthapps.Tx) error { return tx.DeleteApp(ctx, a1.ID) }))
	assert.ErrorIs(t, s.Update(ctx, func(tx oauthapps.Tx) error { return tx.DeleteApp(ctx, a1.ID) }), forge.ErrNotFound)

	update(t, b.Auth(), func(tx auth.Tx) error { return tx.DeleteUser(ctx, bob.ID) })
	require.NoError(t, s.View(ctx, func(tx oauthapps.Tx) error {
		_, err := tx.AppByID(ctx, a3.ID)
		assert.ErrorIs(t, err, forge.ErrNotFound, "a deleted user's applications go with it")
		list, n, err := tx.ListApps(ctx, ann.ID, forge.ListOptions{Page: 1, Limit: 10})
		require.NoError(t, err)
		assert.Equal(t, int64(1), n)
		assert.Len(t, list, 1)
		return nil
	}))
}
