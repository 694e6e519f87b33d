package httpapi_test

import (
	"context"
	"encoding/base64"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPullMergeNeverCountsApprovalsOfAnotherHead is the class of issue
// 24's "required approvals bypassed by moving a pull request's head
// outside git push": main requires one approval with
// dismiss_stale_approvals; bob approves; alice commits to the head branch
// through the contents API. The merge is refused (405: while the move is
// not recorded, "Please try again later"; once it is, the approval is
// dismissed) and the unreviewed commit never reaches main, whichever way
// the ref move's consequences run.
func TestPullMergeNeverCountsApprovalsOfAnotherHead(t *testing.T) {
	t.Parallel()
	e, w := seededPulls(t)
	e.send(e.alice, "POST", e.proj+"/branch_protections", map[string]any{"rule_name": "main", "required_approvals": 1,
		"dismiss_stale_approvals": true}, 201)
	e.newPull(e.alice, "b1", "main", "needs approval")
	rv := e.send(e.bob, "POST", e.pullPath(1, "/reviews"), map[string]any{"event": "APPROVED", "body": "lgtm"}, 200).json(t)
	require.Equal(t, w.git("rev-parse", "b1"), rv["commit_id"])
	main := w.git("rev-parse", "main")

	e.send(e.alice, "POST", e.proj+"/contents/evil.txt", map[string]any{"branch": "b1", "message": "unreviewed",
		"content": base64.StdEncoding.EncodeToString([]byte("evil\n"))}, 201)
	r := e.do(req{method: "POST", path: e.pullPath(1, "/merge"), token: e.alice, body: map[string]any{"Do": "merge"}})
	require.Equal(t, 405, r.StatusCode, "%s", r.body)
	assert.Contains(t, []string{"Please try again later", "not allowed to merge [reason: Does not have enough approvals]"},
		r.json(t)["message"])
	w.fetch()
	assert.Equal(t, main, w.git("rev-parse", "o/main"), "nothing merged")

	require.NoError(t, e.issues.CheckPending(context.Background()))
	reviews := e.send(e.alice, "GET", e.pullPath(1, "/reviews"), nil, 200).list(t)
	require.Len(t, reviews, 1)
	assert.Equal(t, true, reviews[0]["stale"])
	assert.Equal(t, true, reviews[0]["dismissed"])
	e.expect(e.do(req{method: "POST", path: e.pullPath(1, "/merge"), token: e.alice, body: map[string]any{"Do": "merge"}}), 405,
		"not allowed to merge [reason: Does not have enough approvals]")
	w.fetch()
	assert.Equal(t, main, w.git("rev-parse", "o/main"), "the unreviewed commit did not land")
}
