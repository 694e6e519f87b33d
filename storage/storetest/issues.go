package storetest

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/issues"
)

// issueAt is the suite's base time for issues: whole seconds, UTC, as every
// backend keeps times.
var issueAt = time.Date(2024, 3, 4, 5, 6, 7, 0, time.UTC)

func testIssues(t *testing.T, b Backend) {
	ctx := context.Background()
	s := b.Issues()
	ann, r := newUserRepo(t, b, "iann", "tracker")
	bob := newUser(t, b, "ibob")
	ms := &issues.Milestone{RepoID: r.ID, Title: "v1", Deadline: issues.NoDeadline, Created: issueAt, Updated: issueAt}
	issueUpdate(t, s, func(tx issues.Tx) error { return tx.CreateMilestone(ctx, ms) })

	in := &issues.Issue{RepoID: r.ID, Index: 1, PosterID: ann.ID, OriginalAuthor: "gh-ann", OriginalAuthorID: 77,
		Title: "Crash on start", Body: "it *crashes*", Ref: "refs/heads/main", IsPull: true, IsClosed: true,
		IsLocked: true, MilestoneID: ms.ID, NumComments: 3, Deadline: issueAt.Add(72 * time.Hour), PinOrder: 2,
		ContentVersion: 4, Created: issueAt, Updated: issueAt.Add(time.Hour), Closed: issueAt.Add(2 * time.Hour)}
	issueUpdate(t, s, func(tx issues.Tx) error { return tx.CreateIssue(ctx, in) })
	require.NotZero(t, in.ID)
	want := *in

	issueView(t, s, func(tx issues.Tx) error {
		for name, get := range map[string]func() (*issues.Issue, error){
			"by index": func() (*issues.Issue, error) { return tx.IssueByIndex(ctx, r.ID, 1) },
			"by id":    func() (*issues.Issue, error) { return tx.IssueByID(ctx, in.ID) },
		} {
			got, err := get()
			require.NoError(t, err, name)
			if diff := cmp.Diff(&want, got); diff != "" {
				t.Errorf("issue round trip %s (-want +got):\n%s", name, diff)
			}
			assert.Equal(t, time.UTC, got.Created.Location(), "times come back in UTC")
		}
		m, err := tx.IssuesByID(ctx, []forge.ID{in.ID, 9999})
		require.NoError(t, err)
		assert.Equal(t, map[forge.ID]*issues.Issue{in.ID: &want}, m, "missing ids are absent")
		m, err = tx.IssuesByID(ctx, nil)
		require.NoError(t, err)
		assert.NotNil(t, m)
		assert.Empty(t, m)

		_, err = tx.IssueByIndex(ctx, r.ID, 2)
		assert.ErrorIs(t, err, forge.ErrNotFound)
		_, err = tx.IssueByIndex(ctx, 9999, 1)
		assert.ErrorIs(t, err, forge.ErrNotFound)
		_, err = tx.IssueByID(ctx, 9999)
		assert.ErrorIs(t, err, forge.ErrNotFound)

		// The accounts the converters need come through the same transaction.
		checkUserReads(t, tx, ann, bob)
		users, err := tx.UsersByID(ctx, []forge.ID{ann.ID, bob.ID, 9999})
		require.NoError(t, err)
		assert.Len(t, users, 2)
		assert.Equal(t, "iann", users[ann.ID].Name)
		return nil
	})

	for name, i := range map[string]*issues.Issue{
		"an index taken in the repository": {RepoID: r.ID, Index: 1, PosterID: bob.ID, Title: "dup", Created: issueAt, Updated: issueAt},
	} {
		err := s.Update(ctx, func(tx issues.Tx) error { return tx.CreateIssue(ctx, i) })
		assert.ErrorIs(t, err, forge.ErrConflict, name)
	}
	for name, i := range map[string]*issues.Issue{
		"an unknown repository": {RepoID: 9999, Index: 1, PosterID: bob.ID, Title: "x", Created: issueAt, Updated: issueAt},
		"an unknown milestone":  {RepoID: r.ID, Index: 5, PosterID: bob.ID, Title: "x", MilestoneID: 9999, Created: issueAt, Updated: issueAt},
	} {
		err := s.Update(ctx, func(tx issues.Tx) error { return tx.CreateIssue(ctx, i) })
		assert.ErrorIs(t, err, forge.ErrNotFound, name)
	}

	// UpdateIssue writes every field but RepoID, Index and Created.
	other := newRepo(t, b, ann, "elsewhere")
	changed := issues.Issue{ID: in.ID, RepoID: other.ID, Index: 42, PosterID: bob.ID, Title: "Crash on exit",
		Body: "edited", Ref: "v1.0", MilestoneID: 0, NumComments: 5, PinOrder: 0, ContentVersion: 5,
		Created: issueAt.Add(-time.Hour), Updated: issueAt.Add(3 * time.Hour)}
	issueUpdate(t, s, func(tx issues.Tx) error { c := changed; return tx.UpdateIssue(ctx, &c) })
	want = changed
	want.RepoID, want.Index, want.Created = r.ID, 1, issueAt
	issueView(t, s, func(tx issues.Tx) error {
		got, err := tx.IssueByID(ctx, in.ID)
		require.NoError(t, err)
		assert.Empty(t, cmp.Diff(&want, got), "UpdateIssue keeps RepoID, Index and Created")
		_, err = tx.IssueByIndex(ctx, other.ID, 42)
		assert.ErrorIs(t, err, forge.ErrNotFound)
		for keyword, want := range map[string][]string{"exit": {"Crash on exit"}, "start": {}, "crashes": {}, "EDIT": {"Crash on exit"}} {
			list, _, err := tx.ListIssues(ctx, issues.IssueFilter{RepoIDs: []forge.ID{r.ID}, Keyword: keyword}, forge.ListOptions{Page: 1, Limit: 10})
			require.NoError(t, err)
			assert.Equal(t, want, issueTitles(list), "the keyword search sees the new title and body, not the old: %q", keyword)
		}
		return nil
	})
	err := s.Update(ctx, func(tx issues.Tx) error { c := changed; c.ID = 9999; return tx.UpdateIssue(ctx, &c) })
	assert.ErrorIs(t, err, forge.ErrNotFound)
	err = s.Update(ctx, func(tx issues.Tx) error { c := changed; c.MilestoneID = 9999; return tx.UpdateIssue(ctx, &c) })
	assert.ErrorIs(t, err, forge.ErrNotFound, "an unknown milestone")

	testAssignees(t, b, in, ann, bob)
	testIssueCounts(t, b, ann)

	wantDeleteOnce(t, s, func(ctx context.Context, tx issues.Tx) error { return tx.DeleteIssue(ctx, in.ID) })
	issueView(t, s, func(tx issues.Tx) error {
		_, err := tx.IssueByIndex(ctx, r.ID, 1)
		assert.ErrorIs(t, err, forge.ErrNotFound)
		list, _, err := tx.ListIssues(ctx, issues.IssueFilter{RepoIDs: []forge.ID{r.ID}, Keyword: "exit"}, forge.ListOptions{Page: 1, Limit: 10})
		require.NoError(t, err)
		assert.Empty(t, list, "a deleted issue is not found by keyword")
		return nil
	})
}

func testAssignees(t *testing.T, b Backend, i *issues.Issue, ann, bob *forge.User) {
	ctx := context.Background()
	s := b.Issues()
	cid := newUser(t, b, "icid")
	second := newIssue(t, s, i.RepoID, ann.ID, "second")
	issueUpdate(t, s, func(tx issues.Tx) error {
		if err := tx.SetAssignees(ctx, i.ID, []forge.ID{cid.ID, ann.ID, bob.ID}); err != nil {
			return err
		}
		return tx.SetAssignees(ctx, second.ID, []forge.ID{bob.ID})
	})
	issueView(t, s, func(tx issues.Tx) error {
		m, err := tx.Assignees(ctx, []forge.ID{i.ID, second.ID, 9999})
		require.NoError(t, err)
		assert.Equal(t, map[forge.ID][]forge.ID{i.ID: {cid.ID, ann.ID, bob.ID}, second.ID: {bob.ID}}, m,
			"in the order they were set; issues without any are absent")
		return nil
	})
	issueUpdate(t, s, func(tx issues.Tx) error { return tx.SetAssignees(ctx, i.ID, []forge.ID{bob.ID, cid.ID}) })
	issueUpdate(t, s, func(tx issues.Tx) error { return tx.SetAssignees(ctx, second.ID, nil) })
	issueView(t, s, func(tx issues.Tx) error {
		m, err := tx.Assignees(ctx, []forge.ID{i.ID, second.ID})
		require.NoError(t, err)
		assert.Equal(t, map[forge.ID][]forge.ID{i.ID: {bob.ID, cid.ID}}, m, "a set replaces; none clears")
		m, err = tx.Assignees(ctx, nil)
		require.NoError(t, err)
		assert.NotNil(t, m)
		return nil
	})
	err := s.Update(ctx, func(tx issues.Tx) error { return tx.SetAssignees(ctx, i.ID, []forge.ID{ann.ID, 9999}) })
	assert.ErrorIs(t, err, forge.ErrNotFound, "an unknown user")
	err = s.Update(ctx, func(tx issues.Tx) error { return tx.SetAssignees(ctx, 9999, nil) })
	assert.ErrorIs(t, err, forge.ErrNotFound, "an unknown issue")
	issueView(t, s, func(tx issues.Tx) error {
		m, err := tx.Assignees(ctx, []forge.ID{i.ID})
		require.NoError(t, err)
		assert.Equal(t, []forge.ID{bob.ID, cid.ID}, m[i.ID], "a failed set changes nothing")
		return nil
	})
}

func testIssueCounts(t *testing.T, b Backend, owner *forge.User) {
	ctx := context.Background()
	s := b.Issues()
	r1, r2, r3 := newRepo(t, b, owner, "counted1"), newRepo(t, b, owner, "counted2"), newRepo(t, b, owner, "counted3")
	closed := func(i *issues.Issue) { i.IsClosed = true }
	pull := func(i *issues.Issue) { i.IsPull = true }
	newIssue(t, s, r1.ID, owner.ID, "a")
	newIssue(t, s, r1.ID, owner.ID, "b")
	newIssue(t, s, r1.ID, owner.ID, "c", closed)
	newIssue(t, s, r1.ID, owner.ID, "p", pull)
	newIssue(t, s, r2.ID, owner.ID, "d", closed)
	newIssue(t, s, r3.ID, owner.ID, "q", pull, closed)
	issueView(t, s, func(tx issues.Tx) error {
		m, err := tx.IssueCounts(ctx, []forge.ID{r1.ID, r2.ID, r3.ID, 9999}, false)
		require.NoError(t, err)
		assert.Equal(t, map[forge.ID]issues.IssueCount{r1.ID: {Open: 2, Closed: 1}, r2.ID: {Open: 0, Closed: 1}}, m)
		m, err = tx.IssueCounts(ctx, []forge.ID{r1.ID, r2.ID, r3.ID}, true)
		require.NoError(t, err)
		assert.Equal(t, map[forge.ID]issues.IssueCount{r1.ID: {Open: 1}, r3.ID: {Closed: 1}}, m)
		m, err = tx.IssueCounts(ctx, nil, false)
		require.NoError(t, err)
		assert.NotNil(t, m)
		assert.Empty(t, m)
		// One repository (a repository view): both kinds, and again.
		for range 2 {
			m, err = tx.IssueCounts(ctx, []forge.ID{r1.ID}, false)
			require.NoError(t, err)
			assert.Equal(t, map[forge.ID]issues.IssueCount{r1.ID: {Open: 2, Closed: 1}}, m)
			m, err = tx.IssueCounts(ctx, []forge.ID{r1.ID}, true)
			require.NoError(t, err)
			assert.Equal(t, map[forge.ID]issues.IssueCount{r1.ID: {Open: 1}}, m)
		}
		m, err = tx.IssueCounts(ctx, []forge.ID{r2.ID}, true)
		require.NoError(t, err)
		assert.Empty(t, m, "one repository without pull requests is absent")
		m, err = tx.IssueCounts(ctx, []forge.ID{9999}, false)
		require.NoError(t, err)
		assert.Empty(t, m)
		return nil
	})
	// In a write transaction, the counts of one repository follow the
	// transaction's own writes.
	issueUpdate(t, s, func(tx issues.Tx) error {
		m, err := tx.IssueCounts(ctx, []forge.ID{r3.ID}, false)
		require.NoError(t, err)
		assert.Empty(t, m)
		n, err := tx.NextIssueIndex(ctx, r3.ID)
		require.NoError(t, err)
		i := &issues.Issue{RepoID: r3.ID, PosterID: owner.ID, Title: "e", Index: n, Created: issueAt, Updated: issueAt}
		require.NoError(t, tx.CreateIssue(ctx, i))
		m, err = tx.IssueCounts(ctx, []forge.ID{r3.ID}, false)
		require.NoError(t, err)
		assert.Equal(t, map[forge.ID]issues.IssueCount{r3.ID: {Open: 1}}, m)
		return tx.DeleteIssue(ctx, i.ID)
	})

	// The counts and list totals follow closing, reopening, a change of
	// kind and deletions.
	issueUpdate(t, s, func(tx issues.Tx) error {
		list, _, err := tx.ListIssues(ctx, issues.IssueFilter{RepoIDs: []forge.ID{r1.ID, r2.ID}}, forge.ListOptions{Page: 1, Limit: -1})
		if err != nil {
			return err
		}
		for _, i := range list {
			switch i.Title {
			case "a":
				i.IsClosed = true
			case "c":
				i.IsClosed = false
			case "b":
				i.IsPull = true
			case "d":
				if err := tx.DeleteIssue(ctx, i.ID); err != nil {
					return err
				}
				continue
			}
			if err := tx.UpdateIssue(ctx, i); err != nil {
				return err
			}
		}
		return nil
	})
	issueView(t, s, func(tx issues.Tx) error {
		m, err := tx.IssueCounts(ctx, []forge.ID{r1.ID, r2.ID, r3.ID}, false)
		require.NoError(t, err)
		assert.Equal(t, map[forge.ID]issues.IssueCount{r1.ID: {Open: 1, Closed: 1}}, m, "a repository with none is absent")
		m, err = tx.IssueCounts(ctx, []forge.ID{r1.ID, r2.ID, r3.ID}, true)
		require.NoError(t, err)
		assert.Equal(t, map[forge.ID]issues.IssueCount{r1.ID: {Open: 2}, r3.ID: {Closed: 1}}, m)
		yes := true
		for _, tc := range []struct {
			f    issues.IssueFilter
			want int64
		}{
			{issues.IssueFilter{RepoIDs: []forge.ID{r1.ID, r2.ID, r3.ID}}, 5},
			{issues.IssueFilter{RepoIDs: []forge.ID{r1.ID, r2.ID}, State: issues.StateOpen}, 3},
			{issues.IssueFilter{RepoIDs: []forge.ID{r1.ID, r2.ID, r3.ID}, State: issues.StateClosed}, 2},
			{issues.IssueFilter{RepoIDs: []forge.ID{r1.ID, r2.ID, r3.ID}, IsPull: &yes}, 3},
			{issues.IssueFilter{RepoIDs: []forge.ID{r2.ID}}, 0},
		} {
			list, total, err := tx.ListIssues(ctx, tc.f, forge.ListOptions{Page: 1, Limit: 50})
			require.NoError(t, err)
			assert.Equal(t, tc.want, total, "%+v", tc.f)
			assert.Len(t, list, int(tc.want), "%+v", tc.f)
		}
		return nil
	})
}

// testIssueIndexes: indexes are per repository, never handed out twice
// (not after a deletion, not to parallel writers), and a rolled-back
// reservation is not kept.
func testIssueIndexes(t *testing.T, b Backend) {
	ctx := context.Background()
	s := b.Issues()
	owner, r, other := newUserRepos(t, b, "idx", "numbers", "others")
	for want := int64(1); want <= 3; want++ {
		assert.Equal(t, want, newIssue(t, s, r.ID, owner.ID, "i").Index)
	}
	assert.EqualValues(t, 1, newIssue(t, s, other.ID, owner.ID, "o").Index, "each repository counts on its own")

	last := newIssue(t, s, r.ID, owner.ID, "last")
	require.EqualValues(t, 4, last.Index)
	issueUpdate(t, s, func(tx issues.Tx) error { return tx.DeleteIssue(ctx, last.ID) })
	assert.EqualValues(t, 5, newIssue(t, s, r.ID, owner.ID, "after").Index, "a deleted issue's index is not reused")

	boom := errors.New("boom")
	err := s.Update(ctx, func(tx issues.Tx) error {
		n, err := tx.NextIssueIndex(ctx, r.ID)
		require.NoError(t, err)
		assert.EqualValues(t, 6, n)
		return boom
	})
	require.ErrorIs(t, err, boom)
	assert.EqualValues(t, 6, newIssue(t, s, r.ID, owner.ID, "again").Index, "a rolled-back reservation is not kept")

	// An issue created with an index of its own (a migration) moves the
	// counter past it.
	issueUpdate(t, s, func(tx issues.Tx) error {
		return tx.CreateIssue(ctx, &issues.Issue{RepoID: r.ID, Index: 20, PosterID: owner.ID, Title: "imported",
			Created: issueAt, Updated: issueAt})
	})
	assert.EqualValues(t, 21, newIssue(t, s, r.ID, owner.ID, "next").Index)

	err = s.Update(ctx, func(tx issues.Tx) error { _, err := tx.NextIssueIndex(ctx, 9999); return err })
	assert.ErrorIs(t, err, forge.ErrNotFound, "an unknown repository")

	// 200 parallel creations in one repository: 200 distinct indexes.
	par := newRepo(t, b, owner, "parallel")
	const n = 200
	got := make([]int64, n)
	errs := race(n, func(k int) error {
		return s.Update(ctx, func(tx issues.Tx) error {
			idx, err := tx.NextIssueIndex(ctx, par.ID)
			if err != nil {
				return err
			}
			got[k] = idx
			return tx.CreateIssue(ctx, &issues.Issue{RepoID: par.ID, Index: idx, PosterID: owner.ID, Title: "p",
				Created: issueAt, Updated: issueAt})
		})
	})
	seen := map[int64]bool{}
	for k := range n {
		require.NoError(t, errs[k])
		assert.False(t, seen[got[k]], "index %d handed out twice", got[k])
		seen[got[k]] = true
	}
	for idx := int64(1); idx <= n; idx++ {
		assert.True(t, seen[idx], "index %d missing: the indexes are 1..%d", idx, n)
	}
	issueView(t, s, func(tx issues.Tx) error {
		_, total, err := tx.ListIssues(ctx, issues.IssueFilter{RepoIDs: []forge.ID{par.ID}}, forge.ListOptions{Page: 1, Limit: 1})
		require.NoError(t, err)
		assert.EqualValues(t, n, total)
		return nil
	})
}

// testIssueCascades: what goes with a repository and with an account.
func testIssueCascades(t *testing.T, b Backend) {
	ctx := context.Background()
	s := b.Issues()
	ann, r, kept := newUserRepos(t, b, "xann", "doomed", "kept")
	bob := newUser(t, b, "xbob")

	ms := &issues.Milestone{RepoID: r.ID, Title: "m", Deadline: issues.NoDeadline, Created: issueAt, Updated: issueAt}
	l := &issues.Label{RepoID: r.ID, Name: "l", Color: "#000000"}
	issueUpdate(t, s, func(tx issues.Tx) error {
		if err := tx.CreateMilestone(ctx, ms); err != nil {
			return err
		}
		return tx.CreateLabel(ctx, l)
	})
	i := newIssue(t, s, r.ID, bob.ID, "doomed issue", func(i *issues.Issue) { i.MilestoneID = ms.ID })
	other := newIssue(t, s, kept.ID, bob.ID, "kept issue")
	c := &issues.Comment{IssueID: i.ID, PosterID: bob.ID, Body: "c", Created: issueAt, Updated: issueAt}
	oc := &issues.Comment{IssueID: other.ID, PosterID: bob.ID, Body: "oc", Created: issueAt, Updated: issueAt}
	a := &issues.Attachment{UUID: "doomed-file", RepoID: r.ID, IssueID: i.ID, UploaderID: bob.ID, Name: "f", Created: issueAt}
	issueUpdate(t, s, func(tx issues.Tx) error {
		for _, c := range []*issues.Comment{c, oc} {
			if err := tx.CreateComment(ctx, c); err != nil {
				return err
			}
		}
		if err := tx.CreateAttachment(ctx, a); err != nil {
			return err
		}
		if err := tx.SetIssueLabels(ctx, i.ID, []forge.ID{l.ID}); err != nil {
			return err
		}
		if err := tx.SetAssignees(ctx, other.ID, []forge.ID{ann.ID, bob.ID}); err != nil {
			return err
		}
		return tx.SetAssignees(ctx, i.ID, []forge.ID{bob.ID})
	})

	// A deleted account is taken off the issues it was assigned; the issues
	// and comments it wrote stay (Forgejo shows them as the ghost's).
	update(t, b.Auth(), func(tx auth.Tx) error { return tx.DeleteUser(ctx, bob.ID) })
	issueView(t, s, func(tx issues.Tx) error {
		m, err := tx.Assignees(ctx, []forge.ID{i.ID, other.ID})
		require.NoError(t, err)
		assert.Equal(t, map[forge.ID][]forge.ID{other.ID: {ann.ID}}, m, "a deleted account is no assignee")
		got, err := tx.IssueByID(ctx, other.ID)
		require.NoError(t, err, "a deleted poster's issue stays")
		assert.Equal(t, bob.ID, got.PosterID)
		_, err = tx.CommentByID(ctx, oc.ID)
		assert.NoError(t, err, "a deleted poster's comment stays")
		return nil
	})

	// A deleted repository takes its issues, comments, labels, milestones,
	// attachments and index with it; other repositories keep theirs.
	repoUpdate(t, b.Repos(), func(tx repos.Tx) error { return tx.DeleteRepo(ctx, r.ID) })
	issueView(t, s, func(tx issues.Tx) error {
		_, err := tx.IssueByID(ctx, i.ID)
		assert.ErrorIs(t, err, forge.ErrNotFound, "issue")
		_, err = tx.CommentByID(ctx, c.ID)
		assert.ErrorIs(t, err, forge.ErrNotFound, "comment")
		_, err = tx.LabelByID(ctx, l.ID)
		assert.ErrorIs(t, err, forge.ErrNotFound, "label")
		_, err = tx.MilestoneByID(ctx, r.ID, ms.ID)
		assert.ErrorIs(t, err, forge.ErrNotFound, "milestone")
		_, err = tx.AttachmentByUUID(ctx, "doomed-file")
		assert.ErrorIs(t, err, forge.ErrNotFound, "attachment")
		m, err := tx.IssueLabels(ctx, []forge.ID{i.ID})
		require.NoError(t, err)
		assert.Empty(t, m, "issue labels")
		_, err = tx.IssueByID(ctx, other.ID)
		assert.NoError(t, err)
		_, err = tx.CommentByID(ctx, oc.ID)
		assert.NoError(t, err)
		return nil
	})
}
