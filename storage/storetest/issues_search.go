package storetest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/issues"
)

// The conformance cases of the issue search: the repositories it may
// search, its filters by label, assignee, keyword and repository, and the
// label and milestone names it looks up.

// testIssueSearchRepos: SearchableRepos is the repository condition of
// the issue search, the repositories forge/repos.Service.IssueRepos lists
// (ListRepos's VisibleTo rule) judged by repos.Access on the issues and
// pull-request units: checked against that rule computed from the
// backend's own repository reads for every actor, and on the edges by
// name (a private repository of another user, team access per unit, a
// limited owner, a private organisation, restricted users, public-only
// tokens, site administrators, anonymous).
func testIssueSearchRepos(t *testing.T, b Backend) {
	ctx := context.Background()
	at := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
	user := func(name string, opts ...func(*forge.User)) *forge.User { return newUser(t, b, name, opts...) }
	owner, stranger, collab, member, outsider := user("sr-owner"), user("sr-stranger"), user("sr-collab"), user("sr-member"), user("sr-outsider")
	rita := user("sr-rita", func(u *forge.User) { u.Restricted = true })
	admin := user("sr-admin", func(u *forge.User) { u.IsAdmin = true })
	org := newOrg(t, b, "sr-org")
	lim := newOrg(t, b, "sr-lim", func(u *forge.User) { u.Visibility = forge.VisibilityLimited })
	hid := newOrg(t, b, "sr-hid", func(u *forge.User) { u.Visibility = forge.VisibilityPrivate })
	mk := func(o *forge.User, name string, private bool, fn ...func(*forge.Repository)) *forge.Repository {
		r := &forge.Repository{OwnerID: o.ID, Name: name, Private: private, DefaultBranch: "main", ObjectFormat: forge.SHA1,
			Empty: true, Topics: []string{}, HasIssues: true, HasPullRequests: true, Created: at, Updated: at}
		for _, f := range fn {
			f(r)
		}
		repoUpdate(t, b.Repos(), func(tx repos.Tx) error { return tx.CreateRepo(ctx, r) })
		return r
	}
	ownPub, ownPriv := mk(owner, "pub", false), mk(owner, "priv", true)
	noIssues := mk(owner, "nopulls", false, func(r *forge.Repository) { r.HasIssues, r.HasPullRequests = false, false })
	ext := mk(owner, "ext", false, func(r *forge.Repository) { r.ExternalTracker = &forge.ExternalTracker{URL: "https://t.example/"} })
	orgPub, orgPriv, orgAll := mk(org, "pub", false), mk(org, "priv", true), mk(org, "all", true)
	limPub, hidPub := mk(lim, "pub", false), mk(hid, "pub", false)
	mk(owner, "creating", false, func(r *forge.Repository) { r.Status = forge.RepoCreating })
	repoUpdate(t, b.Repos(), func(tx repos.Tx) error {
		if err := tx.SetCollaborator(ctx, ownPriv.ID, collab.ID, forge.AccessModeRead); err != nil {
			return err
		}
		if err := tx.SetCollaborator(ctx, orgPriv.ID, outsider.ID, forge.AccessModeRead); err != nil {
			return err
		}
		return tx.SetCollaborator(ctx, ownPub.ID, rita.ID, forge.AccessModeRead)
	})
	issuesOnly := &forge.Team{OrgID: org.ID, Name: "issues-only", Mode: forge.AccessModeRead,
		Units: map[forge.Unit]forge.AccessMode{forge.UnitIssues: forge.AccessModeRead, forge.UnitPulls: forge.AccessNone}}
	admins := &forge.Team{OrgID: org.ID, Name: "admins", Mode: forge.AccessModeAdmin, Units: map[forge.Unit]forge.AccessMode{}}
	seedOrgs(t, b, orgSeed{
		teams: []*forge.Team{issuesOnly, admins},
		members: []forge.Membership{{OrgID: org.ID, UserID: member.ID}, {OrgID: org.ID, UserID: rita.ID},
			{OrgID: hid.ID, UserID: member.ID}, {OrgID: org.ID, UserID: collab.ID}},
		teamMembers: []teamPair{{issuesOnly, member.ID}, {issuesOnly, rita.ID}, {admins, collab.ID}},
		teamRepos:   []teamPair{{issuesOnly, orgPriv.ID}, {admins, orgAll.ID}},
	})
	token := func(u *forge.User) forge.Actor {
		return forge.Actor{User: u, Scoped: true, Scope: forge.Scope{PublicOnly: true}}
	}
	searchable := func(actor forge.Actor, ownerID forge.ID) (is, ps []forge.ID) {
		t.Helper()
		issueView(t, b.Issues(), func(tx issues.Tx) error {
			var err error
			is, ps, err = tx.SearchableRepos(ctx, actor, ownerID)
			return err
		})
		require.NotNil(t, is)
		require.NotNil(t, ps)
		return is, ps
	}
	// The rule, from the backend's repository reads and repos.Access.
	reference := func(actor forge.Actor, ownerID forge.ID) (is, ps []forge.ID) {
		t.Helper()
		is, ps = []forge.ID{}, []forge.ID{}
		f := repos.RepoFilter{OwnerID: ownerID, VisibleTo: actor.UserID(), AllVisible: actor.IsSiteAdmin(),
			Restricted: actor.IsSignedIn() && actor.User.Restricted}
		if actor.Scoped && actor.Scope.PublicOnly {
			f.VisibleTo, f.AllVisible = 0, false
		}
		require.NoError(t, b.Repos().View(ctx, func(tx repos.Tx) error {
			list, _, err := tx.ListRepos(ctx, f, forge.ListOptions{Page: 1, Limit: 1000})
			if err != nil {
				return err
			}
			for _, r := range list {
				o, err := tx.UserByID(ctx, r.OwnerID)
				if err != nil {
					return err
				}
				var g repos.Grants
				if actor.IsSignedIn() {
					g.Collab, err = tx.CollaboratorMode(ctx, r.ID, actor.User.ID)
					if err != nil {
						return err
					}
					m, err := tx.OrgMemberships(ctx, actor.User.ID, []forge.ID{r.OwnerID})
					if err != nil {
						return err
					}
					tg, err := tx.TeamGrants(ctx, actor.User.ID, []forge.ID{r.ID})
					if err != nil {
						return err
					}
					g.Member, g.Teams = m[r.OwnerID], tg[r.ID]
				}
				p := repos.Access(actor, r, o, g)
				if r.HasIssues && p.CanRead(forge.UnitIssues) {
					is = append(is, r.ID)
				}
				if r.HasPullRequests && p.CanRead(forge.UnitPulls) {
					ps = append(ps, r.ID)
				}
			}
			return nil
		}))
		return is, ps
	}
	actors := map[string]forge.Actor{
		"anonymous": forge.Anonymous, "owner": forgetest.ActorFor(owner), "stranger": forgetest.ActorFor(stranger),
		"collaborator": forgetest.ActorFor(collab), "member": forgetest.ActorFor(member), "outsider": forgetest.ActorFor(outsider),
		"restricted": forgetest.ActorFor(rita), "admin": forgetest.ActorFor(admin),
		"public-only owner": token(owner), "public-only member": token(member), "public-only admin": token(admin),
	}
	for name, actor := range actors {
		for _, ownerID := range []forge.ID{0, owner.ID, org.ID, lim.ID, hid.ID} {
			gotI, gotP := searchable(actor, ownerID)
			wantI, wantP := reference(actor, ownerID)
			assert.ElementsMatch(t, wantI, gotI, "%s, owner %d: issue repositories", name, ownerID)
			assert.ElementsMatch(t, wantP, gotP, "%s, owner %d: pull repositories", name, ownerID)
			assert.IsIncreasing(t, append([]forge.ID{0}, gotI...), "%s: ascending", name)
		}
	}
	pub := []forge.ID{ownPub.ID, ext.ID, orgPub.ID}
	check := func(actor forge.Actor, wantI, wantP []forge.ID, msg string) {
		t.Helper()
		gotI, gotP := searchable(actor, 0)
		assert.ElementsMatch(t, wantI, gotI, "%s: issues", msg)
		assert.ElementsMatch(t, wantP, gotP, "%s: pulls", msg)
	}
	// ext has an external tracker: its pulls only.
	check(forge.Anonymous, []forge.ID{ownPub.ID, orgPub.ID}, pub, "anonymous: public repositories of public owners")
	check(forgetest.ActorFor(stranger), []forge.ID{ownPub.ID, orgPub.ID, limPub.ID}, append(pub, limPub.ID),
		"a stranger: no private repository of another user, a limited owner's public one")
	check(forgetest.ActorFor(member), []forge.ID{ownPub.ID, orgPub.ID, orgPriv.ID, limPub.ID, hidPub.ID}, append(pub, limPub.ID, hidPub.ID),
		"a team of the issues unit only: the private repository's issues, not its pulls; the private organisation's public one")
	check(forgetest.ActorFor(rita), []forge.ID{ownPub.ID, orgPriv.ID}, []forge.ID{ownPub.ID},
		"restricted: what it collaborates on or has through a team, nothing public")
	check(forgetest.ActorFor(collab), []forge.ID{ownPub.ID, ownPriv.ID, orgPub.ID, orgAll.ID, limPub.ID},
		[]forge.ID{ownPub.ID, ownPriv.ID, ext.ID, orgPub.ID, orgAll.ID, limPub.ID}, "a collaborator and an admin team")
	check(token(member), []forge.ID{ownPub.ID, orgPub.ID}, pub, "a public-only token: public repositories of public owners")
	all := []forge.ID{ownPub.ID, ownPriv.ID, orgPub.ID, orgPriv.ID, orgAll.ID, limPub.ID, hidPub.ID}
	check(forgetest.ActorFor(admin), all, append(all, ext.ID), "a site administrator: every ready repository with the unit")
	_ = noIssues
}

// testIssueLabelSearch: the label filter lists and counts each issue
// once, with the state and kind filters, whether the labels belong to
// different repositories (no issue may carry two of them) or to one (an
// issue carrying two is still one match), and follows an issue's state
// as it changes, and labels and issues as they go.
func testIssueLabelSearch(t *testing.T, b Backend) {
	ctx := context.Background()
	s := b.Issues()
	ann, r1, r2 := newUserRepos(t, b, "lsann", "lsone", "lstwo")
	label := func(repo forge.ID, name string) *issues.Label {
		l := &issues.Label{RepoID: repo, Name: name, Color: "#00aabb"}
		issueUpdate(t, s, func(tx issues.Tx) error { return tx.CreateLabel(ctx, l) })
		return l
	}
	a1, a2, b1 := label(r1.ID, "a1"), label(r1.ID, "a2"), label(r2.ID, "b1")
	issue := func(repo forge.ID, title string, closed, pull bool, labels ...*issues.Label) *issues.Issue {
		i := newIssue(t, s, repo, ann.ID, title, func(i *issues.Issue) { i.IsClosed, i.IsPull = closed, pull })
		var ids []forge.ID
		for _, l := range labels {
			ids = append(ids, l.ID)
		}
		issueUpdate(t, s, func(tx issues.Tx) error { return tx.SetIssueLabels(ctx, i.ID, ids) })
		return i
	}
	issue(r1.ID, "i1", false, false, a1)
	issue(r1.ID, "i2", false, false, a1, a2)
	issue(r1.ID, "i3", true, false, a2)
	i4 := issue(r2.ID, "i4", false, true, b1)
	i5 := issue(r2.ID, "i5", false, false, b1)
	issue(r1.ID, "i6", false, false)

	list := func(f issues.IssueFilter, o forge.ListOptions) ([]string, int64) {
		t.Helper()
		f.Sort = issues.IssueSortOldest
		return listIssueTitles(t, s, f, o)
	}
	all := forge.ListOptions{Page: 1, Limit: 50}
	both := []forge.ID{r1.ID, r2.ID}
	ids := func(ls ...*issues.Label) []forge.ID {
		var out []forge.ID
		for _, l := range ls {
			out = append(out, l.ID)
		}
		return out
	}
	notPull, pull := false, true
	for _, tc := range []struct {
		name  string
		f     issues.IssueFilter
		want  []string
		total int64
	}{
		{"two repositories, open", issues.IssueFilter{RepoIDs: both, LabelIDs: ids(a1, b1), State: issues.StateOpen}, []string{"i1", "i2", "i4", "i5"}, 4},
		{"two repositories, issues", issues.IssueFilter{RepoIDs: both, LabelIDs: ids(a1, b1), State: issues.StateOpen, IsPull: &notPull}, []string{"i1", "i2", "i5"}, 3},
		{"two repositories, pulls", issues.IssueFilter{RepoIDs: both, LabelIDs: ids(a1, b1), IsPull: &pull}, []string{"i4"}, 1},
		{"two repositories, closed", issues.IssueFilter{RepoIDs: both, LabelIDs: ids(a1, b1), State: issues.StateClosed}, []string{}, 0},
		{"one repository of the two", issues.IssueFilter{RepoIDs: []forge.ID{r1.ID}, LabelIDs: ids(a1, b1), State: issues.StateAll}, []string{"i1", "i2"}, 2},
		{"two labels of one repository", issues.IssueFilter{RepoIDs: both, LabelIDs: ids(a1, a2), State: issues.StateOpen}, []string{"i1", "i2"}, 2},
		{"two labels of one repository, all", issues.IssueFilter{RepoIDs: both, LabelIDs: ids(a1, a2), State: issues.StateAll}, []string{"i1", "i2", "i3"}, 3},
		{"a listed id twice", issues.IssueFilter{RepoIDs: both, LabelIDs: ids(a1, a1), State: issues.StateAll}, []string{"i1", "i2"}, 2},
	} {
		got, n := list(tc.f, all)
		assert.Equal(t, tc.want, got, tc.name)
		assert.Equal(t, tc.total, n, tc.name)
		if tc.total > 1 {
			got, n = list(tc.f, forge.ListOptions{Page: 2, Limit: 1})
			assert.Equal(t, tc.want[1:2], got, tc.name+": page 2")
			assert.Equal(t, tc.total, n, tc.name+": page 2")
		}
	}

	// Closing i5 moves it from the open matches to the closed ones.
	i5.IsClosed, i5.Closed = true, issueAt
	issueUpdate(t, s, func(tx issues.Tx) error { return tx.UpdateIssue(ctx, i5) })
	got, n := list(issues.IssueFilter{RepoIDs: both, LabelIDs: ids(a1, b1), State: issues.StateOpen}, all)
	assert.Equal(t, []string{"i1", "i2", "i4"}, got)
	assert.EqualValues(t, 3, n)
	got, n = list(issues.IssueFilter{RepoIDs: both, LabelIDs: ids(a1, b1), State: issues.StateClosed}, all)
	assert.Equal(t, []string{"i5"}, got)
	assert.EqualValues(t, 1, n)
	// Labels set after the change carry the issue's state too.
	issueUpdate(t, s, func(tx issues.Tx) error { return tx.SetIssueLabels(ctx, i5.ID, ids(b1)) })
	_, n = list(issues.IssueFilter{RepoIDs: both, LabelIDs: ids(b1), State: issues.StateClosed, IsPull: &notPull}, all)
	assert.EqualValues(t, 1, n)

	// Labels taken off, issues and labels deleted leave the counts.
	issueUpdate(t, s, func(tx issues.Tx) error { return tx.SetIssueLabels(ctx, i5.ID, nil) })
	got, n = list(issues.IssueFilter{RepoIDs: both, LabelIDs: ids(a1, b1), State: issues.StateAll}, all)
	assert.Equal(t, []string{"i1", "i2", "i4"}, got, "a label taken off")
	assert.EqualValues(t, 3, n, "a label taken off")
	issueUpdate(t, s, func(tx issues.Tx) error { return tx.DeleteIssue(ctx, i4.ID) })
	got, n = list(issues.IssueFilter{RepoIDs: both, LabelIDs: ids(a1, b1), State: issues.StateAll}, all)
	assert.Equal(t, []string{"i1", "i2"}, got, "an issue deleted")
	assert.EqualValues(t, 2, n, "an issue deleted")
	issueUpdate(t, s, func(tx issues.Tx) error { return tx.DeleteLabel(ctx, a2.ID) })
	b2 := label(r2.ID, "b2")
	issueUpdate(t, s, func(tx issues.Tx) error { return tx.SetIssueLabels(ctx, i5.ID, ids(b2)) })
	got, n = list(issues.IssueFilter{RepoIDs: both, LabelIDs: ids(a1, b2), State: issues.StateAll}, all)
	assert.Equal(t, []string{"i1", "i2", "i5"}, got, "a label deleted, another added")
	assert.EqualValues(t, 3, n, "a label deleted, another added")
}

// testIssueAssigneeSearch: the assignee filter counts each issue once,
// with the state, kind and milestone filters, and follows an issue's
// state and milestone as they change, and assignees and issues as they
// go.
func testIssueAssigneeSearch(t *testing.T, b Backend) {
	ctx := context.Background()
	s := b.Issues()
	ann, r1, r2 := newUserRepos(t, b, "asann", "asone", "astwo")
	bob := newUser(t, b, "asbob")
	m1 := &issues.Milestone{RepoID: r1.ID, Title: "m1", Deadline: issues.NoDeadline, Created: issueAt, Updated: issueAt}
	issueUpdate(t, s, func(tx issues.Tx) error { return tx.CreateMilestone(ctx, m1) })
	issue := func(repo forge.ID, title string, closed, pull bool, ms forge.ID, who ...*forge.User) *issues.Issue {
		i := newIssue(t, s, repo, ann.ID, title, func(i *issues.Issue) { i.IsClosed, i.IsPull, i.MilestoneID = closed, pull, ms })
		var ids []forge.ID
		for _, u := range who {
			ids = append(ids, u.ID)
		}
		issueUpdate(t, s, func(tx issues.Tx) error { return tx.SetAssignees(ctx, i.ID, ids) })
		return i
	}
	j1 := issue(r1.ID, "j1", false, false, m1.ID, bob)
	issue(r1.ID, "j2", true, false, 0, bob)
	j3 := issue(r2.ID, "j3", false, true, 0, bob)
	issue(r1.ID, "j4", false, false, 0, ann)
	issue(r1.ID, "j5", false, false, m1.ID, bob, ann)

	both := []forge.ID{r1.ID, r2.ID}
	count := func(f issues.IssueFilter) ([]string, int64) {
		t.Helper()
		f.Sort, f.RepoIDs, f.AssigneeID = issues.IssueSortOldest, both, bob.ID
		return listIssueTitles(t, s, f, forge.ListOptions{Page: 1, Limit: 50})
	}
	notPull := false
	check := func(f issues.IssueFilter, want ...string) {
		t.Helper()
		got, n := count(f)
		if want == nil {
			want = []string{}
		}
		assert.Equal(t, want, got)
		assert.EqualValues(t, len(want), n)
	}
	check(issues.IssueFilter{State: issues.StateOpen}, "j1", "j3", "j5")
	check(issues.IssueFilter{State: issues.StateAll}, "j1", "j2", "j3", "j5")
	check(issues.IssueFilter{State: issues.StateOpen, IsPull: &notPull}, "j1", "j5")
	check(issues.IssueFilter{State: issues.StateOpen, MilestoneIDs: []forge.ID{m1.ID}}, "j1", "j5")
	check(issues.IssueFilter{State: issues.StateAll, MilestoneIDs: []forge.ID{0}}, "j2", "j3")
	check(issues.IssueFilter{State: issues.StateClosed}, "j2")

	// Leaving the milestone and closing follow.
	j1.MilestoneID = 0
	j3.IsClosed, j3.Closed = true, issueAt
	issueUpdate(t, s, func(tx issues.Tx) error {
		if err := tx.UpdateIssue(ctx, j1); err != nil {
			return err
		}
		return tx.UpdateIssue(ctx, j3)
	})
	check(issues.IssueFilter{State: issues.StateOpen, MilestoneIDs: []forge.ID{m1.ID}}, "j5")
	check(issues.IssueFilter{State: issues.StateOpen}, "j1", "j5")
	check(issues.IssueFilter{State: issues.StateClosed, MilestoneIDs: []forge.ID{0}}, "j2", "j3")

	// Unassigning and deleting follow too.
	issueUpdate(t, s, func(tx issues.Tx) error { return tx.SetAssignees(ctx, j1.ID, []forge.ID{ann.ID}) })
	check(issues.IssueFilter{State: issues.StateOpen}, "j5")
	issueUpdate(t, s, func(tx issues.Tx) error { return tx.DeleteIssue(ctx, j3.ID) })
	check(issues.IssueFilter{State: issues.StateClosed, MilestoneIDs: []forge.ID{0}}, "j2")
}

// testIssueKeywordComments: the keyword of ListIssues matches the body of
// a plain comment as well as the title and the body of the issue
// (Forgejo's issue indexer), ignoring case, for long keywords and for
// short ones; the match follows the comment's edits and deletion, and an
// event comment's text does not match.
func testIssueKeywordComments(t *testing.T, b Backend) {
	ctx := context.Background()
	s := b.Issues()
	u, r := newUserRepo(t, b, "kw-user", "kw")
	one := newIssue(t, s, r.ID, u.ID, "first")
	two := newIssue(t, s, r.ID, u.ID, "second")
	c := &issues.Comment{IssueID: one.ID, Type: issues.CommentPlain, PosterID: u.ID, Body: "the Zebra crossing qx", Created: issueAt, Updated: issueAt}
	ev := &issues.Comment{IssueID: two.ID, Type: issues.CommentClose, PosterID: u.ID, Body: "zebra qx", Created: issueAt, Updated: issueAt}
	issueUpdate(t, s, func(tx issues.Tx) error {
		if err := tx.CreateComment(ctx, c); err != nil {
			return err
		}
		return tx.CreateComment(ctx, ev)
	})
	find := func(keyword string) []forge.ID {
		t.Helper()
		var ids []forge.ID
		issueView(t, s, func(tx issues.Tx) error {
			list, n, err := tx.ListIssues(ctx, issues.IssueFilter{RepoIDs: []forge.ID{r.ID}, State: issues.StateAll, Keyword: keyword},
				forge.ListOptions{Page: 1, Limit: 10})
			require.EqualValues(t, len(list), n)
			for _, i := range list {
				ids = append(ids, i.ID)
			}
			return err
		})
		return ids
	}
	assert.Equal(t, []forge.ID{one.ID}, find("zebra"), "a plain comment's body, ignoring case")
	assert.Equal(t, []forge.ID{one.ID}, find("QX"), "a short keyword too")
	assert.Equal(t, []forge.ID{two.ID}, find("second"), "the title still")
	c.Body = "a horse"
	issueUpdate(t, s, func(tx issues.Tx) error { return tx.UpdateComment(ctx, c) })
	assert.Empty(t, find("zebra"), "an edited comment no longer matches its old text")
	assert.Equal(t, []forge.ID{one.ID}, find("horse"))
	issueUpdate(t, s, func(tx issues.Tx) error { return tx.DeleteComment(ctx, c.ID) })
	assert.Empty(t, find("horse"), "a deleted comment no longer matches")
}

// testIssueBroadRepoSearch: a search over a long list of repositories (a
// user who sees most of them; a SQL store may search every repository but
// the few others instead) lists and counts exactly the issues of the
// listed repositories, with the state, kind, label, assignee and keyword
// filters; the issues of an unlisted repository are never admitted.
func testIssueBroadRepoSearch(t *testing.T, b Backend) {
	ctx := context.Background()
	s := b.Issues()
	ann := newUser(t, b, "brann")
	const nRepos = 70
	type row struct {
		repo            int
		closed, pull    bool
		labeled, mine   bool
		keyword         bool
		labelID, repoID forge.ID
		issue           *issues.Issue
		deleted         bool
	}
	var rows []*row
	repoIDs := make([]forge.ID, nRepos)
	labelIDs := make([]forge.ID, nRepos)
	for k := range nRepos {
		r := newRepo(t, b, ann, fmt.Sprintf("broad%d", k))
		repoIDs[k] = r.ID
		l := &issues.Label{RepoID: r.ID, Name: "bl", Color: "#00aabb"}
		issueUpdate(t, s, func(tx issues.Tx) error { return tx.CreateLabel(ctx, l) })
		labelIDs[k] = l.ID
		for j := range 3 {
			w := &row{repo: k, closed: (k+j)%3 == 0, pull: j == 2, labeled: j != 1, mine: (k+j)%2 == 0, keyword: j == 0 || k%5 == 0,
				labelID: l.ID, repoID: r.ID}
			title := "plain"
			if w.keyword {
				title = "broad login"
			}
			i := newIssue(t, s, r.ID, ann.ID, fmt.Sprintf("%s %d-%d", title, k, j), func(i *issues.Issue) { i.IsClosed, i.IsPull = w.closed, w.pull })
			issueUpdate(t, s, func(tx issues.Tx) error {
				if w.labeled {
					if err := tx.SetIssueLabels(ctx, i.ID, []forge.ID{l.ID}); err != nil {
						return err
					}
				}
				if w.mine {
					return tx.SetAssignees(ctx, i.ID, []forge.ID{ann.ID})
				}
				return nil
			})
			w.issue = i
			rows = append(rows, w)
		}
	}
	notPull := false
	listed := map[string][]int{
		"all":          seq(0, nRepos),
		"all but one":  seq(1, nRepos),
		"all but five": seq(5, nRepos),
		"most":         seq(0, nRepos-20),
		"a few":        seq(30, 34),
	}
	check := func(phase string) {
		t.Helper()
		for name, ks := range listed {
			in := map[forge.ID]bool{}
			var ids []forge.ID
			for _, k := range ks {
				in[repoIDs[k]] = true
				ids = append(ids, repoIDs[k])
			}
			for _, tc := range []struct {
				name string
				f    issues.IssueFilter
				keep func(*row) bool
			}{
				{"open", issues.IssueFilter{State: issues.StateOpen}, func(w *row) bool { return !w.closed }},
				{"closed issues", issues.IssueFilter{State: issues.StateClosed, IsPull: &notPull}, func(w *row) bool { return w.closed && !w.pull }},
				{"labels", issues.IssueFilter{State: issues.StateAll, LabelIDs: labelIDs}, func(w *row) bool { return w.labeled }},
				{"assigned, open", issues.IssueFilter{State: issues.StateOpen, AssigneeID: ann.ID}, func(w *row) bool { return w.mine && !w.closed }},
				{"keyword, open", issues.IssueFilter{State: issues.StateOpen, Keyword: "login"}, func(w *row) bool { return w.keyword && !w.closed }},
				{"keyword, closed pulls", issues.IssueFilter{State: issues.StateClosed, IsPull: ptrTo(true), Keyword: "login"}, func(w *row) bool { return w.keyword && w.closed && w.pull }},
				{"keyword, all", issues.IssueFilter{State: issues.StateAll, Keyword: "LOGIN"}, func(w *row) bool { return w.keyword }},
				{"keyword, assigned", issues.IssueFilter{State: issues.StateAll, Keyword: "login", AssigneeID: ann.ID}, func(w *row) bool { return w.keyword && w.mine }},
			} {
				want := 0
				for _, w := range rows {
					if !w.deleted && in[w.repoID] && tc.keep(w) {
						want++
					}
				}
				f := tc.f
				f.RepoIDs = ids
				f.Sort = issues.IssueSortOldest
				for _, o := range []forge.ListOptions{{Page: 1, Limit: 500}, {Page: 2, Limit: 7}} {
					list, total := viewPage(t, s, func(ctx context.Context, tx issues.Tx) ([]*issues.Issue, int64, error) {
						return tx.ListIssues(ctx, f, o)
					})
					assert.Equal(t, int64(want), total, "%s: %s, %s: total", phase, name, tc.name)
					if o.Limit == 500 {
						assert.Len(t, list, want, "%s: %s, %s: list", phase, name, tc.name)
					} else {
						assert.Len(t, list, max(0, min(7, want-7)), "%s: %s, %s: second page", phase, name, tc.name)
					}
					for _, i := range list {
						assert.True(t, in[i.RepoID], "%s: %s, %s: an issue of an unlisted repository", phase, name, tc.name)
					}
				}
			}
		}
	}
	check("created")

	// Issues change state, lose and gain the keyword, and go: the totals
	// follow (a store that keeps the text by state and kind moves it).
	for n, w := range rows {
		switch n % 7 {
		case 0:
			w.closed = !w.closed
			w.issue.IsClosed = w.closed
		case 3:
			w.keyword = !w.keyword
			w.issue.Title = "plain again"
			if w.keyword {
				w.issue.Title = "now about login"
			}
		case 5:
			w.closed, w.keyword = !w.closed, !w.keyword
			w.issue.IsClosed, w.issue.Title = w.closed, "Login, closed or not"
			if !w.keyword {
				w.issue.Title = "closed or not"
			}
		default:
			continue
		}
		issueUpdate(t, s, func(tx issues.Tx) error { return tx.UpdateIssue(ctx, w.issue) })
	}
	for n, w := range rows {
		if n%11 == 1 {
			w.deleted = true
			issueUpdate(t, s, func(tx issues.Tx) error { return tx.DeleteIssue(ctx, w.issue.ID) })
		}
	}
	check("changed")
}

// seq is the integers from..to-1.
func seq(from, to int) []int {
	var out []int
	for k := from; k < to; k++ {
		out = append(out, k)
	}
	return out
}

// ptrTo returns a pointer to v.
func ptrTo[T any](v T) *T { return &v }

// testIssueNames: LabelIDsByNames and MilestoneIDsByNames find labels of
// repositories and organisations, and milestones, by exact name across
// the whole store, in id order.
func testIssueNames(t *testing.T, b Backend) {
	ctx := context.Background()
	s := b.Issues()
	ann := newUser(t, b, "nmann")
	org := newUser(t, b, "nmorg", func(u *forge.User) { u.Type = forge.UserTypeOrganization })
	r1, r2 := newRepo(t, b, ann, "names1"), newRepo(t, b, org, "names2")
	var want []forge.ID
	var ms []forge.ID
	issueUpdate(t, s, func(tx issues.Tx) error {
		for _, l := range []*issues.Label{
			{RepoID: r1.ID, Name: "nm-bug", Color: "#000000"},
			{RepoID: r2.ID, Name: "nm-bug", Color: "#000000"},
			{OrgID: org.ID, Name: "nm-doc", Color: "#000000"},
			{RepoID: r2.ID, Name: "NM-BUG", Color: "#000000"},
		} {
			if err := tx.CreateLabel(ctx, l); err != nil {
				return err
			}
			if l.Name != "NM-BUG" {
				want = append(want, l.ID)
			}
		}
		for _, m := range []*issues.Milestone{
			{RepoID: r1.ID, Title: "nm-v1", Deadline: issues.NoDeadline, Created: issueAt, Updated: issueAt},
			{RepoID: r2.ID, Title: "nm-v1", Deadline: issues.NoDeadline, Created: issueAt, Updated: issueAt},
			{RepoID: r2.ID, Title: "nm-v2", Deadline: issues.NoDeadline, Created: issueAt, Updated: issueAt},
		} {
			if err := tx.CreateMilestone(ctx, m); err != nil {
				return err
			}
			ms = append(ms, m.ID)
		}
		return nil
	})
	issueView(t, s, func(tx issues.Tx) error {
		got, err := tx.LabelIDsByNames(ctx, []string{"nm-doc", "nm-bug", "nm-none"})
		require.NoError(t, err)
		assert.Equal(t, want, got, "labels by exact name, of repositories and organisations")
		got, err = tx.LabelIDsByNames(ctx, []string{"nm-none"})
		require.NoError(t, err)
		assert.Equal(t, []forge.ID{}, got)
		got, err = tx.LabelIDsByNames(ctx, nil)
		require.NoError(t, err)
		assert.Equal(t, []forge.ID{}, got)
		got, err = tx.MilestoneIDsByNames(ctx, []string{"nm-v1", "nm-none"})
		require.NoError(t, err)
		assert.Equal(t, ms[:2], got)
		got, err = tx.MilestoneIDsByNames(ctx, []string{"NM-V2"})
		require.NoError(t, err)
		assert.Equal(t, []forge.ID{}, got, "exact names")
		return nil
	})
}
