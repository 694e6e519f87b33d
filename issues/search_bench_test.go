package issues_test

import (
	"context"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/issues"
)

// BenchmarkSearchIssues is /repos/issues/search through the service on
// SQLite: 100k issues over 1k repositories, a user who sees the 900
// public repositories and 100 private ones, one page of twenty; and a
// user who sees no repository, answered with no issue query. Each case
// runs twice: repeated as it is (the store answers the repositories and
// the total of a search it ran at the same write generation from its
// caches, as for the next page of a search), and "-cold", where a write
// transaction (empty, a few µs, counted in the figures) ends before each
// search, so that every search reads everything again.
func BenchmarkSearchIssues(b *testing.B) {
	c := newSQLCorpus(b, 1000, 100_000)
	ctx := context.Background()
	page := forge.ListOptions{Page: 1, Limit: 20}
	for _, bc := range []struct {
		name  string
		actor forge.Actor
		opt   issues.SearchOption
		want  int
	}{
		{"Open", c.viewer, issues.SearchOption{ListOptions: page}, 20},
		{"FilteredLabels", c.viewer, issues.SearchOption{Labels: []string{"bug"}, Type: issues.TypeIssues, ListOptions: page}, 20},
		// A selective filter: "issue 4242" and "issue 42420".."42429".
		{"FilteredKeywordRare", c.viewer, issues.SearchOption{Keyword: "issue 4242", State: issues.StateAll, ListOptions: page}, 11},
		{"FilteredLabelOwnerClosed", c.viewer, issues.SearchOption{Owner: "owner", Labels: []string{"doc"}, State: issues.StateClosed, ListOptions: page}, 20},
		// Broad filters: a quarter of the issues match, and Forgejo's
		// X-Total-Count needs them all counted.
		{"FilteredKeyword", c.viewer, issues.SearchOption{Keyword: "login", ListOptions: page}, 20},
		{"FilteredMilestoneAssigned", c.owner, issues.SearchOption{Milestones: []string{"v1"}, Assigned: true, ListOptions: page}, 20},
		{"FilteredOwner", c.viewer, issues.SearchOption{Owner: "owner", State: issues.StateClosed, ListOptions: page}, 20},
		{"NoVisibleRepos", c.nobody, issues.SearchOption{ListOptions: page}, 0},
	} {
		for _, cold := range []bool{false, true} {
			name := bc.name
			if cold {
				name += "-cold"
			}
			b.Run(name, func(b *testing.B) {
				cpu := startCPU()
				for b.Loop() {
					if cold {
						if err := c.db.Issues().Update(ctx, func(issues.Tx) error { return nil }); err != nil {
							b.Fatal(err)
						}
					}
					list, total, err := c.svc.Search(ctx, bc.actor, bc.opt)
					if err != nil {
						b.Fatal(err)
					}
					if len(list) != bc.want || bc.want == 0 && total != 0 {
						b.Fatalf("got %d of %d, want %d", len(list), total, bc.want)
					}
				}
				cpu.report(b)
			})
		}
	}
}

// BenchmarkListIssues is one repository's issue list through the service,
// 50 per page, every issue with its labels, milestone and assignees.
func BenchmarkListIssues(b *testing.B) {
	c := newSQLCorpus(b, 1000, 100_000)
	ctx := context.Background()
	opt := issues.ListIssuesOption{State: issues.StateAll, ListOptions: forge.ListOptions{Page: 1, Limit: 50}}
	cpu := startCPU()
	defer cpu.report(b)
	for b.Loop() {
		list, _, err := c.svc.List(ctx, c.owner, "owner", c.repoNames[7], opt)
		if err != nil {
			b.Fatal(err)
		}
		if len(list) != 50 {
			b.Fatalf("got %d", len(list))
		}
	}
}

// TestIssueListStatements counts the SQL statements of a page of the
// repository list and of the search: a page of fifty costs what a page of
// one does (no statement per issue), and a search by a user who sees no
// repository runs no issue statement at all (the repository listing
// only).
func TestIssueListStatements(t *testing.T) {
	t.Parallel()
	c := newSQLCorpus(t, 20, 2000)
	ctx := context.Background()
	var n atomic.Int64
	// Each count starts after a write has ended, so that the store's
	// search caches (which serve a search again at the same write
	// generation) answer nothing: the statements counted are a first
	// search's.
	count := func(fn func() int) (int64, int) {
		require.NoError(t, c.db.Issues().Update(ctx, func(issues.Tx) error { return nil }))
		n.Store(0)
		c.db.CountStatements(&n)
		defer c.db.CountStatements(nil)
		got := fn()
		return n.Load(), got
	}
	list := func(limit int) func() int {
		return func() int {
			l, _, err := c.svc.List(ctx, c.owner, "owner", c.repoNames[4], issues.ListIssuesOption{State: issues.StateAll,
				ListOptions: forge.ListOptions{Page: 1, Limit: limit}})
			require.NoError(t, err)
			return len(l)
		}
	}
	search := func(actor forge.Actor, limit int) func() int {
		return func() int {
			l, _, err := c.svc.Search(ctx, actor, issues.SearchOption{State: issues.StateAll, ListOptions: forge.ListOptions{Page: 1, Limit: limit}})
			require.NoError(t, err)
			return len(l)
		}
	}
	// Every issue of repo4 is in its milestone.
	one, got := count(list(1))
	require.Equal(t, 1, got)
	fifty, got := count(list(50))
	require.Equal(t, 50, got)
	assert.Equal(t, one, fifty, "statements of a list page of 1 and of 50")
	assert.LessOrEqual(t, fifty, int64(12), "statements of a list page")
	listPage := fifty

	// Two issues, one in a milestone: every kind of row is on the page.
	two, got := count(search(c.viewer, 2))
	require.Equal(t, 2, got)
	fifty, got = count(search(c.viewer, 50))
	require.Equal(t, 50, got)
	assert.Equal(t, two, fifty, "statements of a search page of 2 and of 50")
	assert.LessOrEqual(t, fifty, int64(16), "statements of a search page")

	// The repository condition alone (the search's first read): a search
	// by a user who sees nothing runs it and no issue statement.
	condOnly, _ := count(func() int {
		var n int
		require.NoError(t, c.db.Issues().View(ctx, func(tx issues.Tx) error {
			is, ps, err := tx.SearchableRepos(ctx, c.nobody, 0)
			n = len(is) + len(ps)
			return err
		}))
		return n
	})
	none, got := count(search(c.nobody, 50))
	assert.Equal(t, 0, got)
	assert.Equal(t, condOnly, none, "a search with no visible repository runs no issue statement")
	repoOnly, _ := count(func() int {
		v, err := c.repos.IssueRepos(ctx, c.nobody, "", "")
		require.NoError(t, err)
		return len(v)
	})
	assert.LessOrEqual(t, none, repoOnly, "the condition costs no more than listing the repositories")
	t.Logf("statements: list page %d, search page %d, empty search %d", listPage, fifty, none)
}

// cpuClock measures the CPU time the process spends (user and system):
// on a machine shared with other work, wall time per operation measures
// the neighbours as much as the query; the CPU time of a single-goroutine
// benchmark is the operation's own cost (and its garbage collection).
type cpuClock struct{ start time.Duration }

func cpuNow() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func startCPU() cpuClock { return cpuClock{start: cpuNow()} }

// report adds the CPU milliseconds per operation to the benchmark's line.
func (c cpuClock) report(b *testing.B) {
	if b.N > 0 {
		b.ReportMetric(float64(cpuNow()-c.start)/float64(b.N)/1e6, "cpu-ms/op")
	}
}
