package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/issues"
)

func issueTitles(list []*issues.Issue) []string {
	return pluck(list, func(i *issues.Issue) string { return i.Title })
}

// listIssueTitles returns the titles of the page of ListIssues that f and
// o select, and the count of every match.
func listIssueTitles(t *testing.T, s issues.Store, f issues.IssueFilter, o forge.ListOptions) ([]string, int64) {
	t.Helper()
	list, n := viewPage(t, s, func(ctx context.Context, tx issues.Tx) ([]*issues.Issue, int64, error) {
		return tx.ListIssues(ctx, f, o)
	})
	return issueTitles(list), n
}

// testIssueList: every filter of IssueFilter, every order, paging, and the
// rule that a filter naming no repository matches nothing.
func testIssueList(t *testing.T, b Backend) {
	ctx := context.Background()
	s := b.Issues()
	ann, pub, priv := newUserRepos(t, b, "lann", "pub", "priv")
	bob := newUser(t, b, "lbob")
	repoUpdate(t, b.Repos(), func(tx repos.Tx) error { priv.Private = true; return tx.UpdateRepo(ctx, priv) })
	ms1 := &issues.Milestone{RepoID: pub.ID, Title: "m1", Deadline: issueAt.Add(240 * time.Hour), Created: issueAt, Updated: issueAt}
	ms2 := &issues.Milestone{RepoID: pub.ID, Title: "m2", Deadline: issues.NoDeadline, Created: issueAt, Updated: issueAt}
	bug := &issues.Label{RepoID: pub.ID, Name: "bug", Color: "#ff0000"}
	doc := &issues.Label{RepoID: pub.ID, Name: "doc", Color: "#00ff00"}
	issueUpdate(t, s, func(tx issues.Tx) error {
		for _, m := range []*issues.Milestone{ms1, ms2} {
			if err := tx.CreateMilestone(ctx, m); err != nil {
				return err
			}
		}
		if err := tx.CreateLabel(ctx, bug); err != nil {
			return err
		}
		return tx.CreateLabel(ctx, doc)
	})

	h := func(n int) time.Time { return issueAt.Add(time.Duration(n) * time.Hour) }
	// a..f in pub, g in priv; created hourly, updated in another order.
	a := newIssue(t, s, pub.ID, ann.ID, "alpha crash", func(i *issues.Issue) {
		i.Created, i.Updated, i.NumComments, i.Deadline = h(1), h(13), 2, h(50)
	})
	bb := newIssue(t, s, pub.ID, bob.ID, "beta", func(i *issues.Issue) {
		i.Created, i.Updated, i.Body, i.NumComments, i.MilestoneID = h(2), h(12), "a CRASH in the body", 5, ms1.ID
	})
	c := newIssue(t, s, pub.ID, ann.ID, "gamma 50% done", func(i *issues.Issue) {
		i.Created, i.Updated, i.IsClosed, i.Closed, i.Deadline = h(3), h(11), true, h(4), h(30)
	})
	d := newIssue(t, s, pub.ID, bob.ID, "delta", func(i *issues.Issue) {
		i.Created, i.Updated, i.IsPull, i.NumComments, i.MilestoneID = h(4), h(15), true, 1, ms2.ID
	})
	e := newIssue(t, s, pub.ID, ann.ID, "epsilon 500", func(i *issues.Issue) {
		i.Created, i.Updated, i.NumComments, i.Deadline = h(5), h(14), 9, h(40)
	})
	f := newIssue(t, s, pub.ID, ann.ID, "zeta", func(i *issues.Issue) { i.Created, i.Updated = h(5), h(10) })
	g := newIssue(t, s, priv.ID, ann.ID, "eta secret", func(i *issues.Issue) { i.Created, i.Updated = h(6), h(16) })
	issueUpdate(t, s, func(tx issues.Tx) error {
		if err := tx.SetIssueLabels(ctx, a.ID, []forge.ID{bug.ID}); err != nil {
			return err
		}
		if err := tx.SetIssueLabels(ctx, bb.ID, []forge.ID{bug.ID, doc.ID}); err != nil {
			return err
		}
		if err := tx.SetIssueLabels(ctx, e.ID, []forge.ID{doc.ID}); err != nil {
			return err
		}
		if err := tx.SetAssignees(ctx, c.ID, []forge.ID{bob.ID}); err != nil {
			return err
		}
		return tx.SetAssignees(ctx, e.ID, []forge.ID{ann.ID, bob.ID})
	})
	_, _ = d, f

	both := []forge.ID{pub.ID, priv.ID}
	yes, no := true, false
	all := forge.ListOptions{Page: 1, Limit: 50}
	checkFilters(t, s, map[string]filterCase[issues.IssueFilter, string]{
		"no repository matches nothing":     {issues.IssueFilter{}, []string{}},
		"an empty repository list":          {issues.IssueFilter{RepoIDs: []forge.ID{}}, []string{}},
		"one repository, newest first":      {issues.IssueFilter{RepoIDs: []forge.ID{pub.ID}}, []string{"zeta", "epsilon 500", "delta", "gamma 50% done", "beta", "alpha crash"}},
		"two repositories":                  {issues.IssueFilter{RepoIDs: both, State: issues.StateOpen}, []string{"eta secret", "zeta", "epsilon 500", "delta", "beta", "alpha crash"}},
		"public repositories":               {issues.IssueFilter{PublicRepos: true, State: issues.StateOpen}, []string{"zeta", "epsilon 500", "delta", "beta", "alpha crash"}},
		"public and listed":                 {issues.IssueFilter{PublicRepos: true, RepoIDs: []forge.ID{priv.ID}, Keyword: "eta"}, []string{"eta secret", "zeta", "beta"}},
		"open":                              {issues.IssueFilter{RepoIDs: both, State: issues.StateOpen, PosterID: ann.ID}, []string{"eta secret", "zeta", "epsilon 500", "alpha crash"}},
		"closed":                            {issues.IssueFilter{RepoIDs: both, State: issues.StateClosed}, []string{"gamma 50% done"}},
		"all states":                        {issues.IssueFilter{RepoIDs: both, State: issues.StateAll, PosterID: ann.ID}, []string{"eta secret", "zeta", "epsilon 500", "gamma 50% done", "alpha crash"}},
		"pulls":                             {issues.IssueFilter{RepoIDs: both, IsPull: &yes}, []string{"delta"}},
		"not pulls":                         {issues.IssueFilter{RepoIDs: []forge.ID{pub.ID}, IsPull: &no, PosterID: bob.ID}, []string{"beta"}},
		"any of the labels":                 {issues.IssueFilter{RepoIDs: both, LabelIDs: []forge.ID{bug.ID, doc.ID}}, []string{"epsilon 500", "beta", "alpha crash"}},
		"one label":                         {issues.IssueFilter{RepoIDs: both, LabelIDs: []forge.ID{doc.ID}}, []string{"epsilon 500", "beta"}},
		"an empty label list":               {issues.IssueFilter{RepoIDs: both, LabelIDs: []forge.ID{}}, []string{}},
		"every label set":                   {issues.IssueFilter{RepoIDs: both, LabelSets: [][]forge.ID{{bug.ID}, {doc.ID}}}, []string{"beta"}},
		"every label set, any of each":      {issues.IssueFilter{RepoIDs: both, LabelSets: [][]forge.ID{{bug.ID, doc.ID}, {doc.ID}}}, []string{"epsilon 500", "beta"}},
		"label sets and ids":                {issues.IssueFilter{RepoIDs: both, LabelIDs: []forge.ID{bug.ID}, LabelSets: [][]forge.ID{{doc.ID}}}, []string{"beta"}},
		"label sets and an assignee":        {issues.IssueFilter{RepoIDs: both, AssigneeID: ann.ID, LabelSets: [][]forge.ID{{doc.ID}}}, []string{"epsilon 500"}},
		"label sets and a keyword":          {issues.IssueFilter{RepoIDs: both, Keyword: "crash", LabelSets: [][]forge.ID{{doc.ID}}}, []string{"beta"}},
		"an empty label set":                {issues.IssueFilter{RepoIDs: both, LabelSets: [][]forge.ID{{bug.ID}, {}}}, []string{}},
		"milestones":                        {issues.IssueFilter{RepoIDs: both, MilestoneIDs: []forge.ID{ms1.ID, ms2.ID}}, []string{"delta", "beta"}},
		"an empty milestone list":           {issues.IssueFilter{RepoIDs: both, MilestoneIDs: []forge.ID{}}, []string{}},
		"poster":                            {issues.IssueFilter{RepoIDs: both, PosterID: bob.ID}, []string{"delta", "beta"}},
		"label names":                       {issues.IssueFilter{RepoIDs: both, LabelNames: []string{"doc", "nope"}}, []string{"epsilon 500", "beta"}},
		"label names, exactly":              {issues.IssueFilter{RepoIDs: both, LabelNames: []string{"BUG", "do"}}, []string{}},
		"an empty label name list":          {issues.IssueFilter{RepoIDs: both, LabelNames: []string{}}, []string{}},
		"milestone names":                   {issues.IssueFilter{RepoIDs: both, MilestoneNames: []string{"m2", "nope"}}, []string{"delta"}},
		"an empty milestone name list":      {issues.IssueFilter{RepoIDs: both, MilestoneNames: []string{}}, []string{}},
		"names and ids together":            {issues.IssueFilter{RepoIDs: both, LabelNames: []string{"bug"}, LabelIDs: []forge.ID{doc.ID}}, []string{"beta"}},
		"assignee":                          {issues.IssueFilter{RepoIDs: both, AssigneeID: bob.ID}, []string{"epsilon 500", "gamma 50% done"}},
		"keyword in title or body":          {issues.IssueFilter{RepoIDs: both, Keyword: "Crash"}, []string{"beta", "alpha crash"}},
		"a keyword's % is a character":      {issues.IssueFilter{RepoIDs: both, Keyword: "50%"}, []string{"gamma 50% done"}},
		"a keyword's _ is a character":      {issues.IssueFilter{RepoIDs: both, Keyword: "e_a"}, []string{}},
		"updated since, inclusive":          {issues.IssueFilter{RepoIDs: both, UpdatedSince: h(14)}, []string{"eta secret", "epsilon 500", "delta"}},
		"updated before, inclusive":         {issues.IssueFilter{RepoIDs: both, UpdatedBefore: h(11)}, []string{"zeta", "gamma 50% done"}},
		"updated between":                   {issues.IssueFilter{RepoIDs: both, UpdatedSince: h(12), UpdatedBefore: h(13)}, []string{"beta", "alpha crash"}},
		"oldest":                            {issues.IssueFilter{RepoIDs: []forge.ID{pub.ID}, Sort: issues.IssueSortOldest}, []string{"alpha crash", "beta", "gamma 50% done", "delta", "epsilon 500", "zeta"}},
		"recently updated":                  {issues.IssueFilter{RepoIDs: both, Sort: issues.IssueSortRecentUpdate}, []string{"eta secret", "delta", "epsilon 500", "alpha crash", "beta", "gamma 50% done", "zeta"}},
		"least updated":                     {issues.IssueFilter{RepoIDs: both, Sort: issues.IssueSortLeastUpdate}, []string{"zeta", "gamma 50% done", "beta", "alpha crash", "epsilon 500", "delta", "eta secret"}},
		"most comments, then newest":        {issues.IssueFilter{RepoIDs: []forge.ID{pub.ID}, Sort: issues.IssueSortMostComment}, []string{"epsilon 500", "beta", "alpha crash", "delta", "zeta", "gamma 50% done"}},
		"least comments, then newest":       {issues.IssueFilter{RepoIDs: []forge.ID{pub.ID}, Sort: issues.IssueSortLeastComment}, []string{"zeta", "gamma 50% done", "delta", "alpha crash", "beta", "epsilon 500"}},
		"nearest due date first, none last": {issues.IssueFilter{RepoIDs: []forge.ID{pub.ID}, PosterID: ann.ID, Sort: issues.IssueSortNearDueDate}, []string{"gamma 50% done", "epsilon 500", "alpha crash", "zeta"}},
		// Forgejo's farduedate sorts the due date descending with 0 for none:
		// issues without one come last.
		"farthest due date first, none last": {issues.IssueFilter{RepoIDs: []forge.ID{pub.ID}, PosterID: ann.ID, Sort: issues.IssueSortFarDueDate}, []string{"alpha crash", "epsilon 500", "gamma 50% done", "zeta"}},
		"an unknown order is latest":         {issues.IssueFilter{RepoIDs: []forge.ID{pub.ID}, PosterID: bob.ID, Sort: "sideways"}, []string{"delta", "beta"}},
	}, issueTitles, func(ctx context.Context, tx issues.Tx, f issues.IssueFilter) ([]*issues.Issue, int64, error) {
		return tx.ListIssues(ctx, f, all)
	})
	_ = g

	intl := newRepo(t, b, ann, "intl")
	newIssue(t, s, intl.ID, ann.ID, "Größe ÜBER alles", func(i *issues.Issue) { i.Body = `say "hi"` })
	newIssue(t, s, intl.ID, ann.ID, "plain ascii")
	for keyword, want := range map[string][]string{
		"über":      {"Größe ÜBER alles"},
		"GRÖSSE":    {},
		`"hi"`:      {"Größe ÜBER alles"},
		"ET":        {},
		"ai":        {"plain ascii"},
		"ascii pla": {},
	} {
		issueView(t, s, func(tx issues.Tx) error {
			list, total, err := tx.ListIssues(ctx, issues.IssueFilter{RepoIDs: []forge.ID{intl.ID}, Keyword: keyword}, all)
			require.NoError(t, err)
			assert.Equal(t, want, issueTitles(list), "keyword %q", keyword)
			assert.EqualValues(t, len(want), total, "keyword %q", keyword)
			return nil
		})
	}
	issueView(t, s, func(tx issues.Tx) error {
		list, _, err := tx.ListIssues(ctx, issues.IssueFilter{RepoIDs: both, Keyword: "ET"}, all)
		require.NoError(t, err)
		assert.Equal(t, []string{"eta secret", "zeta", "beta"}, issueTitles(list), "a short keyword ignores ASCII case")
		return nil
	})

	issueView(t, s, func(tx issues.Tx) error {
		f := issues.IssueFilter{RepoIDs: both}
		list, total, err := tx.ListIssues(ctx, f, forge.ListOptions{Page: 2, Limit: 3})
		require.NoError(t, err)
		assert.EqualValues(t, 7, total, "the total counts every page")
		assert.Equal(t, []string{"delta", "gamma 50% done", "beta"}, issueTitles(list))
		list, total, err = tx.ListIssues(ctx, f, forge.ListOptions{Page: 9, Limit: 3})
		require.NoError(t, err)
		assert.EqualValues(t, 7, total)
		assert.NotNil(t, list)
		assert.Empty(t, list, "a page past the end is empty")
		list, _, err = tx.ListIssues(ctx, f, forge.ListOptions{Page: 1, Limit: -1})
		require.NoError(t, err)
		assert.Len(t, list, 7, "a negative limit lists everything")
		return nil
	})
}

// testIssueMentions: AddMentions records (issue, user) once, the
// MentionedID filter lists and counts by it (with other filters and
// paging), missing issues and users are not found and change nothing, and
// mentions go with their issue and their user.
func testIssueMentions(t *testing.T, b Backend) {
	ctx := context.Background()
	s := b.Issues()
	ann, r := newUserRepo(t, b, "mann", "mentions")
	bob := newUser(t, b, "mbob")
	cat := newUser(t, b, "mcat")
	one := newIssue(t, s, r.ID, ann.ID, "one")
	two := newIssue(t, s, r.ID, ann.ID, "two")
	three := newIssue(t, s, r.ID, bob.ID, "three")

	issueUpdate(t, s, func(tx issues.Tx) error {
		if err := tx.AddMentions(ctx, one.ID, []forge.ID{bob.ID, cat.ID}); err != nil {
			return err
		}
		if err := tx.AddMentions(ctx, one.ID, []forge.ID{bob.ID}); err != nil { // again: no change
			return err
		}
		if err := tx.AddMentions(ctx, one.ID, nil); err != nil {
			return err
		}
		return tx.AddMentions(ctx, three.ID, []forge.ID{bob.ID})
	})
	list := func(f issues.IssueFilter, o forge.ListOptions) ([]string, int64) {
		t.Helper()
		return listIssueTitles(t, s, f, o)
	}
	all := forge.ListOptions{Page: 1, Limit: 50}
	in := []forge.ID{r.ID}
	got, n := list(issues.IssueFilter{RepoIDs: in, MentionedID: bob.ID, Sort: issues.IssueSortOldest}, all)
	assert.Equal(t, []string{"one", "three"}, got)
	assert.EqualValues(t, 2, n)
	got, n = list(issues.IssueFilter{RepoIDs: in, MentionedID: bob.ID, Sort: issues.IssueSortOldest}, forge.ListOptions{Page: 2, Limit: 1})
	assert.Equal(t, []string{"three"}, got, "paged")
	assert.EqualValues(t, 2, n, "the count is of every match")
	got, _ = list(issues.IssueFilter{RepoIDs: in, MentionedID: bob.ID, PosterID: ann.ID}, all)
	assert.Equal(t, []string{"one"}, got, "with another filter")
	got, n = list(issues.IssueFilter{RepoIDs: in, MentionedID: ann.ID}, all)
	assert.Empty(t, got, "nobody mentioned ann")
	assert.Zero(t, n)
	got, _ = list(issues.IssueFilter{MentionedID: bob.ID}, all)
	assert.Empty(t, got, "no repository: nothing")

	// Missing issues and users are not found, and the transaction's
	// failed write records nothing.
	err := s.Update(ctx, func(tx issues.Tx) error { return tx.AddMentions(ctx, 1<<40, []forge.ID{bob.ID}) })
	assert.ErrorIs(t, err, forge.ErrNotFound)
	err = s.Update(ctx, func(tx issues.Tx) error { return tx.AddMentions(ctx, two.ID, []forge.ID{ann.ID, 1 << 40}) })
	assert.ErrorIs(t, err, forge.ErrNotFound)
	got, _ = list(issues.IssueFilter{RepoIDs: in, MentionedID: ann.ID}, all)
	assert.Empty(t, got, "a refused write records nothing")

	// Mentions go with their issue and with their user.
	issueUpdate(t, s, func(tx issues.Tx) error { return tx.DeleteIssue(ctx, three.ID) })
	got, _ = list(issues.IssueFilter{RepoIDs: in, MentionedID: bob.ID}, all)
	assert.Equal(t, []string{"one"}, got, "a deleted issue's mentions go")
	update(t, b.Auth(), func(tx auth.Tx) error { return tx.DeleteUser(ctx, cat.ID) })
	got, _ = list(issues.IssueFilter{RepoIDs: in, MentionedID: cat.ID}, all)
	assert.Empty(t, got, "a deleted user's mentions go")
}
