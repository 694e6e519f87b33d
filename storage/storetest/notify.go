package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/notify"
	"github.com/hearthforge/hearth/issues"
)

// testNotify covers notify.Tx: threads round trip, one per user and issue,
// updates, the filters and order of ListThreads, and the subjects read
// from the issue tables.
func testNotify(t *testing.T, b Backend) {
	ctx := context.Background()
	s := b.Notify()
	ann, r1, r2 := newUserRepos(t, b, "nann", "n1", "n2")
	bob := newUser(t, b, "nbob")
	is1 := &issues.Issue{RepoID: r1.ID, Index: 1, PosterID: ann.ID, Title: "one", Created: issueAt, Updated: issueAt}
	is2 := &issues.Issue{RepoID: r2.ID, Index: 1, PosterID: ann.ID, Title: "two", IsPull: true, IsClosed: true, Created: issueAt, Updated: issueAt}
	c := &issues.Comment{Type: issues.CommentPlain, PosterID: bob.ID, Body: "hi", Created: issueAt, Updated: issueAt}
	ev := &issues.Comment{Type: issues.CommentClose, PosterID: bob.ID, Created: issueAt, Updated: issueAt}
	issueUpdate(t, b.Issues(), func(tx issues.Tx) error {
		for _, is := range []*issues.Issue{is1, is2} {
			if err := tx.CreateIssue(ctx, is); err != nil {
				return err
			}
		}
		c.IssueID, ev.IssueID = is1.ID, is1.ID
		if err := tx.CreateComment(ctx, c); err != nil {
			return err
		}
		return tx.CreateComment(ctx, ev)
	})

	at := func(m int) time.Time { return issueAt.Add(time.Duration(m) * time.Minute) }
	t1 := &notify.Thread{UserID: bob.ID, RepoID: r1.ID, Status: notify.StatusUnread, Source: notify.SourceIssue,
		IssueID: is1.ID, CommentID: c.ID, UpdatedBy: ann.ID, Created: at(0), Updated: at(1)}
	t2 := &notify.Thread{UserID: bob.ID, RepoID: r2.ID, Status: notify.StatusPinned, Source: notify.SourcePull,
		IssueID: is2.ID, UpdatedBy: ann.ID, Created: at(0), Updated: at(2)}
	t3 := &notify.Thread{UserID: ann.ID, RepoID: r1.ID, Status: notify.StatusRead, Source: notify.SourceIssue,
		IssueID: is1.ID, UpdatedBy: bob.ID, Created: at(0), Updated: at(3)}
	require.NoError(t, s.Update(ctx, func(tx notify.Tx) error {
		for _, n := range []*notify.Thread{t1, t2, t3} {
			if err := tx.CreateThread(ctx, n); err != nil {
				return err
			}
		}
		return nil
	}))
	require.NotZero(t, t1.ID)

	err := s.Update(ctx, func(tx notify.Tx) error {
		return tx.CreateThread(ctx, &notify.Thread{UserID: bob.ID, RepoID: r1.ID, Status: notify.StatusUnread,
			Source: notify.SourceIssue, IssueID: is1.ID, Created: at(0), Updated: at(0)})
	})
	assert.ErrorIs(t, err, forge.ErrConflict, "one thread per user and issue")
	err = s.Update(ctx, func(tx notify.Tx) error {
		return tx.CreateThread(ctx, &notify.Thread{UserID: 9999, RepoID: r1.ID, Status: notify.StatusUnread,
			Source: notify.SourceIssue, IssueID: is2.ID, Created: at(0), Updated: at(0)})
	})
	assert.ErrorIs(t, err, forge.ErrNotFound, "a missing user")

	require.NoError(t, s.View(ctx, func(tx notify.Tx) error {
		got, err := tx.ThreadByID(ctx, t1.ID)
		wantRoundTrip(t, "thread", t1, got, err)
		_, err = tx.ThreadByID(ctx, 9999)
		assert.ErrorIs(t, err, forge.ErrNotFound)

		byUser, err := tx.ThreadsOfIssue(ctx, is1.ID, []forge.ID{bob.ID, ann.ID})
		require.NoError(t, err)
		assert.Equal(t, map[forge.ID]*notify.Thread{bob.ID: t1, ann.ID: t3}, byUser)
		byUser, err = tx.ThreadsOfIssue(ctx, is1.ID, []forge.ID{ann.ID})
		require.NoError(t, err)
		assert.Len(t, byUser, 1)

		repos, err := tx.ThreadRepos(ctx, bob.ID)
		require.NoError(t, err)
		assert.Equal(t, []forge.ID{r1.ID, r2.ID}, repos)

		subjects, err := tx.Subjects(ctx, []forge.ID{is1.ID, is2.ID, 9999})
		require.NoError(t, err)
		assert.Equal(t, map[forge.ID]notify.Subject{
			is1.ID: {RepoID: r1.ID, Index: 1, Title: "one", LastCommentID: c.ID},
			is2.ID: {RepoID: r2.ID, Index: 1, Title: "two", IsPull: true, IsClosed: true},
		}, subjects, "the latest plain comment; events do not count")
		users, err := tx.UsersByID(ctx, []forge.ID{ann.ID, 9999})
		require.NoError(t, err)
		assert.Len(t, users, 1)
		assert.Equal(t, "nann", users[ann.ID].Name)

		both := []forge.ID{r1.ID, r2.ID}
		for _, tc := range []struct {
			name  string
			f     notify.Filter
			o     forge.ListOptions
			want  []*notify.Thread
			total int64
		}{
			{"newest first", notify.Filter{UserID: bob.ID, IssueRepos: both, PullRepos: both}, forge.ListOptions{Page: 1, Limit: 10}, []*notify.Thread{t2, t1}, 2},
			{"pulls not readable", notify.Filter{UserID: bob.ID, IssueRepos: both, PullRepos: []forge.ID{}}, forge.ListOptions{Page: 1, Limit: 10}, []*notify.Thread{t1}, 1},
			{"no readable repository", notify.Filter{UserID: bob.ID}, forge.ListOptions{Page: 1, Limit: 10}, []*notify.Thread{}, 0},
			{"statuses", notify.Filter{UserID: bob.ID, IssueRepos: both, PullRepos: both, Statuses: []notify.Status{notify.StatusPinned}}, forge.ListOptions{Page: 1, Limit: 10}, []*notify.Thread{t2}, 1},
			{"empty statuses", notify.Filter{UserID: bob.ID, IssueRepos: both, PullRepos: both, Statuses: []notify.Status{}}, forge.ListOptions{Page: 1, Limit: 10}, []*notify.Thread{}, 0},
			{"sources", notify.Filter{UserID: bob.ID, IssueRepos: both, PullRepos: both, Sources: []notify.Source{notify.SourceIssue}}, forge.ListOptions{Page: 1, Limit: 10}, []*notify.Thread{t1}, 1},
			{"repository", notify.Filter{UserID: bob.ID, IssueRepos: both, PullRepos: both, RepoID: r2.ID}, forge.ListOptions{Page: 1, Limit: 10}, []*notify.Thread{t2}, 1},
			{"after is strict", notify.Filter{UserID: bob.ID, IssueRepos: both, PullRepos: both, UpdatedAfter: at(1)}, forge.ListOptions{Page: 1, Limit: 10}, []*notify.Thread{t2}, 1},
			{"before is strict", notify.Filter{UserID: bob.ID, IssueRepos: both, PullRepos: both, UpdatedBefore: at(2)}, forge.ListOptions{Page: 1, Limit: 10}, []*notify.Thread{t1}, 1},
			{"second page", notify.Filter{UserID: bob.ID, IssueRepos: both, PullRepos: both}, forge.ListOptions{Page: 2, Limit: 1}, []*notify.Thread{t1}, 2},
			{"count only", notify.Filter{UserID: bob.ID, IssueRepos: both, PullRepos: both}, forge.ListOptions{Page: 1, Limit: 0}, []*notify.Thread{}, 2},
			{"all", notify.Filter{UserID: bob.ID, IssueRepos: both, PullRepos: both}, forge.ListOptions{Page: 1, Limit: -1}, []*notify.Thread{t2, t1}, 2},
		} {
			list, total, err := tx.ListThreads(ctx, tc.f, tc.o)
			require.NoError(t, err, tc.name)
			assert.Equal(t, tc.total, total, tc.name)
			if diff := cmp.Diff(tc.want, list); diff != "" {
				t.Errorf("%s (-want +got):\n%s", tc.name, diff)
			}
		}
		return nil
	}))

	t1.Status, t1.CommentID, t1.UpdatedBy, t1.Updated = notify.StatusRead, 0, bob.ID, at(9)
	require.NoError(t, s.Update(ctx, func(tx notify.Tx) error { return tx.UpdateThread(ctx, t1) }))
	err = s.Update(ctx, func(tx notify.Tx) error {
		return tx.UpdateThread(ctx, &notify.Thread{ID: 9999, Status: notify.StatusRead})
	})
	assert.ErrorIs(t, err, forge.ErrNotFound)
	require.NoError(t, s.View(ctx, func(tx notify.Tx) error {
		got, err := tx.ThreadByID(ctx, t1.ID)
		require.NoError(t, err)
		if diff := cmp.Diff(t1, got); diff != "" {
			t.Errorf("thread update (-want +got):\n%s", diff)
		}
		return nil
	}))
}

// testNotifyCascades checks that a thread goes with its issue and with its
// user, as the SQL schema's foreign keys make it.
func testNotifyCascades(t *testing.T, b Backend) {
	ctx := context.Background()
	s := b.Notify()
	ann, r := newUserRepo(t, b, "cann", "c1")
	bob := newUser(t, b, "cbob")
	is := &issues.Issue{RepoID: r.ID, Index: 1, PosterID: ann.ID, Title: "x", Created: issueAt, Updated: issueAt}
	issueUpdate(t, b.Issues(), func(tx issues.Tx) error { return tx.CreateIssue(ctx, is) })
	th := &notify.Thread{UserID: bob.ID, RepoID: r.ID, Status: notify.StatusUnread, Source: notify.SourceIssue,
		IssueID: is.ID, Created: issueAt, Updated: issueAt}
	require.NoError(t, s.Update(ctx, func(tx notify.Tx) error { return tx.CreateThread(ctx, th) }))
	issueUpdate(t, b.Issues(), func(tx issues.Tx) error { return tx.DeleteIssue(ctx, is.ID) })
	require.NoError(t, s.View(ctx, func(tx notify.Tx) error {
		_, err := tx.ThreadByID(ctx, th.ID)
		assert.ErrorIs(t, err, forge.ErrNotFound, "the thread went with its issue")
		repos, err := tx.ThreadRepos(ctx, bob.ID)
		require.NoError(t, err)
		assert.Empty(t, repos)
		return nil
	}))
}
