package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/issues"
)

func labelIDs(list []*issues.Label) []forge.ID {
	return pluck(list, func(l *issues.Label) forge.ID { return l.ID })
}

func labelNames(list []*issues.Label) []string {
	return pluck(list, func(l *issues.Label) string { return l.Name })
}

func testIssueLabels(t *testing.T, b Backend) {
	ctx := context.Background()
	s := b.Issues()
	ann := newUser(t, b, "lbann")
	org := newUser(t, b, "lborg", func(u *forge.User) { u.Type = forge.UserTypeOrganization })
	r, other := newRepo(t, b, org, "labelled"), newRepo(t, b, ann, "plain")

	archived := &issues.Label{RepoID: r.ID, Name: "scope/old", Color: "#aabbcc", Description: "gone",
		Exclusive: true, Archived: issueAt}
	mk := func(l *issues.Label) *issues.Label {
		issueUpdate(t, s, func(tx issues.Tx) error { return tx.CreateLabel(ctx, l) })
		require.NotZero(t, l.ID)
		return l
	}
	mk(archived)
	issueView(t, s, func(tx issues.Tx) error {
		got, err := tx.LabelByID(ctx, archived.ID)
		wantRoundTrip(t, "label", archived, got, err)
		assert.True(t, got.IsArchived(), "the time of archiving round trips")
		_, err = tx.LabelByID(ctx, 9999)
		assert.ErrorIs(t, err, forge.ErrNotFound)
		return nil
	})
	for name, tc := range map[string]struct {
		l    *issues.Label
		kind error
	}{
		"an unknown repository":   {&issues.Label{RepoID: 9999, Name: "x", Color: "#000000"}, forge.ErrNotFound},
		"an unknown organisation": {&issues.Label{OrgID: 9999, Name: "x", Color: "#000000"}, forge.ErrNotFound},
		"no owner":                {&issues.Label{Name: "x", Color: "#000000"}, forge.ErrInvalid},
		"two owners":              {&issues.Label{RepoID: r.ID, OrgID: org.ID, Name: "x", Color: "#000000"}, forge.ErrInvalid},
	} {
		err := s.Update(ctx, func(tx issues.Tx) error { return tx.CreateLabel(ctx, tc.l) })
		assert.ErrorIs(t, err, tc.kind, name)
	}

	// UpdateLabel writes every field but RepoID and OrgID; un-archiving
	// clears the time.
	changed := issues.Label{ID: archived.ID, RepoID: other.ID, Name: "scope/new", Color: "#001122", Description: "back"}
	issueUpdate(t, s, func(tx issues.Tx) error { l := changed; return tx.UpdateLabel(ctx, &l) })
	issueView(t, s, func(tx issues.Tx) error {
		got, err := tx.LabelByID(ctx, archived.ID)
		require.NoError(t, err)
		want := changed
		want.RepoID = r.ID
		assert.Empty(t, cmp.Diff(&want, got), "UpdateLabel keeps the owner")
		assert.False(t, got.IsArchived())
		return nil
	})
	err := s.Update(ctx, func(tx issues.Tx) error { l := changed; l.ID = 9999; return tx.UpdateLabel(ctx, &l) })
	assert.ErrorIs(t, err, forge.ErrNotFound)

	bug := mk(&issues.Label{RepoID: r.ID, Name: "bug", Color: "#ff0000"})
	bug2 := mk(&issues.Label{RepoID: r.ID, Name: "bug", Color: "#ff0001"}) // names need not be unique
	zed := mk(&issues.Label{RepoID: r.ID, Name: "zed", Color: "#ffffff"})
	orgL := mk(&issues.Label{OrgID: org.ID, Name: "org-wide", Color: "#123456"})
	foreign := mk(&issues.Label{RepoID: other.ID, Name: "bug", Color: "#ff0000"})

	i1 := newIssue(t, s, r.ID, ann.ID, "one")
	i2 := newIssue(t, s, r.ID, ann.ID, "two", func(i *issues.Issue) { i.IsClosed, i.Closed = true, issueAt })
	i3 := newIssue(t, s, r.ID, ann.ID, "three")
	issueUpdate(t, s, func(tx issues.Tx) error {
		if err := tx.SetIssueLabels(ctx, i1.ID, []forge.ID{zed.ID, bug.ID, orgL.ID, bug.ID}); err != nil {
			return err
		}
		return tx.SetIssueLabels(ctx, i2.ID, []forge.ID{bug.ID, bug2.ID})
	})
	counts := func(name string, l *issues.Label, open, closed int) {
		t.Helper()
		issueView(t, s, func(tx issues.Tx) error {
			got, err := tx.LabelByID(ctx, l.ID)
			require.NoError(t, err)
			assert.Equal(t, open+closed, got.NumIssues, "%s: %s NumIssues", name, l.Name)
			assert.Equal(t, closed, got.NumClosedIssues, "%s: %s NumClosedIssues", name, l.Name)
			return nil
		})
	}
	counts("set", bug, 1, 1)
	counts("set", bug2, 0, 1)
	counts("set", zed, 1, 0)
	counts("set", orgL, 1, 0)

	issueView(t, s, func(tx issues.Tx) error {
		m, err := tx.IssueLabels(ctx, []forge.ID{i1.ID, i2.ID, i3.ID})
		require.NoError(t, err)
		assert.Equal(t, []string{"bug", "org-wide", "zed"}, labelNames(m[i1.ID]), "by name; a label given twice is on once")
		require.Len(t, m[i2.ID], 2)
		assert.Equal(t, []forge.ID{bug.ID, bug2.ID}, []forge.ID{m[i2.ID][0].ID, m[i2.ID][1].ID}, "then by id")
		assert.NotContains(t, m, i3.ID, "issues without labels are absent")
		assert.Equal(t, 2, m[i1.ID][0].NumIssues, "the labels come with their counters")
		m, err = tx.IssueLabels(ctx, nil)
		require.NoError(t, err)
		assert.NotNil(t, m)
		return nil
	})

	// Closing, reopening and deleting issues keep the counters.
	issueUpdate(t, s, func(tx issues.Tx) error {
		i, err := tx.IssueByID(ctx, i1.ID)
		if err != nil {
			return err
		}
		i.IsClosed, i.Closed = true, issueAt.Add(time.Hour)
		return tx.UpdateIssue(ctx, i)
	})
	counts("closed", bug, 0, 2)
	counts("closed", zed, 0, 1)
	issueUpdate(t, s, func(tx issues.Tx) error { return tx.DeleteIssue(ctx, i2.ID) })
	counts("deleted", bug, 0, 1)
	counts("deleted", bug2, 0, 0)

	// A replace drops what it does not name; a failed one changes nothing.
	issueUpdate(t, s, func(tx issues.Tx) error { return tx.SetIssueLabels(ctx, i1.ID, []forge.ID{bug2.ID}) })
	for name, ids := range map[string][]forge.ID{"an unknown label": {bug.ID, 9999}} {
		err := s.Update(ctx, func(tx issues.Tx) error { return tx.SetIssueLabels(ctx, i1.ID, ids) })
		assert.ErrorIs(t, err, forge.ErrNotFound, name)
	}
	err = s.Update(ctx, func(tx issues.Tx) error { return tx.SetIssueLabels(ctx, 9999, nil) })
	assert.ErrorIs(t, err, forge.ErrNotFound, "an unknown issue")
	issueView(t, s, func(tx issues.Tx) error {
		m, err := tx.IssueLabels(ctx, []forge.ID{i1.ID})
		require.NoError(t, err)
		assert.Equal(t, []string{"bug"}, labelNames(m[i1.ID]))
		assert.Equal(t, bug2.ID, m[i1.ID][0].ID)
		return nil
	})
	counts("replaced", bug, 0, 0)
	counts("replaced", bug2, 0, 1)
	issueUpdate(t, s, func(tx issues.Tx) error { return tx.SetIssueLabels(ctx, i3.ID, []forge.ID{bug2.ID, zed.ID}) })

	all := forge.ListOptions{Page: 1, Limit: 50}
	checkFilters(t, s, map[string]filterCase[issues.LabelFilter, forge.ID]{
		"no owner":             {issues.LabelFilter{}, []forge.ID{}},
		"a repository's":       {issues.LabelFilter{RepoID: r.ID}, []forge.ID{bug.ID, bug2.ID, archived.ID, zed.ID}},
		"an organisation's":    {issues.LabelFilter{OrgID: org.ID}, []forge.ID{orgL.ID}},
		"both":                 {issues.LabelFilter{RepoID: r.ID, OrgID: org.ID}, []forge.ID{bug.ID, bug2.ID, orgL.ID, archived.ID, zed.ID}},
		"by ids":               {issues.LabelFilter{RepoID: r.ID, IDs: []forge.ID{zed.ID, foreign.ID, orgL.ID}}, []forge.ID{zed.ID}},
		"no ids":               {issues.LabelFilter{RepoID: r.ID, IDs: []forge.ID{}}, []forge.ID{}},
		"by names, exactly":    {issues.LabelFilter{RepoID: r.ID, OrgID: org.ID, Names: []string{"bug", "org-wide", "ZED"}}, []forge.ID{bug.ID, bug2.ID, orgL.ID}},
		"no names":             {issues.LabelFilter{RepoID: r.ID, Names: []string{}}, []forge.ID{}},
		"reverse alphabetical": {issues.LabelFilter{RepoID: r.ID, Sort: issues.LabelSortReverseAlpha}, []forge.ID{zed.ID, archived.ID, bug.ID, bug2.ID}},
		"most issues":          {issues.LabelFilter{RepoID: r.ID, Sort: issues.LabelSortMostIssues}, []forge.ID{bug2.ID, zed.ID, archived.ID, bug.ID}},
		"least issues":         {issues.LabelFilter{RepoID: r.ID, Sort: issues.LabelSortLeastIssues}, []forge.ID{archived.ID, bug.ID, zed.ID, bug2.ID}},
	}, labelIDs, func(ctx context.Context, tx issues.Tx, f issues.LabelFilter) ([]*issues.Label, int64, error) {
		return tx.ListLabels(ctx, f, all)
	})
	issueView(t, s, func(tx issues.Tx) error {
		list, total, err := tx.ListLabels(ctx, issues.LabelFilter{RepoID: r.ID}, forge.ListOptions{Page: 2, Limit: 3})
		require.NoError(t, err)
		assert.EqualValues(t, 4, total)
		assert.Equal(t, []string{"zed"}, labelNames(list))
		list, _, err = tx.ListLabels(ctx, issues.LabelFilter{RepoID: r.ID}, forge.ListOptions{Page: 1, Limit: -1})
		require.NoError(t, err)
		assert.Len(t, list, 4, "a negative limit lists everything")
		return nil
	})

	// Deleting a label takes it off every issue.
	wantDeleteOnce(t, s, func(ctx context.Context, tx issues.Tx) error { return tx.DeleteLabel(ctx, bug2.ID) })
	issueView(t, s, func(tx issues.Tx) error {
		m, err := tx.IssueLabels(ctx, []forge.ID{i1.ID, i3.ID})
		require.NoError(t, err)
		assert.Equal(t, map[forge.ID][]string{i3.ID: {"zed"}}, map[forge.ID][]string{i3.ID: labelNames(m[i3.ID])})
		assert.NotContains(t, m, i1.ID)
		list, _, err := tx.ListIssues(ctx, issues.IssueFilter{RepoIDs: []forge.ID{r.ID}, LabelIDs: []forge.ID{bug2.ID}}, all)
		require.NoError(t, err)
		assert.Empty(t, list)
		return nil
	})
}
