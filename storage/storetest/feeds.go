package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/feeds"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/forge/orgs"
	"github.com/hearthforge/hearth/forge/repos"
)

// testFeeds covers feeds.Tx: actions round trip, the event guard, every
// clause of the filter (receiver, repositories, doer, doer rows, private,
// time bounds, the doers' visibility with the organisations of a member),
// newest-first paging, the heatmap's quarter-hour buckets, and that
// deleting a repository takes its actions.
func testFeeds(t *testing.T, b Backend) {
	ctx := context.Background()
	s := b.Feeds()
	ann := createUser(t, b.Auth(), forgetest.User("fann"))
	lim := createUser(t, b.Auth(), forgetest.User("flim", func(u *forge.User) { u.Visibility = forge.VisibilityLimited }))
	org := newOrg(t, b, "forg", func(u *forge.User) { u.Visibility = forge.VisibilityPrivate })
	orgUpdate(t, b.Orgs(), func(tx orgs.Tx) error { return tx.SetMember(ctx, forge.Membership{OrgID: org.ID, UserID: ann.ID}) })
	r1, r2 := newRepo(t, b, ann, "f1"), newRepo(t, b, ann, "f2")

	at := time.Date(2024, 3, 4, 10, 0, 0, 0, time.UTC)
	min := func(m int) time.Time { return at.Add(time.Duration(m) * time.Minute) }
	rows := []*feeds.Action{
		{UserID: ann.ID, OpType: feeds.OpCreateRepo, ActUserID: ann.ID, RepoID: r1.ID, Created: min(0), EventID: 7},
		{UserID: ann.ID, OpType: feeds.OpCommitRepo, ActUserID: ann.ID, RepoID: r1.ID, RefName: "refs/heads/main", Created: min(5), EventID: 8},
		{UserID: ann.ID, OpType: feeds.OpCommentIssue, ActUserID: lim.ID, RepoID: r2.ID, CommentID: 3, Content: "1|hi", IsPrivate: true, Created: min(20)},
		{UserID: lim.ID, OpType: feeds.OpCommentIssue, ActUserID: lim.ID, RepoID: r2.ID, CommentID: 3, Content: "1|hi", IsPrivate: true, Created: min(20)},
		{UserID: ann.ID, OpType: feeds.OpCreateIssue, ActUserID: org.ID, RepoID: r2.ID, Content: "2|t", Created: min(24 * 60)},
	}
	require.NoError(t, s.Update(ctx, func(tx feeds.Tx) error { return tx.CreateActions(ctx, rows) }))
	require.NotZero(t, rows[0].ID)
	assert.ErrorIs(t, s.Update(ctx, func(tx feeds.Tx) error {
		return tx.CreateActions(ctx, []*feeds.Action{{UserID: ann.ID, ActUserID: ann.ID, RepoID: 999999, OpType: 1, Created: at}})
	}), forge.ErrNotFound, "the repository must exist")

	ids := func(list []*feeds.Action) []forge.ID {
		out := []forge.ID{}
		for _, a := range list {
			out = append(out, a.ID)
		}
		return out
	}
	list := func(f feeds.Filter) ([]forge.ID, int64) {
		t.Helper()
		var got []*feeds.Action
		var n int64
		require.NoError(t, s.View(ctx, func(tx feeds.Tx) error {
			var err error
			got, n, err = tx.ListActions(ctx, f, forge.ListOptions{Page: 1, Limit: 50})
			return err
		}))
		return ids(got), n
	}
	require.NoError(t, s.View(ctx, func(tx feeds.Tx) error {
		done, err := tx.EventRecorded(ctx, 8)
		require.NoError(t, err)
		assert.True(t, done)
		done, err = tx.EventRecorded(ctx, 9)
		require.NoError(t, err)
		assert.False(t, done)
		repoIDs, err := tx.ActionRepos(ctx, feeds.Filter{UserID: lim.ID})
		require.NoError(t, err)
		assert.Equal(t, []forge.ID{r2.ID}, repoIDs)
		repoIDs, err = tx.ActionRepos(ctx, feeds.Filter{UserID: ann.ID})
		require.NoError(t, err)
		assert.Equal(t, []forge.ID{r1.ID, r2.ID}, repoIDs)
		users, err := tx.UsersByID(ctx, []forge.ID{lim.ID, 999999})
		require.NoError(t, err)
		assert.Len(t, users, 1)

		page, n, err := tx.ListActions(ctx, feeds.Filter{UserID: ann.ID}, forge.ListOptions{Page: 2, Limit: 2})
		require.NoError(t, err)
		assert.Equal(t, int64(4), n)
		assert.Equal(t, []forge.ID{rows[1].ID, rows[0].ID}, ids(page), "newest first, second page")
		assert.Empty(t, cmp.Diff(rows[1], page[0]))
		return nil
	}))

	r := rows
	for _, c := range []struct {
		name string
		f    feeds.Filter
		want []forge.ID
	}{
		{"receiver", feeds.Filter{UserID: ann.ID}, []forge.ID{r[4].ID, r[2].ID, r[1].ID, r[0].ID}},
		{"repository", feeds.Filter{RepoID: r2.ID}, []forge.ID{r[4].ID, r[3].ID, r[2].ID}},
		{"repositories", feeds.Filter{RepoIDs: []forge.ID{r1.ID}}, []forge.ID{r[1].ID, r[0].ID}},
		{"no repositories", feeds.Filter{RepoIDs: []forge.ID{}}, []forge.ID{}},
		{"doer", feeds.Filter{UserID: ann.ID, ActUserID: lim.ID}, []forge.ID{r[2].ID}},
		{"doer rows", feeds.Filter{RepoID: r2.ID, OnlyDoerRows: true}, []forge.ID{r[3].ID}},
		{"not private", feeds.Filter{UserID: ann.ID, ExcludePrivate: true}, []forge.ID{r[4].ID, r[1].ID, r[0].ID}},
		{"from", feeds.Filter{UserID: ann.ID, From: min(5)}, []forge.ID{r[4].ID, r[2].ID, r[1].ID}},
		{"to", feeds.Filter{UserID: ann.ID, To: min(5)}, []forge.ID{r[1].ID, r[0].ID}},
		{"public doers", feeds.Filter{UserID: ann.ID, ActVisibilities: []forge.Visibility{forge.VisibilityPublic}},
			[]forge.ID{r[1].ID, r[0].ID}},
		{"limited doers", feeds.Filter{UserID: ann.ID, ActVisibilities: []forge.Visibility{forge.VisibilityPublic, forge.VisibilityLimited}},
			[]forge.ID{r[2].ID, r[1].ID, r[0].ID}},
		{"doers named", feeds.Filter{UserID: ann.ID, ActVisibilities: []forge.Visibility{}, ActUsers: []forge.ID{org.ID}},
			[]forge.ID{r[4].ID}},
		{"organisations of a member", feeds.Filter{UserID: ann.ID, ActVisibilities: []forge.Visibility{}, ActOrgsOf: ann.ID},
			[]forge.ID{r[4].ID}},
		{"organisations of another", feeds.Filter{UserID: ann.ID, ActVisibilities: []forge.Visibility{}, ActOrgsOf: lim.ID},
			[]forge.ID{}},
	} {
		got, n := list(c.f)
		assert.Equal(t, c.want, got, c.name)
		assert.Equal(t, int64(len(c.want)), n, c.name)
	}

	require.NoError(t, s.View(ctx, func(tx feeds.Tx) error {
		buckets, err := tx.Heatmap(ctx, feeds.Filter{UserID: ann.ID})
		require.NoError(t, err)
		day := at.Unix()
		assert.Equal(t, []feeds.HeatmapBucket{{Timestamp: day, Contributions: 2}, {Timestamp: day + 900, Contributions: 1},
			{Timestamp: day + 24*3600, Contributions: 1}}, buckets)
		return nil
	}))

	repoUpdate(t, b.Repos(), func(tx repos.Tx) error { return tx.DeleteRepo(ctx, r2.ID) })
	got, n := list(feeds.Filter{UserID: ann.ID})
	assert.Equal(t, []forge.ID{r[1].ID, r[0].ID}, got, "a deleted repository's actions go with it")
	assert.Equal(t, int64(2), n)
}
