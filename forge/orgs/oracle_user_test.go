package orgs_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/orgs"
)

// An organisation the actor may not see, named where a route takes a user
// ({username}), answers as a missing name: no `x is an organization not a
// user`, no canonical name in a redirect.
func TestHiddenOrgAsUserLikeMissing(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	own := e.user(t, "own")
	boss := e.user(t, "boss")
	root := e.user(t, "root", func(u *forge.User) { u.IsAdmin = true })
	e.org(t, own, "acme", "")
	e.org(t, boss, "Secret", forge.VisibilityPrivate)
	teams, _, err := e.svc.ListTeams(ctx, own, "acme", forge.ListOptions{})
	require.NoError(t, err)
	owners := teams[0].ID
	calls := map[string]func(user string) error{
		"Block":     func(u string) error { return e.svc.Block(ctx, own, "acme", u) },
		"Unblock":   func(u string) error { return e.svc.Unblock(ctx, own, "acme", u) },
		"AddMember": func(u string) error { return e.svc.AddTeamMember(ctx, own, owners, u) },
		"Member":    func(u string) error { _, err := e.svc.TeamMember(ctx, own, owners, u); return err },
		"IsMember": func(u string) error {
			c, err := e.svc.IsMember(ctx, own, "acme", u)
			if err == nil && c.Answer == orgs.AskPublic {
				return forge.Errorf(forge.ErrInvalid, "redirect to %s", c.User)
			}
			return err
		},
		"IsPublic":    func(u string) error { _, err := e.svc.IsPublicMember(ctx, own, "acme", u); return err },
		"Remove":      func(u string) error { return e.svc.RemoveMember(ctx, own, "acme", u) },
		"Permissions": func(u string) error { _, err := e.svc.Permissions(ctx, own, u, "acme"); return err },
		"UserOrgs":    func(u string) error { _, _, err := e.svc.ListForUser(ctx, own, u, forge.ListOptions{}); return err },
	}
	for name, call := range calls {
		hidden, missing := call("secret"), call("nothere")
		require.Error(t, missing, name)
		require.Error(t, hidden, name)
		require.Equal(t, strings.ReplaceAll(missing.Error(), "nothere", "secret"), hidden.Error(), name)
	}
	// Who may see it gets the organisation's answers.
	requireErr(t, e.svc.Block(ctx, root, "acme", "secret"), forge.ErrInvalid, "Secret is an organization not a user")
}
