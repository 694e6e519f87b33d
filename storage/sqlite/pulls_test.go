package sqlite

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/issues"
)

var pullAt = time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)

// pullFixture is a database with an owner, a repository and its fork.
type pullFixture struct {
	ctx        context.Context
	db         *DB
	owner      *forge.User
	repo, fork *forge.Repository
}

func newPullFixture(t *testing.T) *pullFixture {
	t.Helper()
	ctx := context.Background()
	db, err := Open(ctx, ":memory:")
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	f := &pullFixture{ctx: ctx, db: db, owner: forgetest.User("puller")}
	require.NoError(t, db.Auth().Update(ctx, func(tx auth.Tx) error { return tx.CreateUser(ctx, f.owner, "") }))
	f.repo = &forge.Repository{OwnerID: f.owner.ID, Name: "base", DefaultBranch: "main"}
	f.fork = &forge.Repository{OwnerID: f.owner.ID, Name: "fork", DefaultBranch: "main"}
	require.NoError(t, db.Repos().Update(ctx, func(tx repos.Tx) error {
		require.NoError(t, tx.CreateRepo(ctx, f.repo))
		return tx.CreateRepo(ctx, f.fork)
	}))
	return f
}

// pulls creates n pull requests of f.repo from branches of f.fork, each
// with a review and a code comment.
func (f *pullFixture) pulls(t *testing.T, n int) []*issues.PullRequest {
	t.Helper()
	var out []*issues.PullRequest
	require.NoError(t, f.db.Issues().Update(f.ctx, func(tx issues.Tx) error {
		for k := range n {
			idx, err := tx.NextIssueIndex(f.ctx, f.repo.ID)
			require.NoError(t, err)
			is := &issues.Issue{RepoID: f.repo.ID, Index: idx, PosterID: f.owner.ID, Title: "p", IsPull: true,
				Created: pullAt, Updated: pullAt}
			require.NoError(t, tx.CreateIssue(f.ctx, is))
			p := &issues.PullRequest{IssueID: is.ID, Index: idx, BaseRepoID: f.repo.ID, HeadRepoID: f.fork.ID,
				BaseBranch: "main", HeadBranch: "b" + string(rune('a'+k%26))}
			require.NoError(t, tx.CreatePull(f.ctx, p))
			r := &issues.Review{IssueID: is.ID, Type: issues.ReviewComment, ReviewerID: f.owner.ID, Created: pullAt, Updated: pullAt}
			require.NoError(t, tx.CreateReview(f.ctx, r))
			require.NoError(t, tx.CreateComment(f.ctx, &issues.Comment{IssueID: is.ID, Type: issues.CommentCode,
				PosterID: f.owner.ID, ReviewID: r.ID, TreePath: "f", Line: 1, Created: pullAt, Updated: pullAt}))
			out = append(out, p)
		}
		return nil
	}))
	return out
}

// head_repo_id is a foreign key: 0 writes NULL ("none"), a repository
// that does not exist is refused as not found.
func TestPullHeadRepoForeignKey(t *testing.T) {
	t.Parallel()
	f := newPullFixture(t)
	ps := f.pulls(t, 1)
	up := *ps[0]
	up.HeadRepoID = 0
	require.NoError(t, f.db.Issues().Update(f.ctx, func(tx issues.Tx) error { return tx.UpdatePull(f.ctx, &up) }))
	var n int
	require.NoError(t, f.db.write.QueryRowContext(f.ctx, `SELECT count(*) FROM pull_request WHERE head_repo_id IS NULL`).Scan(&n))
	assert.Equal(t, 1, n)
	up.HeadRepoID = 99999
	err := f.db.Issues().Update(f.ctx, func(tx issues.Tx) error { return tx.UpdatePull(f.ctx, &up) })
	assert.ErrorIs(t, err, forge.ErrNotFound)
	p := &issues.PullRequest{IssueID: ps[0].IssueID + 1000, BaseRepoID: f.repo.ID}
	err = f.db.Issues().Update(f.ctx, func(tx issues.Tx) error { return tx.CreatePull(f.ctx, p) })
	assert.ErrorIs(t, err, forge.ErrNotFound)
}

// The reads a pull-request list makes cost the same number of statements
// for one pull request as for fifty.
func TestPullReadsStatementsPerPage(t *testing.T) {
	t.Parallel()
	f := newPullFixture(t)
	ps := f.pulls(t, 50)
	count := func(n int) int64 {
		var stmts atomic.Int64
		issueIDs := make([]forge.ID, n)
		for k := range n {
			issueIDs[k] = ps[k].IssueID
		}
		var reviewIDs []forge.ID
		require.NoError(t, f.db.Issues().View(f.ctx, func(tx issues.Tx) error {
			for _, id := range issueIDs {
				rs, _, err := tx.ListReviews(f.ctx, issues.ReviewFilter{IssueID: id}, forge.ListOptions{Page: 1, Limit: -1})
				require.NoError(t, err)
				reviewIDs = append(reviewIDs, rs[0].ID)
			}
			return nil
		}))
		f.db.CountStatements(&stmts)
		defer f.db.CountStatements(nil)
		require.NoError(t, f.db.Issues().View(f.ctx, func(tx issues.Tx) error {
			m, err := tx.PullsByIssueID(f.ctx, issueIDs)
			require.NoError(t, err)
			require.Len(t, m, n)
			list, err := tx.FindPulls(f.ctx, issues.PullFilter{BaseRepoID: f.repo.ID, IssueIDs: issueIDs, Open: true})
			require.NoError(t, err)
			require.Len(t, list, n)
			cs, err := tx.ReviewComments(f.ctx, reviewIDs)
			require.NoError(t, err)
			require.Len(t, cs, n)
			return nil
		}))
		return stmts.Load()
	}
	one, fifty := count(1), count(50)
	assert.Equal(t, int64(3), one)
	assert.Equal(t, one, fifty)

	// ListReviews: the count and the page, or one statement for all.
	for _, c := range []struct {
		o     forge.ListOptions
		len   int
		stmts int64
	}{{forge.ListOptions{Page: 1, Limit: -1}, 1, 1}, {forge.ListOptions{Page: 1, Limit: 10}, 1, 2}, {forge.ListOptions{Page: 2, Limit: -1}, 0, 2}} {
		var stmts atomic.Int64
		f.db.CountStatements(&stmts)
		require.NoError(t, f.db.Issues().View(f.ctx, func(tx issues.Tx) error {
			list, n, err := tx.ListReviews(f.ctx, issues.ReviewFilter{IssueID: ps[0].IssueID}, c.o)
			require.NoError(t, err)
			assert.EqualValues(t, 1, n, "%+v", c.o)
			assert.Len(t, list, c.len, "%+v", c.o)
			return nil
		}))
		f.db.CountStatements(nil)
		assert.Equal(t, c.stmts, stmts.Load(), "%+v", c.o)
	}
}

// Migration 00023 goes down and up again cleanly, leaving the comment
// table as 00014 made it in between.
func TestMigrationPullsDownUp(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := t.TempDir() + "/pulls.db"
	db, err := Open(ctx, path)
	require.NoError(t, err)
	require.NoError(t, db.Close())
	raw, p := rawMigrator(t, path)
	defer raw.Close()
	_, err = p.DownTo(ctx, 22)
	require.NoError(t, err)
	var n int
	require.NoError(t, raw.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master
		WHERE name LIKE 'pull%' OR name LIKE 'review%' OR name = 'comment_review'`).Scan(&n))
	assert.Zero(t, n, "down drops every table, index and trigger of 00023")
	require.NoError(t, raw.QueryRowContext(ctx, `SELECT count(*) FROM pragma_table_info('comment')
		WHERE name IN ('review_id', 'tree_path', 'assignee_team_id')`).Scan(&n))
	assert.Zero(t, n, "down drops the comment columns")
	require.NoError(t, raw.Close())
	db, err = Open(ctx, path)
	require.NoError(t, err)
	require.NoError(t, db.Close())
}
