package issues_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/issues"
	"github.com/hearthforge/hearth/storage/sqlite"
)

// TestMergeSurvivesStoreFailure: the store failing once while a merge
// marks its pull request merged (after the base branch moved) is retried:
// the merge answers success and the pull request is merged. When the rows
// could not be written at all (the branch holds the head, the pull
// request is open), the next merge attempt marks it merged, as Forgejo's
// manuallyMerged check, and moves nothing.
func TestMergeSurvivesStoreFailure(t *testing.T) {
	t.Parallel()
	e := newPullEnvSQL(t)
	db := e.store.(*sqlite.DB)
	ann := e.user("ann")
	r := e.repo(ann, "proj", forge.SHA1)
	for _, b := range []string{"f1", "f2", "f3"} {
		e.commit(ann, r, "main", b, b+"\n", op("create", b+".txt", b+"\n"))
	}
	merge := func(index int64) error {
		return e.svc.MergePull(e.ctx, ann, "ann", "proj", index, issues.MergePullOption{Do: issues.MergeStyleMerge})
	}

	for k, b := range []string{"f1", "f2"} {
		pr := e.pull(ann, r, b, "main", b)
		before := e.tip(r, "main")
		db.FailStatement(int64(k + 1))
		require.NoError(t, merge(pr.Issue.Index), "statement %d failed once", k+1)
		assert.False(t, db.Armed(), "the fault fired")
		db.FailStatement(0)
		v := e.get(ann, r, pr.Issue.Index)
		assert.True(t, v.Pull.HasMerged, b)
		assert.True(t, v.Issue.IsClosed, b)
		assert.NotEqual(t, before, e.tip(r, "main"))
		assert.Equal(t, e.tip(r, "main"), v.Pull.MergedCommitID)
	}

	// The branch merged, the rows never written.
	pr := e.pull(ann, r, "f3", "main", "f3")
	base := e.tip(r, "main")
	tip, err := e.git.Merge(e.ctx, r.ID, issues.MergeCommand{Style: issues.MergeStyleMerge, Branch: "main", Base: base,
		Head: pr.Pull.HeadCommitID, Message: "merged, rows lost\n", Author: repos.Signature{Name: "A", Email: "a@example.com"},
		Committer: repos.Signature{Name: "A", Email: "a@example.com"}})
	require.NoError(t, err)
	assert.False(t, e.get(ann, r, pr.Issue.Index).Pull.HasMerged, "the store knows nothing yet")
	err = merge(pr.Issue.Index)
	require.ErrorIs(t, err, issues.ErrMergeNotAllowed, "merged already")
	assert.Equal(t, tip, e.tip(r, "main"), "nothing merged twice")
	v := e.get(ann, r, pr.Issue.Index)
	assert.True(t, v.Pull.HasMerged)
	assert.True(t, v.Issue.IsClosed)
	assert.Equal(t, issues.PullManuallyMerged, v.Pull.Status)
}
