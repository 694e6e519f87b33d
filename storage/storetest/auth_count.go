package storetest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/forgetest"
)

// testCountUsers is a property check of CountUsers over random accounts:
// with auth.AdminCount it counts exactly the users for which
// auth.IsEffectiveAdmin holds (the store decides nothing about what an
// administrator is), and with every other filter exactly the users
// auth.UserCount.Matches keeps.
func testCountUsers(t *testing.T, s auth.Store) {
	ctx := context.Background()
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
		var n int64
		require.NoError(t, s.View(ctx, func(tx auth.Tx) error {
			var err error
			n, err = tx.CountUsers(ctx, f)
			return err
		}))
		return n
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
