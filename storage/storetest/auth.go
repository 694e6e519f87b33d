package storetest

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/forge/repos"
)

// The conformance cases of auth.Tx: accounts, their conflicts and
// counts, tokens, login sources and two-factor enrolments, and what a
// transaction that fails leaves behind.

// userReads are the account reads the domain transactions share (auth.Tx,
// repos.Tx, issues.Tx).
type userReads interface {
	UserByName(ctx context.Context, name string) (*forge.User, error)
	UserByID(ctx context.Context, id forge.ID) (*forge.User, error)
}

// checkUserReads: tx finds a by its name in capitals (names compare
// ignoring case) and b by id, and an unknown name or id is
// forge.ErrNotFound.
func checkUserReads(t *testing.T, tx userReads, a, b *forge.User) {
	t.Helper()
	ctx := context.Background()
	u, err := tx.UserByName(ctx, strings.ToUpper(a.Name))
	require.NoError(t, err)
	assert.Equal(t, a.ID, u.ID)
	u, err = tx.UserByID(ctx, b.ID)
	require.NoError(t, err)
	assert.Equal(t, b.Name, u.Name)
	_, err = tx.UserByName(ctx, "nobody")
	assert.ErrorIs(t, err, forge.ErrNotFound)
	_, err = tx.UserByID(ctx, 9999)
	assert.ErrorIs(t, err, forge.ErrNotFound)
}

func testUsers(t *testing.T, s auth.Store) {
	ctx := context.Background()
	created := time.Date(2023, 5, 6, 7, 8, 9, 0, time.UTC)
	in := forgetest.User("Alice", func(u *forge.User) {
		u.FullName, u.Location, u.Website, u.Description, u.Pronouns = "Alice A", "Paris", "https://a.example", "hi", "she/her"
		u.IsAdmin, u.Restricted, u.MustChangePassword, u.HideEmail = true, true, true, true
		u.Visibility, u.LoginName, u.MaxRepoCreation = forge.VisibilityLimited, "alice-ext", 5
		u.Created, u.Updated, u.LastLogin = created, created.Add(time.Hour), created.Add(2*time.Hour)
	})
	want := *in
	createUser(t, s, in)
	want.ID = in.ID

	require.NoError(t, s.View(ctx, func(tx auth.Tx) error {
		for _, get := range []func() (*forge.User, error){
			func() (*forge.User, error) { return tx.UserByID(ctx, in.ID) },
			func() (*forge.User, error) { return tx.UserByName(ctx, "aLiCe") },
			func() (*forge.User, error) { return tx.UserByEmail(ctx, "ALICE@example.com") },
		} {
			got, err := get()
			wantRoundTrip(t, "user", &want, got, err)
			assert.Equal(t, time.UTC, got.Created.Location(), "timestamps come back in UTC")
		}
		h, err := tx.PasswordHash(ctx, in.ID)
		assert.Equal(t, "hash-Alice", h)
		return err
	}))

	require.NoError(t, s.View(ctx, func(tx auth.Tx) error {
		_, err := tx.UserByName(ctx, "nobody")
		assert.ErrorIs(t, err, forge.ErrNotFound)
		_, err = tx.UserByID(ctx, 9999)
		assert.ErrorIs(t, err, forge.ErrNotFound)
		_, err = tx.PasswordHash(ctx, 9999)
		assert.ErrorIs(t, err, forge.ErrNotFound)
		return nil
	}))

	want.FullName, want.IsAdmin, want.Email = "Alice B", false, "alice2@example.com"
	want.Updated = created.Add(48 * time.Hour)
	update(t, s, func(tx auth.Tx) error {
		u := want
		if err := tx.UpdateUser(ctx, &u); err != nil {
			return err
		}
		return tx.SetPasswordHash(ctx, u.ID, "new-hash")
	})
	require.NoError(t, s.View(ctx, func(tx auth.Tx) error {
		got, err := tx.UserByID(ctx, in.ID)
		require.NoError(t, err)
		assert.Empty(t, cmp.Diff(&want, got))
		h, _ := tx.PasswordHash(ctx, in.ID)
		assert.Equal(t, "new-hash", h)
		return nil
	}))

	err := s.Update(ctx, func(tx auth.Tx) error {
		u := want
		u.ID = 9999
		return tx.UpdateUser(ctx, &u)
	})
	assert.ErrorIs(t, err, forge.ErrNotFound)

	wantDeleteOnce(t, s, func(ctx context.Context, tx auth.Tx) error { return tx.DeleteUser(ctx, in.ID) })
}

func testUserConflicts(t *testing.T, s auth.Store) {
	ctx := context.Background()
	createUser(t, s, forgetest.User("bob"))
	other := createUser(t, s, forgetest.User("carol"))
	for name, u := range map[string]*forge.User{
		"same name other case": forgetest.User("BOB", func(u *forge.User) { u.Email = "x@example.com" }),
		"same email":           forgetest.User("bobby", func(u *forge.User) { u.Email = "Bob@Example.com" }),
	} {
		err := s.Update(ctx, func(tx auth.Tx) error { return tx.CreateUser(ctx, u, "") })
		assert.ErrorIs(t, err, forge.ErrConflict, name)
	}
	err := s.Update(ctx, func(tx auth.Tx) error {
		u := *other
		u.Name = "Bob"
		return tx.UpdateUser(ctx, &u)
	})
	assert.ErrorIs(t, err, forge.ErrConflict, "rename onto a taken name")
	err = s.Update(ctx, func(tx auth.Tx) error {
		u := *other
		u.Email = "BOB@example.com"
		return tx.UpdateUser(ctx, &u)
	})
	assert.ErrorIs(t, err, forge.ErrConflict, "change to a taken e-mail, ignoring case")

	org := createUser(t, s, forgetest.User("acme", func(u *forge.User) { u.Type = forge.UserTypeOrganization }))
	require.NoError(t, s.View(ctx, func(tx auth.Tx) error {
		got, err := tx.UserByID(ctx, org.ID)
		require.NoError(t, err)
		assert.Equal(t, forge.UserTypeOrganization, got.Type, "organisations share the accounts table")
		return nil
	}))
}

func testRollback(t *testing.T, s auth.Store) {
	ctx := context.Background()
	boom := errors.New("boom")
	err := s.Update(ctx, func(tx auth.Tx) error {
		if err := tx.CreateUser(ctx, forgetest.User("dave"), ""); err != nil {
			return err
		}
		return boom
	})
	require.ErrorIs(t, err, boom, "Update returns fn's error unchanged")
	wantNotFound(t, s, func(ctx context.Context, tx auth.Tx) error { _, err := tx.UserByName(ctx, "dave"); return err }, "a failed Update leaves nothing behind")
	// A failing statement inside the transaction rolls back earlier ones too.
	createUser(t, s, forgetest.User("erin"))
	err = s.Update(ctx, func(tx auth.Tx) error {
		if err := tx.CreateUser(ctx, forgetest.User("frank"), ""); err != nil {
			return err
		}
		return tx.CreateUser(ctx, forgetest.User("erin"), "")
	})
	require.ErrorIs(t, err, forge.ErrConflict)
	wantNotFound(t, s, func(ctx context.Context, tx auth.Tx) error { _, err := tx.UserByName(ctx, "frank"); return err })
	// A View never commits: a backend may refuse the write or drop it.
	_ = s.View(ctx, func(tx auth.Tx) error { return tx.CreateUser(ctx, forgetest.User("gus"), "") })
	wantNotFound(t, s, func(ctx context.Context, tx auth.Tx) error { _, err := tx.UserByName(ctx, "gus"); return err }, "a write in a View is never committed")
}

func testListUsers(t *testing.T, s auth.Store) {
	ctx := context.Background()
	names := []string{"u3", "u1", "u5", "u2", "u4"}
	for i, n := range names {
		createUser(t, s, forgetest.User(n, func(u *forge.User) {
			u.IsAdmin = i < 2
			u.ProhibitLogin = i == 1
			if n == "u2" {
				u.LoginName = "ext2"
			}
		}))
	}
	require.NoError(t, s.View(ctx, func(tx auth.Tx) error {
		list, total, err := tx.ListUsers(ctx, auth.UserFilter{}, forge.ListOptions{Page: 2, Limit: 2})
		require.NoError(t, err)
		assert.EqualValues(t, 5, total)
		assert.Equal(t, []string{"u5", "u2"}, userNames(list))

		list, _, err = tx.ListUsers(ctx, auth.UserFilter{Sort: "alphabetically"}, forge.ListOptions{Page: 1, Limit: 3})
		require.NoError(t, err)
		assert.Equal(t, []string{"u1", "u2", "u3"}, userNames(list))

		list, total, err = tx.ListUsers(ctx, auth.UserFilter{LoginName: "ext2"}, forge.ListOptions{})
		require.NoError(t, err)
		assert.EqualValues(t, 1, total)
		assert.Equal(t, []string{"u2"}, userNames(list))

		list, _, err = tx.ListUsers(ctx, auth.UserFilter{}, forge.ListOptions{Page: 9, Limit: 2})
		require.NoError(t, err)
		assert.NotNil(t, list)
		assert.Empty(t, list)

		n, err := tx.CountUsers(ctx, auth.AdminCount())
		require.NoError(t, err)
		assert.EqualValues(t, 1, n, "an admin who may not log in does not count")
		return nil
	}))
}

func userNames(list []*forge.User) []string {
	return pluck(list, func(u *forge.User) string { return u.Name })
}

func testTokens(t *testing.T, s auth.Store) {
	ctx := context.Background()
	u := createUser(t, s, forgetest.User("gina"))
	other := createUser(t, s, forgetest.User("hank"))
	at := time.Date(2024, 2, 3, 4, 5, 6, 0, time.UTC)
	scope, err := forge.ParseScope("write:repository", "read:user")
	require.NoError(t, err)
	tokens := make([]*auth.AccessToken, 3)
	for i := range tokens {
		tokens[i] = &auth.AccessToken{UserID: u.ID, Name: string(rune('a' + i)), Hash: string(rune('a'+i)) + "hash",
			LastEight: "12345678", Scope: scope, Created: at.Add(time.Duration(i) * time.Second), Updated: at}
		update(t, s, func(tx auth.Tx) error { return tx.CreateToken(ctx, tokens[i]) })
		require.NotZero(t, tokens[i].ID)
	}
	for name, tk := range map[string]*auth.AccessToken{
		"same name, same user": {UserID: u.ID, Name: "a", Hash: "zz", Scope: scope, Created: at, Updated: at},
		"same hash":            {UserID: other.ID, Name: "x", Hash: "ahash", Scope: scope, Created: at, Updated: at},
	} {
		err := s.Update(ctx, func(tx auth.Tx) error { return tx.CreateToken(ctx, tk) })
		assert.ErrorIs(t, err, forge.ErrConflict, name)
	}
	update(t, s, func(tx auth.Tx) error {
		return tx.CreateToken(ctx, &auth.AccessToken{UserID: other.ID, Name: "a", Hash: "otherhash",
			Scope: scope, Created: at, Updated: at})
	})
	err = s.Update(ctx, func(tx auth.Tx) error {
		return tx.CreateToken(ctx, &auth.AccessToken{UserID: 9999, Name: "a", Hash: "h9", Scope: scope, Created: at, Updated: at})
	})
	assert.Error(t, err, "a token needs an existing user")

	require.NoError(t, s.View(ctx, func(tx auth.Tx) error {
		tk, owner, err := tx.TokenByHash(ctx, "bhash")
		require.NoError(t, err)
		assert.Equal(t, u.ID, owner.ID)
		assert.Equal(t, "gina", owner.Name)
		wantRoundTrip(t, "token", tokens[1], tk, err, forgetest.CmpOptions)
		assert.Equal(t, "write:repository,read:user", tk.Scope.String())
		_, _, err = tx.TokenByHash(ctx, "nope")
		assert.ErrorIs(t, err, forge.ErrNotFound)

		list, total, err := tx.ListTokens(ctx, u.ID, forge.ListOptions{Page: 1, Limit: 2})
		require.NoError(t, err)
		assert.EqualValues(t, 3, total)
		assert.Equal(t, []forge.ID{tokens[2].ID, tokens[1].ID}, tokenIDs(list), "newest first")

		byName, err := tx.TokensByName(ctx, u.ID, "c")
		require.NoError(t, err)
		assert.Equal(t, []forge.ID{tokens[2].ID}, tokenIDs(byName))
		return nil
	}))

	// The optional single-statement lookup agrees with the transactional one,
	// and sees every update of the user at once.
	if f, ok := s.(auth.TokenFinder); ok {
		tk, owner, err := f.FindToken(ctx, "bhash")
		require.NoError(t, err)
		assert.Equal(t, "gina", owner.Name)
		assert.Empty(t, cmp.Diff(tokens[1], tk, forgetest.CmpOptions))
		_, _, err = f.FindToken(ctx, "nope")
		assert.ErrorIs(t, err, forge.ErrNotFound)
		for _, name := range []string{"Gina G", "Gina H"} {
			update(t, s, func(tx auth.Tx) error {
				v, err := tx.UserByID(ctx, u.ID)
				if err != nil {
					return err
				}
				v.FullName = name
				return tx.UpdateUser(ctx, v)
			})
			_, owner, err = f.FindToken(ctx, "bhash")
			require.NoError(t, err)
			assert.Equal(t, name, owner.FullName, "FindToken sees the committed user")
			owner.FullName = "mutated by the caller"
		}
		err = s.Update(ctx, func(tx auth.Tx) error {
			v, err := tx.UserByID(ctx, u.ID)
			require.NoError(t, err)
			v.FullName = "rolled back"
			if err := tx.UpdateUser(ctx, v); err != nil {
				return err
			}
			if _, owner, err := tx.TokenByHash(ctx, "bhash"); err != nil || owner.FullName != "rolled back" {
				t.Errorf("a transaction sees its own update: %v %v", owner, err)
			}
			return errors.New("roll back")
		})
		require.Error(t, err)
		_, owner, err = f.FindToken(ctx, "bhash")
		require.NoError(t, err)
		assert.Equal(t, "Gina H", owner.FullName, "a rolled-back update is never seen")
	}

	later := at.Add(time.Hour)
	update(t, s, func(tx auth.Tx) error { return tx.TouchToken(ctx, tokens[0].ID, later) })
	err = s.Update(ctx, func(tx auth.Tx) error { return tx.DeleteToken(ctx, other.ID, tokens[1].ID) })
	assert.ErrorIs(t, err, forge.ErrNotFound, "another user's token cannot be deleted")
	update(t, s, func(tx auth.Tx) error { return tx.DeleteToken(ctx, u.ID, tokens[1].ID) })
	require.NoError(t, s.View(ctx, func(tx auth.Tx) error {
		tk, _, err := tx.TokenByHash(ctx, "ahash")
		require.NoError(t, err)
		assert.Equal(t, later, tk.Updated)
		_, _, err = tx.TokenByHash(ctx, "bhash")
		assert.ErrorIs(t, err, forge.ErrNotFound)
		return nil
	}))

	update(t, s, func(tx auth.Tx) error { return tx.DeleteUser(ctx, u.ID) })
	require.NoError(t, s.View(ctx, func(tx auth.Tx) error {
		_, _, err := tx.TokenByHash(ctx, "ahash")
		assert.ErrorIs(t, err, forge.ErrNotFound, "deleting a user deletes its tokens")
		_, _, err = tx.TokenByHash(ctx, "otherhash")
		assert.NoError(t, err, "other users' tokens stay")
		return nil
	}))
}

func tokenIDs(list []*auth.AccessToken) []forge.ID {
	return pluck(list, func(t *auth.AccessToken) forge.ID { return t.ID })
}

func testSourcesAndTwoFactor(t *testing.T, s auth.Store) {
	ctx := context.Background()
	at := time.Date(2024, 3, 4, 5, 6, 7, 0, time.UTC)
	src := &auth.LoginSource{Type: auth.SourceLDAP, Name: "corp", IsActive: true, Created: at, Updated: at}
	update(t, s, func(tx auth.Tx) error { return tx.CreateLoginSource(ctx, src) })
	require.NotZero(t, src.ID)
	err := s.Update(ctx, func(tx auth.Tx) error {
		return tx.CreateLoginSource(ctx, &auth.LoginSource{Type: auth.SourcePAM, Name: "corp", Created: at, Updated: at})
	})
	assert.ErrorIs(t, err, forge.ErrConflict)
	require.NoError(t, s.View(ctx, func(tx auth.Tx) error {
		got, err := tx.LoginSourceByID(ctx, src.ID)
		require.NoError(t, err)
		assert.Equal(t, src, got)
		_, err = tx.LoginSourceByID(ctx, 999)
		assert.ErrorIs(t, err, forge.ErrNotFound)
		list, err := tx.ListLoginSources(ctx)
		require.NoError(t, err)
		assert.Equal(t, []*auth.LoginSource{src}, list)
		return nil
	}))

	u := createUser(t, s, forgetest.User("ivy"))
	tf := &auth.TwoFactor{UserID: u.ID, Secret: "sealed", ScratchHash: "h", Created: at, Updated: at}
	update(t, s, func(tx auth.Tx) error { return tx.PutTwoFactor(ctx, tf) })
	tf.LastUsedPasscode, tf.Updated = "123456", at.Add(time.Minute)
	update(t, s, func(tx auth.Tx) error { return tx.PutTwoFactor(ctx, tf) })
	require.NoError(t, s.View(ctx, func(tx auth.Tx) error {
		got, err := tx.TwoFactor(ctx, u.ID)
		require.NoError(t, err)
		assert.Equal(t, tf, got, "PutTwoFactor replaces")
		return nil
	}))
	wantDeleteOnce(t, s, func(ctx context.Context, tx auth.Tx) error { return tx.DeleteTwoFactor(ctx, u.ID) })
	update(t, s, func(tx auth.Tx) error { return tx.PutTwoFactor(ctx, tf) })
	update(t, s, func(tx auth.Tx) error { return tx.DeleteUser(ctx, u.ID) })
	wantNotFound(t, s, func(ctx context.Context, tx auth.Tx) error { _, err := tx.TwoFactor(ctx, u.ID); return err }, "deleting a user deletes its enrolment")
}

// testCountUsers is a property check of CountUsers over random accounts:
// with auth.AdminCount it counts exactly the users for which
// auth.IsEffectiveAdmin holds (the store decides nothing about what an
// administrator is), and with every other filter exactly the users
// auth.UserCount.Matches keeps.
func testCountUsers(t *testing.T, s auth.Store) {
	rng := rand.New(rand.NewPCG(9, 2))
	var users []*forge.User
	for i := range 60 {
		u := forgetest.User(fmt.Sprintf("c%02d", i), func(u *forge.User) {
			u.IsAdmin, u.IsActive, u.ProhibitLogin = rng.IntN(2) == 0, rng.IntN(2) == 0, rng.IntN(2) == 0
			if rng.IntN(5) == 0 {
				u.Type = forge.UserTypeOrganization
			}
		})
		users = append(users, createUser(t, s, u))
	}
	count := func(f auth.UserCount) int64 {
		return viewValue(t, s, func(ctx context.Context, tx auth.Tx) (int64, error) { return tx.CountUsers(ctx, f) })
	}
	var admins int64
	for _, u := range users {
		if auth.IsEffectiveAdmin(u) {
			admins++
		}
	}
	require.NotZero(t, admins, "the random accounts include administrators")
	assert.Equal(t, admins, count(auth.AdminCount()), "AdminCount counts the effective administrators")

	flags := []*bool{nil, new(bool), ptrTrue()}
	for _, admin := range flags {
		for _, active := range flags {
			for _, allowed := range flags {
				f := auth.UserCount{Admin: admin, Active: active, LoginAllowed: allowed}
				var want int64
				for _, u := range users {
					if f.Matches(u) {
						want++
					}
				}
				assert.Equal(t, want, count(f), "filter admin=%s active=%s login allowed=%s",
					flagString(admin), flagString(active), flagString(allowed))
			}
		}
	}
}

func ptrTrue() *bool { b := true; return &b }

func flagString(b *bool) string {
	if b == nil {
		return "any"
	}
	return fmt.Sprint(*b)
}

// testOwnsRepositories: OwnsRepositories sees repositories in every state;
// DeleteUser is a plain delete that still refuses to orphan repositories
// (with no domain message: the rule and its message are auth's).
func testOwnsRepositories(t *testing.T, b Backend) {
	ctx := context.Background()
	owner := newUser(t, b, "olga")
	other := newUser(t, b, "otto")
	owns := func(id forge.ID) bool {
		return viewValue(t, b.Auth(), func(ctx context.Context, tx auth.Tx) (bool, error) { return tx.OwnsRepositories(ctx, id) })
	}
	assert.False(t, owns(owner.ID))
	r := newRepo(t, b, owner, "kept")
	assert.True(t, owns(owner.ID))
	assert.False(t, owns(other.ID))
	assert.False(t, owns(9999), "an unknown user owns nothing")

	repoUpdate(t, b.Repos(), func(tx repos.Tx) error {
		r.Status = forge.RepoDeleting
		return tx.UpdateRepo(ctx, r)
	})
	assert.True(t, owns(owner.ID), "a repository being deleted still counts")

	err := b.Auth().Update(ctx, func(tx auth.Tx) error { return tx.DeleteUser(ctx, owner.ID) })
	assert.ErrorIs(t, err, forge.ErrPrecondition, "repositories are not orphaned")
	assert.NotContains(t, err.Error(), "ownership", "the rule's message is the domain's")

	repoUpdate(t, b.Repos(), func(tx repos.Tx) error { return tx.DeleteRepo(ctx, r.ID) })
	assert.False(t, owns(owner.ID))
	update(t, b.Auth(), func(tx auth.Tx) error { return tx.DeleteUser(ctx, owner.ID) })
}
