package httpapi_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPullStaleApprovals: main needs one approval; bob approves alice's
// pull request, then alice pushes to its head. With
// dismiss_stale_approvals the approval is dismissed and the merge refused;
// with ignore_stale_approvals it is stale, not dismissed, and does not
// count; with neither it is stale and still counts (repos.md §6.4). Pushes
// that keep the content (a rebase onto a moved main, an amended message)
// leave the approval fresh under every setting.
func TestPullStaleApprovals(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name            string
		dismiss, ignore bool
		dismissed       bool
		merge           int
	}{
		{name: "dismiss", dismiss: true, dismissed: true, merge: 405},
		{name: "ignore", ignore: true, merge: 405},
		{name: "neither", merge: 200},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e, w := seededPulls(t)
			w.commit("main moves", map[string]string{"other.txt": "other\n"})
			w.push("main")
			e.send(e.alice, "POST", e.proj+"/branch_protections", map[string]any{"rule_name": "main", "required_approvals": 1,
				"dismiss_stale_approvals": tc.dismiss, "ignore_stale_approvals": tc.ignore}, 201)
			e.newPull(e.alice, "b1", "main", "needs approval")
			e.expect(e.do(req{method: "POST", path: e.pullPath(1, "/merge"), token: e.alice, body: map[string]any{"Do": "merge"}}), 405,
				"not allowed to merge [reason: Does not have enough approvals]")
			rv := e.send(e.bob, "POST", e.pullPath(1, "/reviews"), map[string]any{"event": "APPROVED", "body": "lgtm"}, 200).json(t)
			assert.Equal(t, "APPROVED", rv["state"])
			assert.Equal(t, true, rv["official"])
			assert.Equal(t, false, rv["stale"])
			assert.Equal(t, w.git("rev-parse", "b1"), rv["commit_id"])

			// Pushes that keep the pull request's content (Forgejo's
			// checkIfPRContentChanged): b1 is rebased onto main (which
			// moved before it was protected), then its message is amended.
			// The approval stays fresh.
			w.git("checkout", "-q", "b1")
			w.git("rebase", "-q", "main")
			w.push("+b1")
			w.git("commit", "-q", "--amend", "-m", "b1 change, reworded")
			amended := w.git("rev-parse", "HEAD")
			w.push("+b1")
			assert.Equal(t, amended, e.getPull(1)["head"].(map[string]any)["sha"], "the pushes moved the pull request")
			same := e.send(e.alice, "GET", e.pullPath(1, "/reviews"), nil, 200).list(t)
			require.Len(t, same, 1)
			assert.Equal(t, false, same[0]["stale"], "a rebase or a new message keeps the approval fresh")
			assert.Equal(t, false, same[0]["dismissed"])

			head := w.commit("more", map[string]string{"more.txt": "more\n"})
			w.push("b1")
			assert.Equal(t, head, e.getPull(1)["head"].(map[string]any)["sha"], "the push moved the pull request")
			list := e.send(e.alice, "GET", e.pullPath(1, "/reviews"), nil, 200)
			assert.Equal(t, "1", list.Header.Get("X-Total-Count"))
			reviews := list.list(t)
			require.Len(t, reviews, 1)
			assert.Equal(t, true, reviews[0]["stale"])
			assert.Equal(t, tc.dismissed, reviews[0]["dismissed"])
			r := e.do(req{method: "POST", path: e.pullPath(1, "/merge"), token: e.alice, body: map[string]any{"Do": "merge"}})
			require.Equal(t, tc.merge, r.StatusCode, "%s", r.body)
			assert.Equal(t, tc.merge == 200, e.getPull(1)["merged"])
		})
	}
}
