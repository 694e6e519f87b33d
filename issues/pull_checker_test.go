package issues_test

import (
	"context"
	"encoding/json"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/issues"
)

// commitQuiet writes a commit on branch through the git layer only: no
// push listener is told (a ref move whose consequences have not run).
func (e *pullEnv) commitQuiet(actor forge.Actor, r *forge.Repository, branch, msg string, ops ...repos.FileOp) string {
	e.t.Helper()
	sig := repos.Signature{Name: actor.User.Name, Email: actor.User.Name + "@example.com", When: e.clock.Now()}
	c, err := e.git.Apply(e.ctx, r.ID, repos.ChangeSet{Branch: branch, Message: msg, Files: ops, Author: sig, Committer: sig})
	require.NoError(e.t, err)
	e.clock.Step(time.Minute)
	return c.ID
}

// checkCounter counts the checks of each pull request (by issue id).
type checkCounter struct {
	mu sync.Mutex
	n  map[forge.ID]int
}

func countChecks(svc *issues.Service) *checkCounter {
	c := &checkCounter{n: map[forge.ID]int{}}
	issues.SetCheckHook(svc, func(_ context.Context, id forge.ID) {
		c.mu.Lock()
		c.n[id]++
		c.mu.Unlock()
	})
	return c
}

func (c *checkCounter) of(id forge.ID) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n[id]
}

func (c *checkCounter) total() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, v := range c.n {
		n += v
	}
	return n
}

// waitFor polls cond until it holds or the deadline passes.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestPullCheckerCoalescesPerPullRequest: pushes to the base branch do not
// recompute the pull requests based on it; they are marked checking and
// queued, each once however many pushes queued it, and checked once with
// the state of the last push.
func TestPullCheckerCoalescesPerPullRequest(t *testing.T) {
	t.Parallel()
	e := newPullEnvSQL(t)
	ann := e.user("ann")
	r := e.repo(ann, "proj", forge.SHA1)
	var pulls []*issues.PullView
	for _, b := range []string{"f1", "f2", "f3"} {
		e.commit(ann, r, "main", b, b+"\n", op("create", b+".txt", b+"\n"))
		pulls = append(pulls, e.pull(ann, r, b, "main", b))
	}
	for _, v := range pulls {
		require.Equal(t, issues.PullMergeable, v.Pull.Status)
	}
	e.late.queueOnly = true
	checks := countChecks(e.svc)
	const pushes = 5
	for i := range pushes {
		e.commit(ann, r, "", "main", "base\n", op("create", "base.txt", string(rune('a'+i))+"\n"))
	}
	for _, v := range pulls {
		got := e.get(ann, r, v.Issue.Index)
		assert.Equal(t, issues.PullChecking, got.Pull.Status, "a push to the base only queues the check")
		assert.False(t, got.Pull.Mergeable())
		assert.Zero(t, got.Pull.CommitsBehind, "not recomputed in the push")
	}
	assert.Zero(t, checks.total())

	require.NoError(t, e.svc.CheckPending(e.ctx))
	for _, v := range pulls {
		assert.Equal(t, 1, checks.of(v.Issue.ID), "queued %d times, checked once", pushes)
		got := e.get(ann, r, v.Issue.Index)
		assert.Equal(t, issues.PullMergeable, got.Pull.Status)
		assert.Equal(t, pushes, got.Pull.CommitsBehind, "checked with the last push's state")
	}
	require.NoError(t, e.svc.CheckPending(e.ctx))
	assert.Equal(t, len(pulls), checks.total(), "nothing is left queued")
}

// TestPullCheckerBoundedWorkers: Run checks with CheckWorkers workers at
// most, and the push that queued the checks does not wait for them.
func TestPullCheckerBoundedWorkers(t *testing.T) {
	t.Parallel()
	const workers, n = 2, 6
	e := newPullEnvSQL(t, func(pc *issues.PullConfig) { pc.CheckWorkers = workers })
	ann := e.user("ann")
	r := e.repo(ann, "proj", forge.SHA1)
	for i := range n {
		b := "f" + string(rune('a'+i))
		e.commit(ann, r, "main", b, b+"\n", op("create", b+".txt", b+"\n"))
		e.pull(ann, r, b, "main", b)
	}
	e.late.queueOnly = true
	var active, peak, done atomic.Int64
	release := make(chan struct{})
	issues.SetCheckHook(e.svc, func(ctx context.Context, _ forge.ID) {
		a := active.Add(1)
		for {
			p := peak.Load()
			if a <= p || peak.CompareAndSwap(p, a) {
				break
			}
		}
		select {
		case <-release:
		case <-ctx.Done():
		}
		active.Add(-1)
		done.Add(1)
	})
	ctx, cancel := context.WithCancel(e.ctx)
	stopped := make(chan error, 1)
	go func() { stopped <- e.svc.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-stopped })

	// The push returns while every check is held.
	e.commit(ann, r, "", "main", "base\n", op("create", "base.txt", "x\n"))
	for i := range n {
		left := int64(n - i)
		waitFor(t, "the workers to take checks", func() bool { return active.Load() >= min(left, workers) })
		assert.LessOrEqual(t, peak.Load(), int64(workers))
		release <- struct{}{}
	}
	waitFor(t, "every check to end", func() bool { return done.Load() == n })
	assert.Equal(t, int64(workers), peak.Load(), "checks ran side by side, never more than the workers")
	waitFor(t, "the results to be written", func() bool {
		for i := int64(1); i <= n; i++ {
			if e.get(ann, r, i).Pull.Status != issues.PullMergeable {
				return false
			}
		}
		return true
	})
}

// TestPullCheckerRestartRequeuesChecking: the checking status is the
// queue's durable marker: a service that starts again (its predecessor's
// queue lost) checks, when it runs, the pull requests left checking.
func TestPullCheckerRestartRequeuesChecking(t *testing.T) {
	t.Parallel()
	e := newPullEnvSQL(t)
	ann := e.user("ann")
	r := e.repo(ann, "proj", forge.SHA1)
	e.commit(ann, r, "main", "feat", "feat\n", op("create", "c.txt", "c\n"))
	e.pull(ann, r, "feat", "main", "feat")
	e.late.queueOnly = true
	e.commit(ann, r, "", "main", "base\n", op("create", "base.txt", "x\n"))
	require.Equal(t, issues.PullChecking, e.get(ann, r, 1).Pull.Status)

	e.restart() // the queue is gone; the marker is stored
	checks := countChecks(e.svc)
	require.NoError(t, e.svc.CheckPending(e.ctx))
	assert.Zero(t, checks.total(), "a new service's queue starts empty")
	ctx, cancel := context.WithCancel(e.ctx)
	stopped := make(chan error, 1)
	go func() { stopped <- e.svc.Run(ctx) }()
	waitFor(t, "the pull request to be checked", func() bool { return e.get(ann, r, 1).Pull.Status == issues.PullMergeable })
	cancel()
	require.NoError(t, <-stopped)
	assert.Equal(t, 1, checks.of(e.get(ann, r, 1).Issue.ID))
	assert.Equal(t, 1, e.get(ann, r, 1).Pull.CommitsBehind)
}

// TestPullMergeNeverCountsApprovalsOfAnotherHead is the class "an
// approval made on another head than the one merged counts": with main
// requiring one approval (dismissed or ignored when stale), bob approves,
// then the head branch moves through the git layer alone (no push
// listener: a ref move whose consequences have not run). The merge is
// refused and the base does not move; once the checker has run, the move
// is recorded (push comment, approval stale and, under
// dismiss_stale_approvals, dismissed) and the merge is refused for want of
// approvals. With neither setting, Forgejo counts stale approvals: the
// merge then goes through, after the move was recorded.
func TestPullMergeNeverCountsApprovalsOfAnotherHead(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name            string
		dismiss, ignore bool
	}{{"dismiss", true, false}, {"ignore", false, true}, {"neither", false, false}} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			e := newPullEnvSQL(t)
			ann, bob, cat := e.user("ann"), e.user("bob"), e.user("cat")
			r := e.repo(ann, "proj", forge.SHA1)
			require.NoError(t, e.repos.AddCollaborator(e.ctx, ann, "ann", "proj", "bob", forge.AccessModeWrite))
			require.NoError(t, e.repos.AddCollaborator(e.ctx, ann, "ann", "proj", "cat", forge.AccessModeWrite))
			_, err := e.repos.CreateProtection(e.ctx, ann, "ann", "proj", repos.BranchProtection{RuleName: "main",
				RequiredApprovals: 1, DismissStaleApprovals: c.dismiss, IgnoreStaleApprovals: c.ignore})
			require.NoError(t, err)
			e.commit(cat, r, "main", "feat", "feat\n", op("create", "c.txt", "c\n"))
			e.pull(cat, r, "feat", "main", "feat")
			rv, err := e.svc.CreateReview(e.ctx, bob, "ann", "proj", 1, issues.CreateReviewOption{Event: issues.ReviewStateApproved})
			require.NoError(t, err)
			reviewed := e.get(ann, r, 1).Pull.HeadCommitID
			require.Equal(t, reviewed, rv.Review.CommitID)
			base := e.tip(r, "main")

			unreviewed := e.commitQuiet(cat, r, "feat", "sneak\n", op("create", "evil.txt", "evil\n"))
			err = e.svc.MergePull(e.ctx, ann, "ann", "proj", 1, issues.MergePullOption{Do: issues.MergeStyleMerge})
			require.ErrorIs(t, err, issues.ErrMergeNotAllowed)
			assert.Equal(t, "Please try again later", err.Error())
			assert.Equal(t, base, e.tip(r, "main"), "nothing merged")
			assert.Equal(t, issues.PullChecking, e.get(ann, r, 1).Pull.Status, "queued for the checker")

			require.NoError(t, e.svc.CheckPending(e.ctx))
			v := e.get(ann, r, 1)
			assert.Equal(t, unreviewed, v.Pull.HeadCommitID)
			got, err := e.svc.GetReview(e.ctx, ann, "ann", "proj", 1, rv.Review.ID)
			require.NoError(t, err)
			assert.True(t, got.Review.Stale)
			assert.Equal(t, c.dismiss, got.Review.Dismissed)
			tl, _, err := e.svc.Timeline(e.ctx, ann, "ann", "proj", 1, issues.ListCommentsOption{})
			require.NoError(t, err)
			var pushed []any
			for _, cv := range tl {
				if cv.Comment.Type == issues.CommentPullPush {
					var m map[string]any
					require.NoError(t, json.Unmarshal([]byte(cv.Comment.Content), &m))
					pushed = append(pushed, m["commit_ids"].([]any)...)
					assert.Equal(t, issues.Ghost().ID, cv.Comment.PosterID, "the pusher is not known to the checker")
				}
			}
			assert.Equal(t, []any{unreviewed}, pushed, "the move is recorded once")

			err = e.svc.MergePull(e.ctx, ann, "ann", "proj", 1, issues.MergePullOption{Do: issues.MergeStyleMerge})
			if !c.dismiss && !c.ignore {
				require.NoError(t, err)
				return
			}
			require.ErrorIs(t, err, issues.ErrMergeNotAllowed)
			assert.Equal(t, "not allowed to merge [reason: Does not have enough approvals]", err.Error())
			assert.Equal(t, base, e.tip(r, "main"), "the unreviewed commit did not land")
		})
	}
}

// TestProtectionRefusalCountsApprovalsOfTheMergedHead: when the reviews'
// flags were computed against another head than the one merged, under
// dismiss_stale_approvals or ignore_stale_approvals an approval counts only
// if it was made on the merged head; with the flags up to date (the same
// head) they are read as they are (an approval kept through a rebase that
// did not change the content still counts, as Forgejo).
func TestProtectionRefusalCountsApprovalsOfTheMergedHead(t *testing.T) {
	t.Parallel()
	approval := func(commit string) *issues.Review {
		return &issues.Review{Type: issues.ReviewApprove, Official: true, CommitID: commit}
	}
	for _, c := range []struct {
		name            string
		dismiss, ignore bool
		head, reviewed  string
		review          *issues.Review
		want            string
	}{
		{"dismiss, flags of another head", true, false, "new", "old", approval("old"), "Does not have enough approvals"},
		{"ignore, flags of another head", false, true, "new", "old", approval("old"), "Does not have enough approvals"},
		{"neither: stale approvals count", false, false, "new", "old", approval("old"), ""},
		{"dismiss, approval of the merged head", true, false, "new", "old", approval("new"), ""},
		{"dismiss, flags up to date (content kept)", true, false, "new", "new", approval("old"), ""},
		{"ignore, flags up to date (content kept)", false, true, "new", "new", approval("old"), ""},
		{"no head given", true, false, "", "old", approval("old"), ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			rule := &repos.BranchProtection{RequiredApprovals: 1, DismissStaleApprovals: c.dismiss, IgnoreStaleApprovals: c.ignore}
			list := []*issues.Review{c.review}
			got := issues.ProtectionRefusal(issues.MergeChecks{Rule: rule, Reviews: list, Head: c.head, ReviewedHead: c.reviewed})
			assert.Equal(t, c.want, got)
			assert.False(t, c.review.Stale || c.review.Dismissed, "the reviews given are not changed")
		})
	}
}

// TestPullMergeOnCheckingRecomputes: a pull request left checking (its
// base moved, the check still queued) is merged on the state computed by
// the merge, never on the stored one: a base that now conflicts refuses
// the merge, one that does not lets it through.
func TestPullMergeOnCheckingRecomputes(t *testing.T) {
	t.Parallel()
	e := newPullEnvSQL(t)
	ann := e.user("ann")
	r := e.repo(ann, "proj", forge.SHA1)
	e.commit(ann, r, "main", "feat", "feat\n", op("update", "a.txt", "1\nfeat\n3\n"))
	e.commit(ann, r, "main", "other", "other\n", op("create", "o.txt", "o\n"))
	e.pull(ann, r, "feat", "main", "feat")
	e.pull(ann, r, "other", "main", "other")
	e.late.queueOnly = true
	e.commit(ann, r, "", "main", "conflict\n", op("update", "a.txt", "1\nmain\n3\n"))
	require.Equal(t, issues.PullChecking, e.get(ann, r, 1).Pull.Status)
	base := e.tip(r, "main")
	err := e.svc.MergePull(e.ctx, ann, "ann", "proj", 1, issues.MergePullOption{Do: issues.MergeStyleMerge})
	require.ErrorIs(t, err, issues.ErrMergeNotAllowed)
	assert.Equal(t, "Please try again later", err.Error())
	assert.Equal(t, base, e.tip(r, "main"))
	assert.Equal(t, issues.PullChecking, e.get(ann, r, 1).Pull.Status, "a check still queued keeps the marker")
	require.Equal(t, issues.PullChecking, e.get(ann, r, 2).Pull.Status)
	require.NoError(t, e.svc.MergePull(e.ctx, ann, "ann", "proj", 2, issues.MergePullOption{Do: issues.MergeStyleMerge}))
	require.NoError(t, e.svc.CheckPending(e.ctx))
	assert.Equal(t, issues.PullConflict, e.get(ann, r, 1).Pull.Status)
}

// TestPullAfterPushSyncsMovedHeadsAtOnce: the pull requests whose head a
// push moved are synchronised by AfterPush itself, with nothing run by the
// checker: the head, a push comment by the pusher, the approval stale and
// dismissed, the state recomputed.
func TestPullAfterPushSyncsMovedHeadsAtOnce(t *testing.T) {
	t.Parallel()
	e := newPullEnvSQL(t)
	ann, bob := e.user("ann"), e.user("bob")
	r := e.repo(ann, "proj", forge.SHA1)
	require.NoError(t, e.repos.AddCollaborator(e.ctx, ann, "ann", "proj", "bob", forge.AccessModeWrite))
	_, err := e.repos.CreateProtection(e.ctx, ann, "ann", "proj", repos.BranchProtection{RuleName: "main",
		RequiredApprovals: 1, DismissStaleApprovals: true})
	require.NoError(t, err)
	e.commit(ann, r, "main", "feat", "feat\n", op("create", "c.txt", "c\n"))
	e.pull(ann, r, "feat", "main", "feat")
	rv, err := e.svc.CreateReview(e.ctx, bob, "ann", "proj", 1, issues.CreateReviewOption{Event: issues.ReviewStateApproved})
	require.NoError(t, err)
	e.late.queueOnly = true
	checks := countChecks(e.svc)
	head := e.commit(ann, r, "", "feat", "more\n", op("create", "d.txt", "d\n"))
	v := e.get(ann, r, 1)
	assert.Equal(t, head, v.Pull.HeadCommitID)
	assert.Equal(t, issues.PullMergeable, v.Pull.Status)
	assert.Equal(t, 2, v.Pull.CommitsAhead)
	got, err := e.svc.GetReview(e.ctx, ann, "ann", "proj", 1, rv.Review.ID)
	require.NoError(t, err)
	assert.True(t, got.Review.Dismissed)
	tl, _, err := e.svc.Timeline(e.ctx, ann, "ann", "proj", 1, issues.ListCommentsOption{})
	require.NoError(t, err)
	n := 0
	for _, cv := range tl {
		if cv.Comment.Type == issues.CommentPullPush {
			n++
			assert.Equal(t, ann.User.ID, cv.Comment.PosterID)
		}
	}
	assert.Equal(t, 1, n)
	require.NoError(t, e.svc.CheckPending(e.ctx))
	assert.Zero(t, checks.total(), "nothing was left to the checker")
}

// TestPullCheckerFailedCheckLeavesError: a check that cannot be made (the
// head branch deleted behind the service's back) leaves the pull request
// PullError, as Forgejo's testPR, not checking forever.
func TestPullCheckerFailedCheckLeavesError(t *testing.T) {
	t.Parallel()
	e := newPullEnvSQL(t)
	ann := e.user("ann")
	r := e.repo(ann, "proj", forge.SHA1)
	e.commit(ann, r, "main", "feat", "feat\n", op("create", "c.txt", "c\n"))
	e.pull(ann, r, "feat", "main", "feat")
	e.late.queueOnly = true
	e.gitCLI(r, "update-ref", "-d", "refs/heads/feat")
	e.commit(ann, r, "", "main", "base\n", op("create", "base.txt", "x\n"))
	require.Equal(t, issues.PullChecking, e.get(ann, r, 1).Pull.Status)
	require.NoError(t, e.svc.CheckPending(e.ctx))
	assert.Equal(t, issues.PullError, e.get(ann, r, 1).Pull.Status)
}
