package httpapi_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/issues"
)

// TestPullRetargetEndToEnd pushes b1 and b2 with the git CLI, opens PR1
// (b1→main) and PR2 (b2→b1), and merges PR1 with
// delete_branch_after_merge: b1 is gone and PR2 now targets main (Forgejo's
// RETARGET_CHILDREN_ON_MERGE). With retargeting off, PR2 is closed and
// reopening it is refused since its base is gone.
func TestPullRetargetEndToEnd(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		retarget bool
	}{{"retarget", true}, {"close", false}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newPullEnv(t, "", func(c *issues.Config) { c.Pulls.NoRetargetChildrenOnMerge = !tc.retarget })
			w := e.seed("")
			e.newPull(e.alice, "b1", "main", "PR1")
			e.newPull(e.alice, "b2", "b1", "PR2")
			e.send(e.alice, "POST", e.pullPath(1, "/merge"), map[string]any{"Do": "merge", "delete_branch_after_merge": true}, 200)
			w.fetch()
			assert.NotContains(t, w.git("branch", "-r"), "o/b1", "b1 deleted after the merge")
			e.expect(e.do(req{method: "GET", path: e.proj + "/branches/b1", token: e.alice}), 404, "")

			pr2 := e.getPull(2)
			if tc.retarget {
				assert.Equal(t, "open", pr2["state"])
				assert.Equal(t, "main", pr2["base"].(map[string]any)["ref"])
				// Its commits are now those of b2 not in main: b2's own.
				cl := e.send(e.alice, "GET", e.pullPath(2, "/commits"), nil, 200).list(t)
				require.Len(t, cl, 1)
				assert.Equal(t, w.git("rev-parse", "o/b2"), cl[0]["sha"])
				return
			}
			assert.Equal(t, "closed", pr2["state"])
			assert.Equal(t, "b1", pr2["base"].(map[string]any)["ref"])
			e.expect(e.do(req{method: "PATCH", path: e.pullPath(2, ""), token: e.alice, body: map[string]any{"state": "open"}}), 422,
				"The pull request cannot be reopened, because the base branch doesn't exist anymore.")
			assert.Equal(t, "closed", e.getPull(2)["state"])
		})
	}
}

// TestPullRetargetFork: a pull request from bob's fork on its b1 is merged
// with delete_branch_after_merge; the fork's b1 is deleted, alice's b1
// stays, and PR2 (b2→b1 of alice/proj) is neither retargeted nor closed.
func TestPullRetargetFork(t *testing.T) {
	t.Parallel()
	e, w := seededPulls(t)
	e.send(e.bob, "POST", e.proj+"/forks", map[string]any{}, 202)
	fork := e.work("bob", e.bob, "bob", "proj", "")
	fork.git("fetch", "-q", w.dir, "b1")
	fork.git("checkout", "-q", "-b", "b1", "FETCH_HEAD")
	fork.commit("fork change", map[string]string{"fork.txt": "from bob\n"})
	fork.push("+b1")

	pf := e.newPull(e.bob, "bob:b1", "main", "from the fork")
	assert.Equal(t, "bob/proj", pf["head"].(map[string]any)["repo"].(map[string]any)["full_name"])
	e.newPull(e.alice, "b2", "b1", "PR2")
	e.send(e.bob, "POST", e.pullPath(1, "/merge"), map[string]any{"Do": "merge", "delete_branch_after_merge": true}, 200)
	e.expect(e.do(req{method: "GET", path: "/api/v1/repos/bob/proj/branches/b1", token: e.bob}), 404, "")
	e.send(e.alice, "GET", e.proj+"/branches/b1", nil, 200)
	pr2 := e.getPull(2)
	assert.Equal(t, "open", pr2["state"])
	assert.Equal(t, "b1", pr2["base"].(map[string]any)["ref"])
}
