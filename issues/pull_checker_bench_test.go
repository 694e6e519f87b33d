package issues_test

import (
	"bytes"
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/issues"
)

// benchBase is a repository on SQLite whose main branch has n open pull
// requests, each from its own real branch (all at one commit that main
// lacks), stored as CreatePull stores them; the push listener only queues
// the checks (nothing runs them), so that what is timed is the request.
func benchBase(b *testing.B, n int) (*pullEnv, forge.Actor, *forge.Repository) {
	b.Helper()
	e := newPullEnvSQL(b)
	e.late.queueOnly = true
	ann := e.user("ann")
	r := e.repo(ann, "proj", forge.SHA1)
	head := e.commit(ann, r, "main", "bulk", "bulk\n", op("create", "bulk.txt", "bulk\n"))
	var refs strings.Builder
	for i := range n {
		// The head branch, and refs/pull/N/head as SyncHead makes it (the
		// pull requests take the indexes 1..n).
		fmt.Fprintf(&refs, "create refs/heads/bulk-%d %s\ncreate refs/pull/%d/head %s\n", i, head, i+1, head)
	}
	cmd := exec.Command("git", "-C", e.git.Path(r.ID), "update-ref", "--stdin")
	cmd.Stdin = strings.NewReader(refs.String())
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	require.NoError(b, cmd.Run(), stderr.String())
	// As a repository's refs are after git gc (the loose refs of the
	// iterations stay loose).
	e.gitCLI(r, "pack-refs", "--all")
	base := e.tip(r, "main")
	now := e.clock.Now()
	require.NoError(b, e.store.Issues().Update(e.ctx, func(tx issues.Tx) error {
		for i := range n {
			idx, err := tx.NextIssueIndex(e.ctx, r.ID)
			if err != nil {
				return err
			}
			is := &issues.Issue{RepoID: r.ID, Index: idx, PosterID: ann.User.ID, Title: fmt.Sprintf("bulk %d", i),
				IsPull: true, Created: now, Updated: now}
			if err := tx.CreateIssue(e.ctx, is); err != nil {
				return err
			}
			if err := tx.CreatePull(e.ctx, &issues.PullRequest{IssueID: is.ID, Index: idx, BaseRepoID: r.ID,
				HeadRepoID: r.ID, BaseBranch: "main", HeadBranch: fmt.Sprintf("bulk-%d", i), HeadCommitID: head,
				MergeBase: base, Status: issues.PullMergeable, CommitsAhead: 1, Additions: 1, ChangedFiles: 1}); err != nil {
				return err
			}
		}
		return nil
	}))
	return e, ann, r
}

// BenchmarkPullMergeWithOpenPulls times a merge into main (a merge
// commit, the pull request closed, main's move told to the pull requests)
// with 10 and 1,000 other open pull requests based on main: the pull
// requests based on main are queued for the checker in one write, so the
// merge's cost does not grow with them.
func BenchmarkPullMergeWithOpenPulls(b *testing.B) {
	for _, n := range []int{10, 1000} {
		b.Run(fmt.Sprintf("open=%d", n), func(b *testing.B) {
			e, ann, r := benchBase(b, n)
			b.ResetTimer()
			for i := range b.N {
				b.StopTimer()
				br := fmt.Sprintf("m-%d", i)
				e.commit(ann, r, "main", br, "m\n", op("create", br+".txt", "m\n"))
				v := e.pull(ann, r, br, "main", br)
				b.StartTimer()
				err := e.svc.MergePull(e.ctx, ann, "ann", "proj", v.Issue.Index, issues.MergePullOption{Do: issues.MergeStyleMerge})
				b.StopTimer()
				require.NoError(b, err)
				require.Equal(b, issues.PullChecking, e.get(ann, r, 1).Pull.Status, "the open pulls were queued")
				b.StartTimer()
			}
		})
	}
}

// BenchmarkPullAfterPushToBase times AfterPush for a one-commit push to
// main with 10 and 1,000 open pull requests based on it.
func BenchmarkPullAfterPushToBase(b *testing.B) {
	for _, n := range []int{10, 1000} {
		b.Run(fmt.Sprintf("open=%d", n), func(b *testing.B) {
			e, ann, r := benchBase(b, n)
			b.ResetTimer()
			for i := range b.N {
				b.StopTimer()
				old := e.tip(r, "main")
				id := e.commitQuiet(ann, r, "main", "push\n", op("create", fmt.Sprintf("p%d.txt", i), "p\n"))
				up := []repos.RefUpdate{{Ref: "refs/heads/main", OldID: old, NewID: id}}
				b.StartTimer()
				err := e.ports.AfterPush(e.ctx, ann, r, up)
				b.StopTimer()
				require.NoError(b, err)
				b.StartTimer()
			}
		})
	}
}
