package httpapi_test

import (
	"encoding/base64"
	"testing"

	"github.com/stretchr/testify/assert"
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
		"sync fork": measure("POST sync_fork", e.bob, "POST", "/api/v1/repos/bob/proj/sync_fork", nil, 204),
		"create pull": measure("POST pulls", e.alice, "POST", e.proj+"/pulls",
			map[string]any{"head": "nb", "base": "b1", "title": "three"}, 201),
		"get pull":    measure("GET pulls/{n}", e.alice, "GET", e.pullPath(1, ""), nil, 200),
		"update pull": measure("POST pulls/{n}/update", e.alice, "POST", e.pullPath(2, "/update"), nil, 200),
		"merge": measure("POST pulls/{n}/merge", e.alice, "POST", e.pullPath(1, "/merge"),
			map[string]any{"Do": "merge", "delete_branch_after_merge": true}, 200),
	}
	// The expected costs, step by step (quota off, no outbox, no push
	// listener; alice owns alice/proj, a user's repository; bob owns the
	// fork bob/proj). A resolution is one transaction; "rules" is the read
	// of the protection rules (refRules, one transaction); "refresh" the
	// repository's size and emptiness after a ref move (one write
	// transaction). Git is no transaction.
	want := map[string]workflowCost{
		// gate, CreateBranch's writer (2 resolutions); the rules checked
		// and shown in the answer (read once); refresh.
		"create branch": {txs: 4, resolves: 2},
		// gate, ChangeFiles' writer; rules; refresh; the repository
		// reloaded for the answer. The written files are read back from
		// git with the view the write resolved (not one GetContents,
		// one resolution, per file).
		"create file":  {txs: 5, resolves: 2},
		"update file":  {txs: 5, resolves: 2},
		"change files": {txs: 5, resolves: 2},
		// gate, CreateTag's writer; rules (checkTag); refresh; the tag
		// answered from git with the writer's view.
		"create tag": {txs: 4, resolves: 2},
		// gate, CreateRelease's writer; the tag free; rules; the release
		// stored; refresh, reload; the release read back.
		"create release": {txs: 8, resolves: 2},
		// SyncFork's view of the fork and readableParent's of the parent
		// (another repository: its own resolution); rules; refresh.
		"sync fork": {txs: 4, resolves: 2},
		// gate, openPulls; the rules of the base branch (is it there),
		// of the head branch (the head is the base repository: no second
		// resolution), of the base in gitState and for the answer's base
		// tip; the JSON's repositories (httpapi's ViewsOf and RelatedOf:
		// batch reads, no single resolution).
		"create pull": {txs: 8, resolves: 2},
		// openPulls; the base tip's rules; the JSON's repositories.
		"get pull": {txs: 4, resolves: 1},
		// openPulls (the route has no gate); the head is the base
		// repository (no second resolution); the head branch's rules
		// (branchIn), the base branch's (gitState); refresh after the
		// update's ref move (recorded through the resolution).
		"update pull": {txs: 4, resolves: 1},
		// gate (AuthorizePulls), openPulls; rules of the base branch
		// (merge check) and again in gitState; refresh after the merge;
		// the head branch's rules (deleteHeadAfterMerge), the rules read
		// again at the deletion (at the moment of the ref move, kept);
		// refresh after the deletion.
		"merge": {txs: 8, resolves: 2},
	}
	for name, w := range want {
		assert.Equal(t, w, got[name], "%s: repository store transactions and access resolutions", name)
	}
	require.Len(t, got, len(want))
}
