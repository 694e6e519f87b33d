package sqlstore

import (
	"context"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/issues"
	"github.com/hearthforge/hearth/mirror"
)

// A repository view's issue counters and pull mirror are read once: the
// next views answer them from the caches without a statement (and without
// a transaction), until a write ends; the view after the write reads the
// new values. A write transaction reads its own writes, never the cache.
func TestViewCacheRepositoryCountsAndMirror(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openSQLite(t)
	at := time.Unix(1e9, 0).UTC()
	u := forgetest.User("ann")
	require.NoError(t, db.Auth().Update(ctx, func(tx auth.Tx) error { return tx.CreateUser(ctx, u, "") }))
	r := &forge.Repository{OwnerID: u.ID, Name: "r", DefaultBranch: "main", ObjectFormat: forge.SHA1,
		Empty: true, Topics: []string{}, Created: at, Updated: at}
	require.NoError(t, db.update(ctx, func(t *tx) error { return t.CreateRepo(ctx, r) }))
	newIssue := func(tx issues.Tx, pull bool) error {
		n, err := tx.NextIssueIndex(ctx, r.ID)
		if err != nil {
			return err
		}
		return tx.CreateIssue(ctx, &issues.Issue{RepoID: r.ID, PosterID: u.ID, Title: "i", Index: n, IsPull: pull,
			Created: at, Updated: at})
	}
	require.NoError(t, db.Issues().Update(ctx, func(tx issues.Tx) error { return newIssue(tx, false) }))

	var statements atomic.Int64
	db.CountStatements(&statements)
	defer db.CountStatements(nil)
	repoView := func() (map[forge.ID]issues.IssueCount, map[forge.ID]issues.IssueCount, map[forge.ID]*mirror.PullMirror) {
		t.Helper()
		var is, ps map[forge.ID]issues.IssueCount
		require.NoError(t, db.Issues().View(ctx, func(tx issues.Tx) error {
			var err error
			if is, err = tx.IssueCounts(ctx, []forge.ID{r.ID}, false); err != nil {
				return err
			}
			ps, err = tx.IssueCounts(ctx, []forge.ID{r.ID}, true)
			return err
		}))
		var ms map[forge.ID]*mirror.PullMirror
		require.NoError(t, db.Mirrors().View(ctx, func(tx mirror.Tx) error {
			var err error
			ms, err = tx.PullMirrorsByRepo(ctx, []forge.ID{r.ID})
			return err
		}))
		return is, ps, ms
	}

	is, ps, ms := repoView()
	assert.Equal(t, map[forge.ID]issues.IssueCount{r.ID: {Open: 1}}, is)
	assert.Empty(t, ps)
	assert.Empty(t, ms)
	assert.Equal(t, int64(2), statements.Load(), "first view: one statement for both kinds, one for the mirror")
	statements.Store(0)
	is, ps, ms = repoView()
	assert.Equal(t, map[forge.ID]issues.IssueCount{r.ID: {Open: 1}}, is)
	assert.Empty(t, ps)
	assert.Empty(t, ms)
	assert.Zero(t, statements.Load(), "second view: from the caches")

	// A write ends: the next view reads again and sees it; inside the
	// write transaction the counts follow its own writes.
	require.NoError(t, db.Issues().Update(ctx, func(tx issues.Tx) error {
		if err := newIssue(tx, true); err != nil {
			return err
		}
		ps, err := tx.IssueCounts(ctx, []forge.ID{r.ID}, true)
		require.NoError(t, err)
		assert.Equal(t, map[forge.ID]issues.IssueCount{r.ID: {Open: 1}}, ps)
		return nil
	}))
	m := &mirror.PullMirror{RepoID: r.ID, RemoteAddress: "https://example.com/x.git", Interval: time.Hour,
		Updated: at, NextUpdate: at}
	require.NoError(t, db.Mirrors().Update(ctx, func(tx mirror.Tx) error { return tx.CreatePullMirror(ctx, m) }))
	statements.Store(0)
	is, ps, ms = repoView()
	assert.Equal(t, map[forge.ID]issues.IssueCount{r.ID: {Open: 1}}, is)
	assert.Equal(t, map[forge.ID]issues.IssueCount{r.ID: {Open: 1}}, ps)
	require.Contains(t, ms, r.ID)
	assert.Equal(t, "https://example.com/x.git", ms[r.ID].RemoteAddress)
	assert.Equal(t, int64(2), statements.Load())
	// A cached mirror is a copy: changing an answer changes no other.
	ms[r.ID].RemoteAddress = "changed"
	statements.Store(0)
	_, _, ms = repoView()
	assert.Equal(t, "https://example.com/x.git", ms[r.ID].RemoteAddress)
	assert.Zero(t, statements.Load())
}

// Another process writing the same file does not bump this process's
// generation: a cached answer is trusted for a bounded time only, and the
// other process's write shows within it.
func TestViewCacheAgeBound(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "h.db")
	db := openSQLiteAt(t, path)
	other := openSQLiteAt(t, path)
	at := time.Unix(1e9, 0).UTC()
	u := forgetest.User("ann")
	require.NoError(t, db.Auth().Update(ctx, func(tx auth.Tx) error { return tx.CreateUser(ctx, u, "") }))
	r := &forge.Repository{OwnerID: u.ID, Name: "r", DefaultBranch: "main", ObjectFormat: forge.SHA1,
		Empty: true, Topics: []string{}, Created: at, Updated: at}
	require.NoError(t, db.update(ctx, func(t *tx) error { return t.CreateRepo(ctx, r) }))
	counts := func() map[forge.ID]issues.IssueCount {
		var is map[forge.ID]issues.IssueCount
		require.NoError(t, db.Issues().View(ctx, func(tx issues.Tx) error {
			var err error
			is, err = tx.IssueCounts(ctx, []forge.ID{r.ID}, false)
			return err
		}))
		return is
	}
	require.Empty(t, counts())
	require.NoError(t, other.Issues().Update(ctx, func(tx issues.Tx) error {
		n, err := tx.NextIssueIndex(ctx, r.ID)
		if err != nil {
			return err
		}
		return tx.CreateIssue(ctx, &issues.Issue{RepoID: r.ID, PosterID: u.ID, Title: "i", Index: n, Created: at, Updated: at})
	}))
	want := map[forge.ID]issues.IssueCount{r.ID: {Open: 1}}
	deadline := time.Now().Add(10 * maxTokenAge)
	for got := counts(); !assert.ObjectsAreEqual(want, got); got = counts() {
		if time.Now().After(deadline) {
			t.Fatalf("another process's write not seen after %v: %v", 10*maxTokenAge, got)
		}
	}
}
