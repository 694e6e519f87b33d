package sqlstore

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/forgetest"
)

// tokenFixture opens a file database (separate read pool) with one user and
// one token, and returns the store, the user and the token's digest.
func tokenFixture(t *testing.T) (*DB, *forge.User, *auth.AccessToken) {
	db, u, tk, _ := tokenFixtureAt(t)
	return db, u, tk
}

// tokenFixtureAt is tokenFixture that returns the database's path too.
func tokenFixtureAt(t *testing.T) (*DB, *forge.User, *auth.AccessToken, string) {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "h.db")
	db := openSQLiteAt(t, path)
	u := forgetest.User("ann")
	scope, err := forge.ParseScope("write:repository", "read:user")
	require.NoError(t, err)
	tk := &auth.AccessToken{Name: "t", Hash: auth.HashToken("0123456789abcdef0123456789abcdef01234567"),
		LastEight: "01234567", Scope: scope, Created: time.Unix(1e9, 0), Updated: time.Unix(1e9, 0)}
	require.NoError(t, db.Auth().Update(ctx, func(tx auth.Tx) error {
		if err := tx.CreateUser(ctx, u, ""); err != nil {
			return err
		}
		tk.UserID = u.ID
		return tx.CreateToken(ctx, tk)
	}))
	return db, u, tk, path
}

// The token cache answers repeated lookups without SQLite: a row removed
// by another writer of the file (another DB, as another process would) is
// still served, within maxTokenAge. Without the cache the second lookup
// fails.
func TestTokenCacheServesRepeatedLookups(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, _, tk, path := tokenFixtureAt(t)
	finder := db.Auth().(auth.TokenFinder)
	other := openSQLiteAt(t, path)
	start := time.Now()
	_, _, err := finder.FindToken(ctx, tk.Hash)
	require.NoError(t, err)
	require.NoError(t, other.update(ctx, func(t *tx) error {
		_, err := t.exec(ctx, `DELETE FROM access_token WHERE id = ?`, tk.ID)
		return err
	}))
	got, _, err := finder.FindToken(ctx, tk.Hash)
	if err != nil && time.Since(start) < maxTokenAge {
		t.Fatalf("second lookup: %v: want the cached token", err)
	}
	if err == nil {
		require.Equal(t, tk.ID, got.ID)
	}
}

// Every write on users or tokens through the store (as any write of this
// process) takes effect on the next lookup, whatever the cache holds.
func TestTokenCacheWritesTakeEffectAtOnce(t *testing.T) {
	t.Parallel()
	readScope, err := forge.ParseScope("read:user")
	require.NoError(t, err)
	cases := []struct {
		name  string
		write func(ctx context.Context, tx auth.Tx, u *forge.User, tk *auth.AccessToken) error
		check func(t *testing.T, tk *auth.AccessToken, u *forge.User, err error)
	}{
		{"token deleted", func(ctx context.Context, tx auth.Tx, u *forge.User, tk *auth.AccessToken) error {
			return tx.DeleteToken(ctx, u.ID, tk.ID)
		}, func(t *testing.T, _ *auth.AccessToken, _ *forge.User, err error) {
			require.ErrorIs(t, err, forge.ErrNotFound)
		}},
		{"user deleted", func(ctx context.Context, tx auth.Tx, u *forge.User, _ *auth.AccessToken) error {
			return tx.DeleteUser(ctx, u.ID)
		}, func(t *testing.T, _ *auth.AccessToken, _ *forge.User, err error) {
			require.ErrorIs(t, err, forge.ErrNotFound)
		}},
		{"user disabled", func(ctx context.Context, tx auth.Tx, u *forge.User, _ *auth.AccessToken) error {
			u.ProhibitLogin, u.IsActive = true, false
			return tx.UpdateUser(ctx, u)
		}, func(t *testing.T, _ *auth.AccessToken, u *forge.User, err error) {
			require.NoError(t, err)
			require.True(t, u.ProhibitLogin)
			require.False(t, u.IsActive)
			require.Error(t, forge.Actor{User: u}.CheckState())
		}},
		{"admin removed", func(ctx context.Context, tx auth.Tx, u *forge.User, _ *auth.AccessToken) error {
			u.IsAdmin = false
			return tx.UpdateUser(ctx, u)
		}, func(t *testing.T, _ *auth.AccessToken, u *forge.User, err error) {
			require.NoError(t, err)
			require.False(t, u.IsAdmin)
		}},
		{"scope changed", func(ctx context.Context, atx auth.Tx, _ *forge.User, tk *auth.AccessToken) error {
			_, err := atx.(*tx).exec(ctx, `UPDATE access_token SET scope = ? WHERE id = ?`, readScope.String(), tk.ID)
			return err
		}, func(t *testing.T, tk *auth.AccessToken, _ *forge.User, err error) {
			require.NoError(t, err)
			require.Equal(t, readScope, tk.Scope)
		}},
		{"token used", func(ctx context.Context, tx auth.Tx, _ *forge.User, tk *auth.AccessToken) error {
			return tx.TouchToken(ctx, tk.ID, time.Unix(2e9, 0))
		}, func(t *testing.T, tk *auth.AccessToken, _ *forge.User, err error) {
			require.NoError(t, err)
			require.Equal(t, time.Unix(2e9, 0).UTC(), tk.Updated.UTC())
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			db, u, tk := tokenFixture(t)
			u.IsAdmin = true
			require.NoError(t, db.Auth().Update(ctx, func(tx auth.Tx) error { return tx.UpdateUser(ctx, u) }))
			finder := db.Auth().(auth.TokenFinder)
			for range 2 { // fill the cache, then hit it
				_, got, err := finder.FindToken(ctx, tk.Hash)
				require.NoError(t, err)
				require.True(t, got.IsAdmin)
			}
			require.NoError(t, db.Auth().Update(ctx, func(tx auth.Tx) error { return c.write(ctx, tx, u, tk) }))
			gt, gu, err := finder.FindToken(ctx, tk.Hash)
			c.check(t, gt, gu, err)
		})
	}
}

// A lookup that read the rows before a write ended is not cached for use
// after it.
func TestTokenCacheReadRacingWriteNotKept(t *testing.T) {
	t.Parallel()
	var c tokenCache
	var g generation
	gen := g.load()
	g.bump() // a write ended while the read ran
	now := time.Now()
	c.put("h", gen, g.load(), now, &auth.AccessToken{ID: 1}, &forge.User{ID: 1})
	tk, _ := c.get("h", g.load(), now)
	require.Nil(t, tk)
	c.put("h", g.load(), g.load(), now, &auth.AccessToken{ID: 1}, &forge.User{ID: 1})
	tk, _ = c.get("h", g.load(), now)
	require.NotNil(t, tk)
	tk, _ = c.get("h", g.load(), now.Add(maxTokenAge))
	require.Nil(t, tk, "entries expire for writes of other processes")
	g.bump()
	tk, _ = c.get("h", g.load(), now)
	require.Nil(t, tk, "a write ended")
}
