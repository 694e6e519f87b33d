package orgs_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
)

// A restricted user lists only the organisations it may see: those it is
// a member of (Forgejo's user search), in GET /orgs and in another user's
// organisations.
func TestRestrictedUserLists(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	own := e.user(t, "own")
	rita := e.user(t, "rita", func(u *forge.User) { u.Restricted = true })
	e.org(t, own, "mine", "")
	e.org(t, own, "open", "")
	e.org(t, own, "lim", forge.VisibilityLimited)
	e.member(t, own, "mine", rita)
	require.NoError(t, e.svc.Publicize(ctx, own, "open", "own"))
	require.NoError(t, e.svc.Publicize(ctx, own, "mine", "own"))

	list, n, err := e.svc.List(ctx, rita, forge.ListOptions{})
	require.NoError(t, err)
	require.Equal(t, []string{"mine"}, memberNames(list))
	require.EqualValues(t, 1, n)
	for _, name := range []string{"open", "lim"} {
		_, err := e.svc.Get(ctx, rita, name)
		require.ErrorIs(t, err, forge.ErrNotFound, "what it may not get, it does not list")
	}
	list, n, err = e.svc.ListForUser(ctx, rita, "own", forge.ListOptions{})
	require.NoError(t, err)
	require.Equal(t, []string{"mine"}, memberNames(list))
	require.EqualValues(t, 1, n)

	// Others are not restricted that way.
	list, _, err = e.svc.List(ctx, own, forge.ListOptions{})
	require.NoError(t, err)
	require.Equal(t, []string{"lim", "mine", "open"}, memberNames(list))
}
