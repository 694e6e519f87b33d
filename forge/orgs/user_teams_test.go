package orgs_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/forgetest"
)

// A public-only token lists the teams of public organisations page by
// page: no page is left short by a team of a hidden organisation, and the
// total counts only what it may see.
func TestListUserTeamsPublicOnlyPages(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	own := e.user(t, "own")
	e.org(t, own, "a", forge.VisibilityPublic)
	e.org(t, own, "b", forge.VisibilityPrivate)
	e.org(t, own, "c", forge.VisibilityLimited)
	e.org(t, own, "d", forge.VisibilityPublic)
	pub := forgetest.TokenActor(own.User, "read:user", "public-only")
	var orgNames []string
	for page := 1; page <= 3; page++ {
		list, n, err := e.svc.ListUserTeams(ctx, pub, forge.ListOptions{Page: page, Limit: 1})
		require.NoError(t, err)
		require.EqualValues(t, 2, n, "page %d", page)
		for _, v := range list {
			orgNames = append(orgNames, v.Org.Name)
		}
	}
	require.Equal(t, []string{"a", "d"}, orgNames)

	list, n, err := e.svc.ListUserTeams(ctx, own, forge.ListOptions{})
	require.NoError(t, err)
	require.EqualValues(t, 4, n)
	require.Len(t, list, 4)
}
