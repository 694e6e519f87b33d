package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/forge/repos"
)

// authView runs fn in a View of s and fails the test on its error.
func authView(t *testing.T, s auth.Store, fn func(auth.Tx) error) {
	t.Helper()
	require.NoError(t, s.View(context.Background(), fn))
}

// userNamed reads a user by id.
func userNamed(t *testing.T, s auth.Store, id forge.ID) *forge.User {
	t.Helper()
	var u *forge.User
	authView(t, s, func(tx auth.Tx) error {
		var err error
		u, err = tx.UserByID(context.Background(), id)
		return err
	})
	return u
}

// testPeople: follows are directed and counted on both users (and
// uncounted when a user goes), listed in the order they were made with
// the visibility filter; blocks through auth.Tx; further e-mail addresses
// are unique ignoring case across users and searched with the primary
// ones; settings read back as stored, the zero value before.
func testPeople(t *testing.T, b Backend) {
	ctx := context.Background()
	s := b.Auth()
	ann, ben := createUser(t, s, forgetest.User("ann")), createUser(t, s, forgetest.User("Ben"))
	cat := createUser(t, s, forgetest.User("cat", func(u *forge.User) { u.Visibility = forge.VisibilityPrivate }))
	dan := createUser(t, s, forgetest.User("dan", func(u *forge.User) { u.Visibility = forge.VisibilityLimited; u.FullName = "Daniel Sky" }))
	t0 := time.Date(2024, 6, 7, 8, 9, 10, 0, time.UTC)

	t.Run("Follows", func(t *testing.T) {
		update(t, s, func(tx auth.Tx) error {
			for i, p := range [][2]*forge.User{{ben, ann}, {cat, ann}, {dan, ann}, {ann, ben}, {ben, ann}} {
				if err := tx.Follow(ctx, p[0].ID, p[1].ID, t0.Add(time.Duration(i)*time.Minute)); err != nil {
					return err
				}
			}
			return nil
		})
		err := s.Update(ctx, func(tx auth.Tx) error { return tx.Follow(ctx, ann.ID, 9999, t0) })
		assert.ErrorIs(t, err, forge.ErrNotFound, "following nobody")
		a, bb := userNamed(t, s, ann.ID), userNamed(t, s, ben.ID)
		assert.Equal(t, [2]int64{3, 1}, [2]int64{a.NumFollowers, a.NumFollowing}, "ann: a follow made twice counts once")
		assert.Equal(t, [2]int64{1, 1}, [2]int64{bb.NumFollowers, bb.NumFollowing})

		list := func(f auth.FollowFilter, o forge.ListOptions) ([]string, int64) {
			var users []*forge.User
			var total int64
			authView(t, s, func(tx auth.Tx) error {
				var err error
				users, total, err = tx.ListFollows(ctx, f, o)
				return err
			})
			var names []string
			for _, u := range users {
				names = append(names, u.Name)
			}
			return names, total
		}
		all := forge.ListOptions{Page: 1, Limit: 50}
		names, total := list(auth.FollowFilter{UserID: ann.ID}, all)
		assert.Equal(t, []string{"Ben", "cat", "dan"}, names, "followers, earliest first")
		assert.EqualValues(t, 3, total)
		names, total = list(auth.FollowFilter{UserID: ann.ID}, forge.ListOptions{Page: 2, Limit: 2})
		assert.Equal(t, []string{"dan"}, names)
		assert.EqualValues(t, 3, total)
		names, total = list(auth.FollowFilter{UserID: ann.ID, Visibilities: []forge.Visibility{forge.VisibilityPublic}}, all)
		assert.Equal(t, []string{"Ben"}, names, "the visibility filter")
		assert.EqualValues(t, 1, total)
		names, _ = list(auth.FollowFilter{UserID: ann.ID, Visibilities: []forge.Visibility{forge.VisibilityPublic}, Self: cat.ID}, all)
		assert.Equal(t, []string{"Ben", "cat"}, names, "Self is seen whatever its visibility")
		names, _ = list(auth.FollowFilter{UserID: ann.ID, Following: true}, all)
		assert.Equal(t, []string{"Ben"}, names, "following")

		authView(t, s, func(tx auth.Tx) error {
			yes, err := tx.IsFollowing(ctx, ben.ID, ann.ID)
			require.NoError(t, err)
			no, err := tx.IsFollowing(ctx, ann.ID, cat.ID)
			require.NoError(t, err)
			assert.True(t, yes)
			assert.False(t, no, "follows are directed")
			return nil
		})
		update(t, s, func(tx auth.Tx) error {
			if err := tx.Unfollow(ctx, ben.ID, ann.ID); err != nil {
				return err
			}
			return tx.Unfollow(ctx, ben.ID, ann.ID) // again: nothing
		})
		a, bb = userNamed(t, s, ann.ID), userNamed(t, s, ben.ID)
		assert.Equal(t, [2]int64{2, 1}, [2]int64{a.NumFollowers, a.NumFollowing})
		assert.Equal(t, [2]int64{1, 0}, [2]int64{bb.NumFollowers, bb.NumFollowing})

		// An update of the user never writes the counters.
		stale := *a
		stale.NumFollowers, stale.FullName = 42, "Ann"
		update(t, s, func(tx auth.Tx) error { return tx.UpdateUser(ctx, &stale) })
		assert.EqualValues(t, 2, userNamed(t, s, ann.ID).NumFollowers)

		// A user that goes takes its follows and their counts.
		gone := createUser(t, s, forgetest.User("gone"))
		update(t, s, func(tx auth.Tx) error {
			if err := tx.Follow(ctx, gone.ID, ann.ID, t0); err != nil {
				return err
			}
			if err := tx.Follow(ctx, ann.ID, gone.ID, t0); err != nil {
				return err
			}
			return tx.DeleteUser(ctx, gone.ID)
		})
		a = userNamed(t, s, ann.ID)
		assert.Equal(t, [2]int64{2, 1}, [2]int64{a.NumFollowers, a.NumFollowing})
	})

	t.Run("Blocks", func(t *testing.T) {
		r := newRepo(t, b, ann, "hers")
		repoUpdate(t, b.Repos(), func(tx repos.Tx) error { return tx.SetWatch(ctx, r.ID, ben.ID, repos.WatchNormal, t0) })
		update(t, s, func(tx auth.Tx) error {
			if err := tx.SetBlock(ctx, forge.Block{BlockerID: ann.ID, UserID: ben.ID, Created: t0}); err != nil {
				return err
			}
			return tx.DropBlocked(ctx, ann.ID, ben.ID)
		})
		authView(t, s, func(tx auth.Tx) error {
			blocked, err := tx.IsBlocked(ctx, ann.ID, ben.ID)
			require.NoError(t, err)
			assert.True(t, blocked)
			list, total, err := tx.ListBlocked(ctx, ann.ID, forge.ListOptions{Page: 1, Limit: 10})
			require.NoError(t, err)
			assert.Equal(t, []forge.Block{{BlockerID: ann.ID, UserID: ben.ID, Created: t0}}, list)
			assert.EqualValues(t, 1, total)
			return nil
		})
		require.NoError(t, b.Repos().View(ctx, func(tx repos.Tx) error {
			m, _, err := tx.Watch(ctx, r.ID, ben.ID)
			assert.Equal(t, repos.WatchNone, m, "DropBlocked took the watch")
			return err
		}))
		update(t, s, func(tx auth.Tx) error { return tx.DeleteBlock(ctx, ann.ID, ben.ID) })
		err := s.Update(ctx, func(tx auth.Tx) error { return tx.DeleteBlock(ctx, ann.ID, ben.ID) })
		assert.ErrorIs(t, err, forge.ErrNotFound)
	})

	t.Run("Emails", func(t *testing.T) {
		update(t, s, func(tx auth.Tx) error {
			for _, e := range []auth.EmailAddress{
				{UserID: ann.ID, Email: "Ann.Work@Example.org", Verified: true},
				{UserID: ann.ID, Email: "ann@home.test"},
				{UserID: dan.ID, Email: "zed@example.net", Verified: true},
			} {
				if err := tx.AddEmailAddress(ctx, e); err != nil {
					return err
				}
			}
			return nil
		})
		err := s.Update(ctx, func(tx auth.Tx) error {
			return tx.AddEmailAddress(ctx, auth.EmailAddress{UserID: ben.ID, Email: "ann.work@example.ORG"})
		})
		assert.ErrorIs(t, err, forge.ErrConflict, "an address belongs to one user, ignoring case")
		err = s.Update(ctx, func(tx auth.Tx) error {
			return tx.AddEmailAddress(ctx, auth.EmailAddress{UserID: 9999, Email: "x@example.org"})
		})
		assert.ErrorIs(t, err, forge.ErrNotFound)

		authView(t, s, func(tx auth.Tx) error {
			list, err := tx.EmailAddresses(ctx, ann.ID)
			require.NoError(t, err)
			assert.Equal(t, []auth.EmailAddress{
				{UserID: ann.ID, Email: "Ann.Work@Example.org", Verified: true},
				{UserID: ann.ID, Email: "ann@home.test"},
			}, list, "in the order added, the case kept")
			owner, err := tx.EmailAddressOwner(ctx, "ANN@home.test")
			require.NoError(t, err)
			assert.Equal(t, ann.ID, owner)
			_, err = tx.EmailAddressOwner(ctx, "ann@example.com")
			assert.ErrorIs(t, err, forge.ErrNotFound, "primary addresses are the users'")

			found, total, err := tx.SearchEmails(ctx, "AN", forge.ListOptions{Page: 1, Limit: 10})
			require.NoError(t, err)
			assert.Equal(t, []auth.EmailAddress{
				{UserID: ann.ID, UserName: "ann", Email: "Ann.Work@Example.org", Verified: true},
				{UserID: ann.ID, UserName: "ann", Email: "ann@example.com", Verified: true, Primary: true},
				{UserID: ann.ID, UserName: "ann", Email: "ann@home.test"},
				{UserID: dan.ID, UserName: "dan", Email: "dan@example.com", Verified: true, Primary: true},
				{UserID: dan.ID, UserName: "dan", Email: "zed@example.net", Verified: true},
			}, found, "by address ignoring case; the user's name matches too")
			assert.EqualValues(t, 5, total)
			found, total, err = tx.SearchEmails(ctx, "", forge.ListOptions{Page: 2, Limit: 2})
			require.NoError(t, err)
			assert.EqualValues(t, 7, total, "four primary addresses and three further ones")
			assert.Equal(t, []string{"ann@home.test", "ben@example.com"}, []string{found[0].Email, found[1].Email})
			found, _, err = tx.SearchEmails(ctx, "SKY", forge.ListOptions{Page: 1, Limit: 10})
			require.NoError(t, err)
			assert.Len(t, found, 2, "the full name matches")
			none, total, err := tx.SearchEmails(ctx, "100%_", forge.ListOptions{Page: 1, Limit: 10})
			require.NoError(t, err)
			assert.Empty(t, none, "LIKE's wildcards are literal")
			assert.Zero(t, total)
			return nil
		})
		update(t, s, func(tx auth.Tx) error { return tx.DeleteEmailAddress(ctx, ann.ID, "ANN@HOME.test") })
		err = s.Update(ctx, func(tx auth.Tx) error { return tx.DeleteEmailAddress(ctx, ben.ID, "zed@example.net") })
		assert.ErrorIs(t, err, forge.ErrNotFound, "another user's address")
		authView(t, s, func(tx auth.Tx) error {
			list, err := tx.EmailAddresses(ctx, ann.ID)
			require.NoError(t, err)
			assert.Len(t, list, 1)
			return nil
		})
	})

	t.Run("PrivacyFlags", func(t *testing.T) {
		u := *userNamed(t, s, ben.ID)
		u.HidePronouns, u.HideActivity = true, true
		update(t, s, func(tx auth.Tx) error { return tx.UpdateUser(ctx, &u) })
		got := userNamed(t, s, ben.ID)
		assert.True(t, got.HidePronouns)
		assert.True(t, got.HideActivity)
	})

	t.Run("Settings", func(t *testing.T) {
		authView(t, s, func(tx auth.Tx) error {
			st, err := tx.Settings(ctx, ben.ID)
			require.NoError(t, err)
			assert.Equal(t, auth.Settings{}, st, "none stored: the defaults")
			return nil
		})
		want := auth.Settings{Theme: "forgejo-dark", DiffViewStyle: "split", DisableRepoUnitHints: true}
		update(t, s, func(tx auth.Tx) error {
			if err := tx.PutSettings(ctx, ben.ID, auth.Settings{Theme: "x"}); err != nil {
				return err
			}
			return tx.PutSettings(ctx, ben.ID, want)
		})
		err := s.Update(ctx, func(tx auth.Tx) error { return tx.PutSettings(ctx, 9999, want) })
		assert.ErrorIs(t, err, forge.ErrNotFound)
		authView(t, s, func(tx auth.Tx) error {
			st, err := tx.Settings(ctx, ben.ID)
			require.NoError(t, err)
			assert.Equal(t, want, st)
			return nil
		})
	})
}
