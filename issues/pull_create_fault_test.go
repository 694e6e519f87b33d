package issues_test

import (
	"context"
	"errors"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/issues"
	"github.com/hearthforge/hearth/storage/gitstore"
	"github.com/hearthforge/hearth/storage/sqlite"
)

// failingHeads is gitstore with SyncHead failing while fail is set.
type failingHeads struct {
	*gitstore.Store
	fail atomic.Bool
}

func (f *failingHeads) SyncHead(ctx context.Context, base, head forge.ID, branch, ref string) (string, error) {
	if f.fail.Load() {
		return "", errors.New("injected SyncHead failure")
	}
	return f.Store.SyncHead(ctx, base, head, branch, ref)
}

// TestCreatePullRowsAndRefsTogether: creating a pull request writes its
// rows and refs/pull/N/head together or not at all. With SyncHead failing
// no row is written; with each write statement of the creation failing in
// turn (SQLite fault injection) the pull requests listed and the
// refs/pull/*/head of the repository stay the same set, until the
// creation goes through.
func TestCreatePullRowsAndRefsTogether(t *testing.T) {
	t.Parallel()
	var fh *failingHeads
	e := newPullEnvSQL(t, func(pc *issues.PullConfig) {
		fh = &failingHeads{Store: pc.Git.(*gitstore.Store)}
		pc.Git = fh
	})
	db := e.store.(*sqlite.DB)
	ann := e.user("ann")
	r := e.repo(ann, "proj", forge.SHA1)
	e.commit(ann, r, "main", "feat", "feat\n", op("update", "a.txt", "x\n"))

	state := func() (pulls, refs []string) {
		list, _, err := e.svc.ListPulls(e.ctx, ann, "ann", "proj", issues.ListPullsOption{State: issues.StateAll})
		require.NoError(t, err)
		for _, v := range list {
			pulls = append(pulls, strconv.FormatInt(v.Issue.Index, 10))
		}
		for _, line := range strings.Split(e.gitCLI(r, "for-each-ref", "--format=%(refname)", "refs/pull/"), "\n") {
			if n, ok := strings.CutPrefix(line, "refs/pull/"); ok {
				refs = append(refs, strings.TrimSuffix(n, "/head"))
			}
		}
		sort.Strings(pulls)
		sort.Strings(refs)
		return pulls, refs
	}
	create := func() error {
		_, err := e.svc.CreatePull(e.ctx, ann, "ann", "proj", issues.CreatePullOption{Head: "feat", Base: "main", Title: "t"})
		return err
	}

	fh.fail.Store(true)
	require.Error(t, create())
	fh.fail.Store(false)
	pulls, refs := state()
	assert.Empty(t, pulls, "git failed: no row")
	assert.Empty(t, refs)

	for n := int64(1); ; n++ {
		require.Less(t, n, int64(200), "the creation never went through")
		db.FailStatement(n)
		err := create()
		armed := db.Armed()
		db.FailStatement(0)
		pulls, refs := state()
		assert.Equal(t, pulls, refs, "statement %d: the pull requests and their refs", n)
		if !armed {
			require.ErrorIs(t, err, sqlite.ErrInjected, "statement %d", n)
			assert.Empty(t, pulls, "statement %d failed: nothing kept", n)
			continue
		}
		require.NoError(t, err)
		assert.Len(t, pulls, 1)
		break
	}
}
