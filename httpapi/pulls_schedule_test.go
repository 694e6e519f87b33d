package httpapi_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestPullScheduledMerge: main requires the "ci" status; with it pending,
// merge_when_checks_succeed schedules the merge (Forgejo's 201 with no
// body) instead of refusing it; a reader may not cancel it (403); DELETE
// /merge by its scheduler cancels it (204), then
// finds nothing (404). Without the option the merge is refused (405).
func TestPullScheduledMerge(t *testing.T) {
	t.Parallel()
	e, w := seededPulls(t)
	e.send(e.alice, "POST", e.proj+"/branch_protections", map[string]any{"rule_name": "main",
		"enable_status_check": true, "status_check_contexts": []string{"ci"}}, 201)
	e.newPull(e.alice, "b1", "main", "wait for ci")
	e.send(e.alice, "POST", e.proj+"/statuses/"+w.git("rev-parse", "b1"), map[string]any{"state": "pending", "context": "ci"}, 201)

	e.expect(e.do(req{method: "POST", path: e.pullPath(1, "/merge"), token: e.alice, body: map[string]any{"Do": "merge"}}), 405,
		"not allowed to merge [reason: Not all required status checks successful]")
	r := e.do(req{method: "POST", path: e.pullPath(1, "/merge"), token: e.alice, body: map[string]any{"Do": "merge", "merge_when_checks_succeed": true}})
	assert.Equal(t, 201, r.StatusCode, "%s", r.body)
	assert.Empty(t, r.body)
	assert.Equal(t, false, e.getPull(1)["merged"])
	e.expect(e.do(req{method: "DELETE", path: e.pullPath(1, "/merge"), token: e.eve}), 403, "user has no permission to cancel the scheduled auto merge")
	e.send(e.alice, "DELETE", e.pullPath(1, "/merge"), nil, 204)
	e.expect(e.do(req{method: "DELETE", path: e.pullPath(1, "/merge"), token: e.alice}), 404, "")
}
