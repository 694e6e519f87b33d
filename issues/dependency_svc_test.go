package issues_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/issues"
)

func closeIssue(e *env, actor forge.Actor, owner, repo string, index int64) error {
	st := issues.StateClosed
	_, err := e.svc.Edit(e.ctx, actor, owner, repo, index, issues.EditIssueOption{State: &st})
	return err
}

// TestDependencyRules: the per-repository checks on the memstore backend:
// the target's repository must have dependencies on, be writable and not
// archived; the closing refusal follows the repository's setting; a
// dependency on a closed issue does not hold a close back; reopening is
// never refused.
func TestDependencyRules(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ann, bob := e.user("ann"), e.user("bob")
	proj := e.repo(ann, "proj", false)
	e.repo(ann, "other", false)
	a := e.issue(ann, "ann", "proj", "a").Issue.Index
	b := e.issue(ann, "ann", "proj", "b").Issue.Index
	c := e.issue(ann, "ann", "other", "c").Issue.Index

	// bob reads both public repositories but writes neither.
	_, err := e.svc.AddDependency(e.ctx, bob, "ann", "proj", a, issues.IssueRef{Owner: "ann", Repo: "other", Index: c})
	assert.ErrorIs(t, err, forge.ErrNotFound, "a reader may not add dependencies")
	e.collab(ann, "proj", bob, forge.AccessModeWrite)
	_, err = e.svc.AddDependency(e.ctx, bob, "ann", "proj", a, issues.IssueRef{Owner: "ann", Repo: "other", Index: c})
	require.NoError(t, err, "writing the dependent issue and reading the blocker is enough")
	// Blocking an issue of ann/other needs writing ann/other.
	_, err = e.svc.AddBlock(e.ctx, bob, "ann", "proj", b, issues.IssueRef{Owner: "ann", Repo: "other", Index: c})
	assert.ErrorIs(t, err, forge.ErrNotFound)
	_, err = e.svc.AddDependency(e.ctx, bob, "ann", "proj", a, issues.IssueRef{Owner: "ann", Repo: "proj", Index: 99})
	assert.ErrorIs(t, err, issues.ErrIssueNotFound)

	err = closeIssue(e, ann, "ann", "proj", a)
	assert.ErrorIs(t, err, issues.ErrDependenciesLeft)
	assert.ErrorIs(t, err, forge.ErrPrecondition)
	// With dependencies off, nothing holds the close back (Forgejo checks
	// only when they are on), and listing them is not found.
	e.setRepo(proj, func(r *forge.Repository) {
		r.InternalTracker = &forge.InternalTracker{EnableTimeTracker: true}
	})
	_, err = e.svc.Dependencies(e.ctx, ann, "ann", "proj", a, forge.ListOptions{})
	assert.ErrorIs(t, err, forge.ErrNotFound)
	_, err = e.svc.AddDependency(e.ctx, ann, "ann", "proj", b, issues.IssueRef{Owner: "ann", Repo: "proj", Index: a})
	assert.ErrorIs(t, err, forge.ErrNotFound, "dependencies off")
	require.NoError(t, closeIssue(e, ann, "ann", "proj", a))
	reopen := issues.StateOpen
	_, err = e.svc.Edit(e.ctx, ann, "ann", "proj", a, issues.EditIssueOption{State: &reopen})
	require.NoError(t, err)
	e.setRepo(proj, func(r *forge.Repository) {
		r.InternalTracker = &forge.InternalTracker{EnableIssueDependencies: true}
	})
	require.NoError(t, closeIssue(e, ann, "ann", "other", c))
	require.NoError(t, closeIssue(e, ann, "ann", "proj", a), "a closed dependency holds nothing back")

	// An archived target repository refuses.
	e.setRepo(proj, func(r *forge.Repository) { r.Archived = true })
	_, err = e.svc.AddDependency(e.ctx, ann, "ann", "proj", b, issues.IssueRef{Owner: "ann", Repo: "proj", Index: a})
	assert.ErrorIs(t, err, forge.ErrArchived, "the dependency routes: mustNotBeArchived")
	_, err = e.svc.AddBlock(e.ctx, ann, "ann", "other", c, issues.IssueRef{Owner: "ann", Repo: "proj", Index: b})
	assert.ErrorIs(t, err, forge.ErrNotFound, "an archived target's repository")
}

// TestTimeTrackerSettings: contributors-only tracking lets the poster and
// the assignees track time but not other readers; tracking off is
// Forgejo's 400.
func TestTimeTrackerSettings(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ann, bob, cy := e.user("ann"), e.user("bob"), e.user("cy")
	proj := e.repo(ann, "proj", false)
	n := e.issue(bob, "ann", "proj", "by bob").Issue.Index

	_, err := e.svc.AddTime(e.ctx, bob, "ann", "proj", n, issues.AddTimeOption{Seconds: 30})
	require.NoError(t, err, "the poster tracks time")
	_, err = e.svc.AddTime(e.ctx, cy, "ann", "proj", n, issues.AddTimeOption{Seconds: 30})
	assert.ErrorIs(t, err, issues.ErrNotPoster, "a reader who is no contributor")
	_, err = e.svc.AddTime(e.ctx, ann, "ann", "proj", n, issues.AddTimeOption{Seconds: -1})
	assert.ErrorIs(t, err, forge.ErrInvalid)

	e.setRepo(proj, func(r *forge.Repository) { r.InternalTracker = &forge.InternalTracker{EnableTimeTracker: true} })
	v, err := e.svc.AddTime(e.ctx, cy, "ann", "proj", n, issues.AddTimeOption{Seconds: 30, Created: time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)})
	require.NoError(t, err, "anyone tracks time when the repository allows it")
	assert.Equal(t, time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC), v.Time.Created)
	assert.Equal(t, "cy", v.User.Name)

	e.setRepo(proj, func(r *forge.Repository) { r.InternalTracker = &forge.InternalTracker{} })
	_, err = e.svc.AddTime(e.ctx, ann, "ann", "proj", n, issues.AddTimeOption{Seconds: 30})
	assert.ErrorIs(t, err, issues.ErrBadRequest)
	_, _, err = e.svc.ListTimes(e.ctx, ann, "ann", "proj", n, issues.TimeListOption{})
	assert.ErrorIs(t, err, forge.ErrNotFound)
	_, _, err = e.svc.ListRepoTimes(e.ctx, ann, "ann", "proj", issues.TimeListOption{})
	assert.ErrorIs(t, err, issues.ErrBadRequest)
	err = e.svc.StartStopwatch(e.ctx, ann, "ann", "proj", n)
	assert.ErrorIs(t, err, issues.ErrNotPoster)
}

func TestSecToTime(t *testing.T) {
	t.Parallel()
	for secs, want := range map[int64]string{0: "", 59: "", 60: "1 minute", 120: "2 minutes", 3600: "1 hour",
		3660: "1 hour 1 minute", 7325: "2 hours 2 minutes"} {
		assert.Equal(t, want, issues.SecToTime(secs), "%d", secs)
	}
}
