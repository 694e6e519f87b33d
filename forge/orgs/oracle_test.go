package orgs_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/forge/orgs"
)

// orgCalls calls every method that names an organisation, for the oracle
// test: each returns the error only.
func orgCalls(e *env) map[string]func(a forge.Actor, org string) error {
	png := []byte("\x89PNG\r\n\x1a\nrest")
	lo := forge.ListOptions{}
	return map[string]func(forge.Actor, string) error{
		"Get":  func(a forge.Actor, o string) error { _, err := e.svc.Get(ctx, a, o); return err },
		"Edit": func(a forge.Actor, o string) error { _, err := e.svc.Edit(ctx, a, o, orgs.EditOptions{}); return err },
		"EditBad": func(a forge.Actor, o string) error {
			_, err := e.svc.Edit(ctx, a, o, orgs.EditOptions{Website: ptr("ftp://x")})
			return err
		},
		"Delete":     func(a forge.Actor, o string) error { return e.svc.Delete(ctx, a, o) },
		"Rename":     func(a forge.Actor, o string) error { _, err := e.svc.Rename(ctx, a, o, "fresh"); return err },
		"RenameBad":  func(a forge.Actor, o string) error { _, err := e.svc.Rename(ctx, a, o, "-bad-"); return err },
		"Members":    func(a forge.Actor, o string) error { _, _, err := e.svc.ListMembers(ctx, a, o, lo); return err },
		"PubMembers": func(a forge.Actor, o string) error { _, _, err := e.svc.ListPublicMembers(ctx, a, o, lo); return err },
		"IsMember":   func(a forge.Actor, o string) error { _, err := e.svc.IsMember(ctx, a, o, "own"); return err },
		"IsMemberX":  func(a forge.Actor, o string) error { _, err := e.svc.IsMember(ctx, a, o, "nobody"); return err },
		"IsPublic":   func(a forge.Actor, o string) error { _, err := e.svc.IsPublicMember(ctx, a, o, "own"); return err },
		"Publicize":  func(a forge.Actor, o string) error { return e.svc.Publicize(ctx, a, o, "own") },
		"Conceal":    func(a forge.Actor, o string) error { return e.svc.Conceal(ctx, a, o, "own") },
		"Remove":     func(a forge.Actor, o string) error { return e.svc.RemoveMember(ctx, a, o, "own") },
		"Blocked":    func(a forge.Actor, o string) error { _, _, err := e.svc.ListBlocked(ctx, a, o, lo); return err },
		"Block":      func(a forge.Actor, o string) error { return e.svc.Block(ctx, a, o, "own") },
		"Unblock":    func(a forge.Actor, o string) error { return e.svc.Unblock(ctx, a, o, "own") },
		"CreateTeam": func(a forge.Actor, o string) error {
			_, err := e.svc.CreateTeam(ctx, a, o, orgs.CreateTeamOptions{Name: "x", Permission: "admin"})
			return err
		},
		"CreateTeamBad": func(a forge.Actor, o string) error {
			_, err := e.svc.CreateTeam(ctx, a, o, orgs.CreateTeamOptions{Name: "x y"})
			return err
		},
		"Teams": func(a forge.Actor, o string) error { _, _, err := e.svc.ListTeams(ctx, a, o, lo); return err },
		"Search": func(a forge.Actor, o string) error {
			_, _, err := e.svc.SearchTeams(ctx, a, o, "", true, lo)
			return err
		},
		"Permissions":  func(a forge.Actor, o string) error { _, err := e.svc.Permissions(ctx, a, "own", o); return err },
		"MemberRole":   func(a forge.Actor, o string) error { _, _, _, err := e.svc.MemberRole(ctx, a, o); return err },
		"SetAvatar":    func(a forge.Actor, o string) error { return e.svc.SetAvatar(ctx, a, o, png) },
		"SetAvatarBad": func(a forge.Actor, o string) error { return e.svc.SetAvatar(ctx, a, o, []byte("text")) },
		"DelAvatar":    func(a forge.Actor, o string) error { return e.svc.DeleteAvatar(ctx, a, o) },
	}
}

// teamCalls calls every method that names a team by id.
func teamCalls(e *env) map[string]func(a forge.Actor, id forge.ID) error {
	lo := forge.ListOptions{}
	return map[string]func(forge.Actor, forge.ID) error{
		"GetTeam": func(a forge.Actor, id forge.ID) error { _, err := e.svc.GetTeam(ctx, a, id); return err },
		"EditTeam": func(a forge.Actor, id forge.ID) error {
			_, err := e.svc.EditTeam(ctx, a, id, orgs.EditTeamOptions{})
			return err
		},
		"EditTeamBad": func(a forge.Actor, id forge.ID) error {
			_, err := e.svc.EditTeam(ctx, a, id, orgs.EditTeamOptions{Name: ptr("a b")})
			return err
		},
		"DeleteTeam": func(a forge.Actor, id forge.ID) error { return e.svc.DeleteTeam(ctx, a, id) },
		"Members":    func(a forge.Actor, id forge.ID) error { _, _, err := e.svc.ListTeamMembers(ctx, a, id, lo); return err },
		"Member":     func(a forge.Actor, id forge.ID) error { _, err := e.svc.TeamMember(ctx, a, id, "own"); return err },
		"MemberX":    func(a forge.Actor, id forge.ID) error { _, err := e.svc.TeamMember(ctx, a, id, "nobody"); return err },
		"AddMember":  func(a forge.Actor, id forge.ID) error { return e.svc.AddTeamMember(ctx, a, id, "own") },
		"AddMemberX": func(a forge.Actor, id forge.ID) error { return e.svc.AddTeamMember(ctx, a, id, "nobody") },
		"RmMember":   func(a forge.Actor, id forge.ID) error { return e.svc.RemoveTeamMember(ctx, a, id, "own") },
		"Repos":      func(a forge.Actor, id forge.ID) error { _, err := e.svc.ListTeamRepos(ctx, a, id, lo); return err },
		"Repo":       func(a forge.Actor, id forge.ID) error { _, err := e.svc.TeamRepo(ctx, a, id, "x", "code"); return err },
		"AddRepo":    func(a forge.Actor, id forge.ID) error { return e.svc.AddTeamRepo(ctx, a, id, "x", "code") },
		"RmRepo":     func(a forge.Actor, id forge.ID) error { return e.svc.RemoveTeamRepo(ctx, a, id, "x", "code") },
	}
}

// TestHiddenLikeMissing: for every method and every actor who may not see
// an organisation, the organisation (and its teams) answer exactly as a
// missing one: same category, same message but for the name.
func TestHiddenLikeMissing(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	own := e.user(t, "own")
	stranger := e.user(t, "stranger")
	restricted := e.user(t, "restr", func(u *forge.User) { u.Restricted = true })
	priv := e.org(t, own, "priv", forge.VisibilityPrivate)
	lim := e.org(t, own, "lim", forge.VisibilityLimited)
	e.repo(t, priv, "code")
	e.repo(t, lim, "code")
	privTeam := e.team(t, own, "priv", orgs.CreateTeamOptions{Name: "t", Permission: "read", Units: []string{"repo.code"}})
	limTeam := e.team(t, own, "lim", orgs.CreateTeamOptions{Name: "t", Permission: "read", Units: []string{"repo.code"}})
	pubOnly := forgetest.TokenActor(own.User, "write:organization", "write:user", "write:repository", "public-only")

	cases := []struct {
		who    string
		actor  forge.Actor
		org    string
		teamID forge.ID
	}{
		{"anonymous/private", forge.Anonymous, "priv", privTeam.ID},
		{"anonymous/limited", forge.Anonymous, "lim", limTeam.ID},
		{"stranger/private", stranger, "priv", privTeam.ID},
		{"restricted/limited", restricted, "lim", limTeam.ID},
		{"public-only owner/private", pubOnly, "priv", privTeam.ID},
		{"public-only owner/limited", pubOnly, "lim", limTeam.ID},
	}
	for _, c := range cases {
		for name, call := range orgCalls(e) {
			hidden := call(c.actor, c.org)
			missing := call(c.actor, "nothere")
			require.Error(t, hidden, "%s %s", c.who, name)
			require.Equal(t, errKind(missing), errKind(hidden), "%s %s: %v / %v", c.who, name, hidden, missing)
			require.Equal(t, strings.ReplaceAll(missing.Error(), "nothere", c.org), hidden.Error(), "%s %s", c.who, name)
		}
		for name, call := range teamCalls(e) {
			hidden := call(c.actor, c.teamID)
			missing := call(c.actor, 1<<40)
			require.Error(t, hidden, "%s %s", c.who, name)
			require.Equal(t, missing, hidden, "%s %s", c.who, name)
		}
	}
}

// errKind is the forge category of err.
func errKind(err error) error {
	for _, k := range []error{forge.ErrNotFound, forge.ErrForbidden, forge.ErrUnauthenticated, forge.ErrInvalid, forge.ErrPrecondition, forge.ErrConflict} {
		if err != nil && errors.Is(err, k) {
			return k
		}
	}
	return err
}
