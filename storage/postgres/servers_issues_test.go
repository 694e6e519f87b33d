package postgres

import (
	"context"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/issues"
)

// Two servers on one database create 1,000 issues in one repository at
// once, each the way issues.Service does (NextIssueIndex and CreateIssue in
// one write transaction): the indexes are 1..1000, each once, and the
// repository's issue counter says 1,000.
func TestServersCreateIssuesWithDistinctIndexes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dbs := openServers(t)
	servers := dbs[:]

	at := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
	owner := &forge.User{Name: "owner", Email: "owner@example.com", IsActive: true, Created: at, Updated: at}
	require.NoError(t, servers[0].Auth().Update(ctx, func(tx auth.Tx) error { return tx.CreateUser(ctx, owner, "hash") }))
	repo := &forge.Repository{OwnerID: owner.ID, Name: "busy", DefaultBranch: "main", ObjectFormat: forge.SHA1,
		Empty: true, Topics: []string{}, Created: at, Updated: at}
	require.NoError(t, servers[0].Repos().Update(ctx, func(tx repos.Tx) error { return tx.CreateRepo(ctx, repo) }))

	const total = 1000
	workers := 4 // per server
	if n, err := strconv.Atoi(os.Getenv("HEARTH_PG_ISSUE_WORKERS")); err == nil && n > 0 {
		workers = n
	}
	var next, attempts atomic.Int64
	indexes := make([]int64, total)
	errs := make([]error, total)
	var wg sync.WaitGroup
	start := time.Now()
	for _, db := range servers {
		for range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					k := int(next.Add(1)) - 1
					if k >= total {
						return
					}
					errs[k] = db.Issues().Update(ctx, func(tx issues.Tx) error {
						attempts.Add(1) // a measure only: a rerun transaction counts again
						idx, err := tx.NextIssueIndex(ctx, repo.ID)
						if err != nil {
							return err
						}
						i := &issues.Issue{RepoID: repo.ID, Index: idx, PosterID: owner.ID,
							Title: "issue " + strconv.Itoa(k), Created: at, Updated: at}
						if err := tx.CreateIssue(ctx, i); err != nil {
							return err
						}
						indexes[k] = idx
						return nil
					})
				}
			}()
		}
	}
	wg.Wait()
	elapsed := time.Since(start)
	t.Logf("%d issues by 2 servers × %d workers in %v: %d transaction runs (%.2f per issue)",
		total, workers, elapsed.Round(time.Millisecond), attempts.Load(), float64(attempts.Load())/total)

	seen := make(map[int64]int, total)
	for k := range total {
		require.NoError(t, errs[k], "issue %d", k)
		if prev, dup := seen[indexes[k]]; dup {
			t.Fatalf("issues %d and %d both got index %d", prev, k, indexes[k])
		}
		seen[indexes[k]] = k
	}
	for want := int64(1); want <= total; want++ {
		assert.Contains(t, seen, want)
	}
	require.NoError(t, servers[1].Issues().View(ctx, func(tx issues.Tx) error {
		counts, err := tx.IssueCounts(ctx, []forge.ID{repo.ID}, false)
		require.NoError(t, err)
		assert.Equal(t, issues.IssueCount{Open: total}, counts[repo.ID])
		last, err := tx.IssueByIndex(ctx, repo.ID, total)
		require.NoError(t, err)
		assert.Equal(t, repo.ID, last.RepoID)
		return nil
	}))
	// The next reservation follows on either server.
	require.NoError(t, servers[1].Issues().Update(ctx, func(tx issues.Tx) error {
		idx, err := tx.NextIssueIndex(ctx, repo.ID)
		assert.EqualValues(t, total+1, idx)
		return err
	}))
}

// Ids beyond 32 bits round-trip where the store code turns 0 into NULL
// (nullif): PostgreSQL would type a bare parameter there as a 32-bit
// integer.
func TestIssueIDsBeyond32Bits(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openTest(t)
	at := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
	owner := &forge.User{Name: "big", Email: "big@example.com", IsActive: true, Created: at, Updated: at}
	require.NoError(t, db.Auth().Update(ctx, func(tx auth.Tx) error { return tx.CreateUser(ctx, owner, "hash") }))
	repo := &forge.Repository{OwnerID: owner.ID, Name: "big", DefaultBranch: "main", ObjectFormat: forge.SHA1,
		Empty: true, Topics: []string{}, Created: at, Updated: at}
	require.NoError(t, db.Repos().Update(ctx, func(tx repos.Tx) error { return tx.CreateRepo(ctx, repo) }))
	const big = 5_000_000_000
	_, err := db.sql.ExecContext(ctx, `INSERT INTO milestone (id, repo_id, title, created_unix, updated_unix)
		VALUES ($1, $2, 'big', 1, 1)`, big, repo.ID)
	require.NoError(t, err)

	i := &issues.Issue{RepoID: repo.ID, PosterID: owner.ID, Title: "t", MilestoneID: big, Created: at, Updated: at}
	require.NoError(t, db.Issues().Update(ctx, func(tx issues.Tx) error {
		idx, err := tx.NextIssueIndex(ctx, repo.ID)
		if err != nil {
			return err
		}
		i.Index = idx
		if err := tx.CreateIssue(ctx, i); err != nil {
			return err
		}
		return tx.UpdateIssue(ctx, i)
	}))
	require.NoError(t, db.Issues().View(ctx, func(tx issues.Tx) error {
		got, err := tx.IssueByID(ctx, i.ID)
		require.NoError(t, err)
		assert.EqualValues(t, big, got.MilestoneID)
		return nil
	}))
}
