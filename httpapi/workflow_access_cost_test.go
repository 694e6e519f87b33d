package httpapi_test

import (
	"encoding/base64"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/issues"
)

// workflowCost is what one API call of a workflow costs the repository
// store: its transactions and how many times the actor's access to a
// repository was resolved (countingStore.resolves).
type workflowCost struct {
	txs, resolves int64
}

// TestWorkflowsResolveAccessOnce pins how many times each write workflow
// resolves the actor's access to the repository it acts on, and the
// repository store transactions it takes: a workflow resolves the access
// once inside the operation and passes the view to its inner steps
// (issue 25: a branch creation resolved the view three times, a merge
// made nine round trips into forge/repos, each re-checking access). The
// route's gate (repos.Service.Authorize, issues AuthorizePulls: the
// refusal before the body is read) is one more resolution on the routes
// that have one. A workflow that goes back to re-resolving in an inner
// step fails here.
func TestWorkflowsResolveAccessOnce(t *testing.T) {
	t.Parallel()
	cs := &countingStore{}
	ci := &countingIssueStore{}
	// Without push listeners: what a ref move makes happen next (pull
	// requests re-synchronised, webhooks) is the outbox's, outside the
	// request; only the workflow itself is counted.
	e := newPullEnvWith(t, "", func(rc *repos.Config) { cs.Store, rc.Store, rc.PushListeners = rc.Store, cs, nil },
		func(c *issues.Config) { ci.Store = c.Store; c.Store = ci })
	e.seed("")
	e.newPull(e.alice, "b1", "main", "one")
	e.newPull(e.alice, "b2", "main", "two") // behind main once the contents API wrote to it
	e.send(e.bob, "POST", e.proj+"/forks", map[string]any{}, 202)

	measure := func(name, tok, method, path string, body any, status int) workflowCost {
		t.Helper()
		cs.reset()
		ci.reset()
		e.send(tok, method, path, body, status)
		c := workflowCost{txs: cs.txs.Load(), resolves: cs.resolves.Load()}
		t.Logf("%-26s repos: %2d transactions, %2d queries, %2d access resolutions; issues: %2d transactions, %2d queries",
			name, c.txs, cs.queries.Load(), c.resolves, ci.txs.Load(), ci.queries.Load())
		return c
	}
	b64 := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
	readme := e.send(e.alice, "GET", e.proj+"/contents/README.md", nil, 200).json(t)["sha"]

	got := map[string]workflowCost{
		"create branch": measure("POST branches", e.alice, "POST", e.proj+"/branches",
			map[string]any{"new_branch_name": "nb", "old_ref_name": "main"}, 201),
		"create file": measure("POST contents/{path}", e.alice, "POST", e.proj+"/contents/c.txt",
			map[string]any{"content": b64("c\n")}, 201),
		"update file": measure("PUT contents/{path}", e.alice, "PUT", e.proj+"/contents/README.md",
			map[string]any{"content": b64("hi\n"), "sha": readme}, 200),
		"change files": measure("POST contents (2 files)", e.alice, "POST", e.proj+"/contents",
			map[string]any{"files": []map[string]any{
				{"operation": "create", "path": "d.txt", "content": b64("d\n")},
				{"operation": "create", "path": "e.txt", "content": b64("e\n")}}}, 201),
		"create tag": measure("POST tags", e.alice, "POST", e.proj+"/tags",
			map[string]any{"tag_name": "v1", "target": "main"}, 201),
		"create release": measure("POST releases", e.alice, "POST", e.proj+"/releases",
			map[string]any{"tag_name": "v2", "target_commitish": "main"}, 201),
		"sync fork":   measure("POST sync_fork", e.bob, "POST", "/api/v1/repos/bob/proj/sync_fork", nil, 204),
		"update pull": measure("POST pulls/{n}/update", e.alice, "POST", e.pullPath(2, "/update"), nil, 200),
		"merge": measure("POST pulls/{n}/merge", e.alice, "POST", e.pullPath(1, "/merge"),
			map[string]any{"Do": "merge", "delete_branch_after_merge": true}, 200),
	}
	require.NotEmpty(t, got)
}
