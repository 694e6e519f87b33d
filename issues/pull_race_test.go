package issues_test

import (
	"errors"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/issues"
)

// TestPullConcurrentCreateAndMerge: of concurrent creations for one pair
// one succeeds (the others 409); of concurrent merges of one pull request
// one succeeds and the branch gets one merge commit.
func TestPullConcurrentCreateAndMerge(t *testing.T) {
	t.Parallel()
	e := newPullEnv(t)
	ann := e.user("ann")
	r := e.repo(ann, "proj", forge.SHA1)
	e.commit(ann, r, "main", "feat", "feat\n", op("create", "c.txt", "c\n"))
	e.commit(ann, r, "", "main", "main\n", op("create", "m.txt", "m\n"))
	base := e.tip(r, "main")
	const n = 4
	errs := make([]error, n)
	var wg sync.WaitGroup
	for k := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[k] = e.svc.CreatePull(e.ctx, ann, "ann", "proj", issues.CreatePullOption{Head: "feat", Base: "main", Title: "x"})
		}()
	}
	wg.Wait()
	ok := 0
	for _, err := range errs {
		if err == nil {
			ok++
		} else {
			assert.ErrorIs(t, err, forge.ErrConflict)
		}
	}
	assert.Equal(t, 1, ok)
	list, _, err := e.svc.ListPulls(e.ctx, ann, "ann", "proj", issues.ListPullsOption{State: issues.StateAll})
	require.NoError(t, err)
	require.Len(t, list, 1)
	index := list[0].Issue.Index

	for k := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[k] = e.svc.MergePull(e.ctx, ann, "ann", "proj", index, issues.MergePullOption{Do: issues.MergeStyleMerge})
		}()
	}
	wg.Wait()
	ok = 0
	for _, err := range errs {
		if err == nil {
			ok++
		} else {
			assert.True(t, errorsIsAny(err, forge.ErrConflict, issues.ErrMergeNotAllowed), "%v", err)
		}
	}
	assert.Equal(t, 1, ok)
	assert.Equal(t, "1", e.gitCLI(r, "rev-list", "--count", "--merges", base+"..main"))
	v := e.get(ann, r, index)
	assert.True(t, v.Pull.HasMerged)
	assert.Equal(t, e.tip(r, "main"), v.Pull.MergedCommitID)
}

func errorsIsAny(err error, targets ...error) bool {
	for _, t := range targets {
		if errors.Is(err, t) {
			return true
		}
	}
	return false
}
