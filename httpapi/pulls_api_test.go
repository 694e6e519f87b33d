package httpapi_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPullAPIRoutes walks the pull-request routes on a repository pushed
// with the git CLI: create, list, get (by index and by base/head), edit
// (201), files, commits, diff and patch, merged or not, merge, the pull
// request of the merge commit, compare, reviewers and assignees.
func TestPullAPIRoutes(t *testing.T) {
	t.Parallel()
	e, w := seededPulls(t)
	head := w.git("rev-parse", "b1")
	mainTip := w.git("rev-parse", "main")

	pr := e.newPull(e.bob, "b1", "main", "Add b1")
	assert.EqualValues(t, 1, pr["number"])
	assert.Equal(t, "open", pr["state"])
	assert.Equal(t, "bob", pr["user"].(map[string]any)["login"])
	base, hd := pr["base"].(map[string]any), pr["head"].(map[string]any)
	assert.Equal(t, "main", base["label"])
	assert.Equal(t, "main", base["ref"])
	assert.Equal(t, mainTip, base["sha"])
	assert.Equal(t, "b1", hd["label"])
	assert.Equal(t, "b1", hd["ref"])
	assert.Equal(t, head, hd["sha"])
	assert.Equal(t, "alice/proj", hd["repo"].(map[string]any)["full_name"])
	assert.Equal(t, mainTip, pr["merge_base"])
	assert.Equal(t, true, pr["mergeable"])
	assert.Equal(t, false, pr["merged"])
	assert.Nil(t, pr["merged_by"])
	assert.Nil(t, pr["merge_commit_sha"])
	assert.EqualValues(t, 2, pr["changed_files"])
	assert.EqualValues(t, 3, pr["additions"])
	assert.EqualValues(t, 1, pr["deletions"])
	assert.True(t, strings.HasSuffix(pr["html_url"].(string), "/alice/proj/pulls/1"), pr["html_url"])
	assert.Equal(t, pr["html_url"].(string)+".diff", pr["diff_url"])
	assert.True(t, strings.HasSuffix(pr["url"].(string), "/api/v1/repos/alice/proj/issues/1"), pr["url"])
	assert.Equal(t, []any{}, pr["requested_reviewers"])

	// The issue of the pull request is an issue with pull_request set.
	is := e.send(e.alice, "GET", e.issuePath(1, ""), nil, 200).json(t)
	assert.NotNil(t, is["pull_request"])

	list := e.send(e.eve, "GET", e.proj+"/pulls", nil, 200)
	assert.Equal(t, "1", list.Header.Get("X-Total-Count"))
	assert.Equal(t, []string{"Add b1"}, titles(t, list))
	assert.Empty(t, e.send(e.alice, "GET", e.proj+"/pulls?state=closed", nil, 200).list(t))

	byBH := e.send(e.alice, "GET", e.proj+"/pulls/main/b1", nil, 200).json(t)
	assert.Equal(t, pr["id"], byBH["id"])
	e.expect(e.do(req{method: "GET", path: e.proj + "/pulls/main/b2", token: e.alice}), 404, "")
	e.expect(e.do(req{method: "GET", path: e.proj + "/pulls/99", token: e.alice}), 404, "")
	e.expect(e.do(req{method: "GET", path: e.proj + "/pulls/x", token: e.alice}), 404, "")

	// PATCH answers 201; eve is neither poster nor writer: a bare 403.
	edited := e.send(e.bob, "PATCH", e.pullPath(1, ""), map[string]any{"title": "Add b1 (edited)", "body": "why"}, 201).json(t)
	assert.Equal(t, "Add b1 (edited)", edited["title"])
	assert.Equal(t, "why", edited["body"])
	r := e.do(req{method: "PATCH", path: e.pullPath(1, ""), token: e.eve, body: map[string]any{"title": "mine"}})
	assert.Equal(t, 403, r.StatusCode)
	assert.Empty(t, r.body)

	files := e.send(e.alice, "GET", e.pullPath(1, "/files"), nil, 200)
	assert.Equal(t, "2", files.Header.Get("X-Total-Count"))
	fl := files.list(t)
	require.Len(t, fl, 2)
	assert.Equal(t, "a.txt", fl[0]["filename"])
	assert.Equal(t, "changed", fl[0]["status"])
	assert.EqualValues(t, 2, fl[0]["additions"])
	assert.EqualValues(t, 1, fl[0]["deletions"])
	assert.EqualValues(t, 3, fl[0]["changes"])
	assert.True(t, strings.HasSuffix(fl[0]["raw_url"].(string), "/alice/proj/raw/commit/"+head+"/a.txt"), fl[0]["raw_url"])
	assert.Equal(t, "new.txt", fl[1]["filename"])
	assert.Equal(t, "added", fl[1]["status"])

	commits := e.send(e.alice, "GET", e.pullPath(1, "/commits"), nil, 200)
	assert.Equal(t, "1", commits.Header.Get("X-Total-Count"))
	cl := commits.list(t)
	require.Len(t, cl, 1)
	assert.Equal(t, head, cl[0]["sha"])

	diff := e.send(e.alice, "GET", e.pullPath(1, ".diff"), nil, 200)
	assert.Equal(t, w.git("diff", "main", "b1")+"\n", string(diff.body))
	patch := e.send(e.alice, "GET", e.pullPath(1, ".patch"), nil, 200)
	assert.Contains(t, string(patch.body), "Subject: [PATCH] b1 change")
	e.expect(e.do(req{method: "GET", path: e.pullPath(1, ".txt"), token: e.alice}), 404, "")
	e.expect(e.do(req{method: "GET", path: e.pullPath(9, ".diff"), token: e.alice}), 404, "")

	cmp := e.send(e.alice, "GET", e.proj+"/compare/main...b2", nil, 200).json(t)
	assert.EqualValues(t, 2, cmp["total_commits"])
	assert.Len(t, cmp["files"], 3)
	e.expect(e.do(req{method: "GET", path: e.proj + "/compare/main...nope", token: e.alice}), 404, "")

	// The owner is a candidate; the collaborators are checked in
	// TestPullCandidates.
	assert.Contains(t, loginsOf(t, e.send(e.alice, "GET", e.proj+"/assignees", nil, 200)), "alice")
	assert.Contains(t, loginsOf(t, e.send(e.alice, "GET", e.proj+"/reviewers", nil, 200)), "alice", "the caller too (Forgejo's GetReviewers)")
	e.expect(e.do(req{method: "GET", path: "/api/v1/repos/alice/nope/reviewers", token: e.alice}), 404, "")

	// Not merged yet: 404; merged: 204, closed, merged_by, the merge
	// commit's pull request.
	e.expect(e.do(req{method: "GET", path: e.pullPath(1, "/merge"), token: e.alice}), 404, "")
	r = e.do(req{method: "POST", path: e.pullPath(1, "/merge"), token: e.alice, body: map[string]any{"Do": "merge"}})
	require.Equal(t, 200, r.StatusCode, "%s", r.body)
	e.expect(e.do(req{method: "GET", path: e.pullPath(1, "/merge"), token: e.alice}), 204, "")
	merged := e.getPull(1)
	assert.Equal(t, true, merged["merged"])
	assert.Equal(t, "closed", merged["state"])
	assert.Equal(t, false, merged["mergeable"])
	assert.Equal(t, "alice", merged["merged_by"].(map[string]any)["login"])
	sha := merged["merge_commit_sha"].(string)
	w.fetch()
	assert.Equal(t, sha, w.git("rev-parse", "o/main"))
	assert.Equal(t, mainTip+" "+head, w.git("log", "-1", "--format=%P", sha))
	byCommit := e.send(e.alice, "GET", e.proj+"/commits/"+sha+"/pull", nil, 200).json(t)
	assert.Equal(t, merged["id"], byCommit["id"])
	e.expect(e.do(req{method: "GET", path: e.proj + "/commits/" + mainTip + "/pull", token: e.alice}), 404, "")
	// Merging again: Forgejo's 405.
	e.expect(e.do(req{method: "POST", path: e.pullPath(1, "/merge"), token: e.alice, body: map[string]any{"Do": "merge"}}), 405, "")
}

// loginsOf returns the "login" field of each user of a JSON list.
func loginsOf(t *testing.T, r resp) []string {
	t.Helper()
	var out []string
	for _, m := range r.list(t) {
		out = append(out, m["login"].(string))
	}
	return out
}

// TestPullCandidates: GET /assignees lists the owner and the collaborators
// who may write; GET /reviewers those who may read, the caller included
// (Forgejo's GetReviewers with no poster: nobody is left out).
func TestPullCandidates(t *testing.T) {
	t.Parallel()
	e := newPullEnv(t, "")
	assert.ElementsMatch(t, []string{"alice", "bob"}, loginsOf(t, e.send(e.alice, "GET", e.proj+"/assignees", nil, 200)))
	assert.ElementsMatch(t, []string{"alice", "bob"}, loginsOf(t, e.send(e.alice, "GET", e.proj+"/reviewers", nil, 200)))
	assert.ElementsMatch(t, []string{"alice", "bob"}, loginsOf(t, e.send(e.bob, "GET", e.proj+"/reviewers", nil, 200)))
}
