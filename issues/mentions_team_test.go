package issues_test

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/orgs"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/issues"
)

// mentionsOf returns the Mentioned of the last event committed of each
// issue title and kind ("title/kind"), sorted.
func mentionsOf(rec *recorder) map[string][]forge.ID {
	got := map[string][]forge.ID{}
	for _, e := range rec.all() {
		ids := slices.Clone(e.Mentioned)
		slices.Sort(ids)
		got[e.Issue.Title+"/"+string(e.Kind)] = ids
	}
	return got
}

// TestTeamMentions: `@org/team` in an issue or a comment of an
// organisation's repository mentions (and tells the listeners of) the
// team's members, as Forgejo's ResolveIssueMentionsByVisibility: only a
// team of the repository's owner that has the repository and its unit
// (or admin access), only when the writer may see the organisation's
// teams, never the writer, never an account that may not act, and only
// members who may read the issue.
func TestTeamMentions(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	orgSvc, err := orgs.New(orgs.Config{Store: e.store.Orgs(), Repos: e.repos, Clock: e.clock})
	require.NoError(t, err)
	rec := newRecorder(t, e.store.Hooks())
	e.svc, err = issues.New(issues.Config{Store: e.store.Issues(), Repos: e.repos, Clock: e.clock, Teams: orgSvc})
	require.NoError(t, err)
	ctx := e.ctx

	boss := e.user("boss", func(u *forge.User) { u.AllowCreateOrganization = true })
	dev1, dev2, dev3 := e.user("dev1"), e.user("dev2"), e.user("dev3")
	pr := e.user("pr")          // a member of a team with pull requests only
	outsider := e.user("stray") // no member of acme
	banned := e.user("banned")
	_, err = orgSvc.Create(ctx, boss, orgs.CreateOptions{Name: "acme"})
	require.NoError(t, err)
	_, err = e.repos.CreateInOrg(ctx, boss, "acme", repos.CreateOptions{Name: "tracker", Private: true})
	require.NoError(t, err)
	team := func(name string, o orgs.CreateTeamOptions, members ...forge.Actor) *forge.Team {
		t.Helper()
		o.Name = name
		tv, err := orgSvc.CreateTeam(ctx, boss, "acme", o)
		require.NoError(t, err)
		for _, m := range members {
			require.NoError(t, orgSvc.AddTeamMember(ctx, boss, tv.Team.ID, m.User.Name))
		}
		return tv.Team
	}
	devs := team("devs", orgs.CreateTeamOptions{Permission: "write", UnitsMap: map[string]string{"repo.code": "write", "repo.issues": "write"}},
		dev1, dev2, banned)
	require.NoError(t, orgSvc.AddTeamRepo(ctx, boss, devs.ID, "acme", "tracker"))
	pulls := team("pulls", orgs.CreateTeamOptions{Permission: "read", UnitsMap: map[string]string{"repo.pulls": "read"}}, pr)
	require.NoError(t, orgSvc.AddTeamRepo(ctx, boss, pulls.ID, "acme", "tracker"))
	team("elsewhere", orgs.CreateTeamOptions{Permission: "read", UnitsMap: map[string]string{"repo.issues": "read"}}, dev3) // without the repository
	require.NoError(t, e.store.Auth().Update(ctx, func(tx auth.Tx) error {
		u, err := tx.UserByName(ctx, "banned")
		if err != nil {
			return err
		}
		u.ProhibitLogin = true
		return tx.UpdateUser(ctx, u)
	}))

	create := func(actor forge.Actor, title, body string) {
		t.Helper()
		_, err := e.svc.Create(ctx, actor, "acme", "tracker", issues.CreateIssueOption{Title: title, Body: body})
		require.NoError(t, err)
	}
	mentioned := func(user forge.Actor) []string {
		t.Helper()
		list, _, err := e.svc.List(ctx, boss, "acme", "tracker", issues.ListIssuesOption{State: issues.StateAll,
			MentionedBy: user.User.Name, ListOptions: forge.ListOptions{Page: 1, Limit: 50}})
		require.NoError(t, err)
		var out []string
		for _, v := range list {
			out = append(out, v.Issue.Title)
		}
		slices.Sort(out)
		return out
	}

	create(boss, "team", "ping @acme/DEVS please")
	assert.Equal(t, []forge.ID{dev1.UserID(), dev2.UserID()}, mentionsOf(rec)["team/create"],
		"the members of devs; not the banned account")
	create(dev1, "self", "cc @acme/devs")
	assert.Equal(t, []forge.ID{dev2.UserID()}, mentionsOf(rec)["self/create"], "never the writer")
	create(boss, "pulls team", "cc @acme/pulls")
	assert.Empty(t, mentionsOf(rec)["pulls team/create"], "a team without the issues unit is not mentioned in an issue")
	create(boss, "no repo", "cc @acme/elsewhere and @other/devs and @acme/nobody")
	assert.Empty(t, mentionsOf(rec)["no repo/create"], "a team without the repository, another organisation's, an unknown one")
	create(boss, "code", "`@acme/devs`")
	assert.Empty(t, mentionsOf(rec)["code/create"], "not inside code")

	// A writer who may not see the organisation's teams mentions nobody
	// through them: stray may write the repository but is no member.
	require.NoError(t, e.repos.AddCollaborator(ctx, boss, "acme", "tracker", "stray", forge.AccessModeWrite))
	create(outsider, "outsider", "@acme/devs")
	assert.Empty(t, mentionsOf(rec)["outsider/create"])

	// A comment mentions too; a direct mention and a team mention are one.
	_, err = e.svc.CreateComment(ctx, dev2, "acme", "tracker", 6, issues.CreateCommentOption{Body: "@dev1 and @acme/devs"})
	require.NoError(t, err)
	assert.Equal(t, []forge.ID{dev1.UserID()}, mentionsOf(rec)["outsider/comment"])

	assert.Equal(t, []string{"outsider", "team"}, mentioned(dev1))
	assert.Equal(t, []string{"self", "team"}, mentioned(dev2))
	assert.Empty(t, mentioned(pr))
	assert.Empty(t, mentioned(dev3))
}
