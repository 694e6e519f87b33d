package httpapi_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRepoLabels covers a repository's labels: create with colour
// normalisation, get by id or name, edit, delete, listing (paged only when
// `page` is given), archiving round trip, and the refusals.
func TestRepoLabels(t *testing.T) {
	t.Parallel()
	e := newIssueEnv(t)
	r := e.send(e.alice, "POST", e.proj+"/labels", map[string]any{"name": "bug", "color": "#00AABB", "description": "broken"}, 201)
	l := r.json(t)
	assert.Equal(t, "00aabb", l["color"], "stored lower-case, shown without '#'")
	assert.Equal(t, "broken", l["description"])
	assert.Equal(t, false, l["exclusive"])
	assert.Equal(t, false, l["is_archived"])
	id := int64(l["id"].(float64))
	assert.True(t, strings.HasSuffix(l["url"].(string), fmt.Sprintf("/api/v1/repos/alice/proj/labels/%d", id)), l["url"])
	assert.Equal(t, "aabbcc", e.send(e.alice, "POST", e.proj+"/labels", map[string]any{"name": "short", "color": "abc"}, 201).json(t)["color"])

	lpath := fmt.Sprintf("%s/labels/%d", e.proj, id)
	assert.Equal(t, "bug", e.send("", "GET", lpath, nil, 200).json(t)["name"])
	assert.EqualValues(t, id, e.send("", "GET", e.proj+"/labels/bug", nil, 200).json(t)["id"], "by name")
	e.send("", "GET", e.proj+"/labels/9999", nil, 404)
	e.send("", "GET", e.proj+"/labels/nope", nil, 404)

	// Bad input: Forgejo's statuses and messages.
	for _, c := range []struct {
		body map[string]any
		msg  string
	}{
		{map[string]any{"name": "x", "color": "#12345"}, "bad color code: #12345"},
		{map[string]any{"name": "x", "color": "red"}, "bad color code: red"},
		{map[string]any{"name": "x", "color": "#gggggg"}, "bad color code: #gggggg"},
		{map[string]any{"color": "#ffffff"}, "[Name]: Required"},
		{map[string]any{"name": "x"}, "[Color]: Required"},
	} {
		e.expect(e.do(req{method: "POST", path: e.proj + "/labels", token: e.alice, body: c.body}), 422, c.msg)
	}
	e.expect(e.do(req{method: "PATCH", path: lpath, token: e.alice, body: map[string]any{"color": "nope"}}), 422, "bad color code: nope")
	e.expect(e.do(req{method: "POST", path: e.proj + "/labels", token: e.eve, body: map[string]any{"name": "x", "color": "#ffffff"}}), 403,
		"user should have a permission to write to a repo")
	e.send(e.alice, "PATCH", e.proj+"/labels/9999", map[string]any{"name": "x"}, 404)

	// Archiving: is_archived round trips; an edit without it un-archives
	// (Forgejo's BUG, reproduced).
	arch := e.send(e.alice, "POST", e.proj+"/labels", map[string]any{"name": "old", "color": "#ffffff", "is_archived": true}, 201).json(t)
	assert.Equal(t, true, arch["is_archived"])
	apath := fmt.Sprintf("%s/labels/%v", e.proj, arch["id"])
	assert.Equal(t, true, e.send("", "GET", apath, nil, 200).json(t)["is_archived"])
	assert.Equal(t, true, e.send(e.alice, "PATCH", apath, map[string]any{"description": "kept", "is_archived": true}, 200).json(t)["is_archived"])
	edited := e.send(e.alice, "PATCH", apath, map[string]any{"description": "thawed"}, 200).json(t)
	assert.Equal(t, false, edited["is_archived"])
	assert.Equal(t, "thawed", edited["description"])
	assert.Equal(t, false, e.send("", "GET", apath, nil, 200).json(t)["is_archived"])

	r = e.send(e.alice, "PATCH", lpath, map[string]any{"name": "defect", "exclusive": true}, 200)
	assert.Equal(t, "defect", r.json(t)["name"])
	assert.Equal(t, true, r.json(t)["exclusive"])

	// Listing: every label unless `page` is given.
	for i := range 35 {
		e.send(e.alice, "POST", e.proj+"/labels", map[string]any{"name": fmt.Sprintf("l%02d", i), "color": "#ffffff"}, 201)
	}
	r = e.send("", "GET", e.proj+"/labels", nil, 200)
	assert.Len(t, r.list(t), 38)
	assert.Equal(t, "38", r.Header.Get("X-Total-Count"))
	assert.Len(t, e.send("", "GET", e.proj+"/labels?limit=5", nil, 200).list(t), 38, "limit alone does not page")
	r = e.send("", "GET", e.proj+"/labels?page=2&limit=5", nil, 200)
	assert.Len(t, r.list(t), 5)
	assert.Equal(t, "38", r.Header.Get("X-Total-Count"))

	e.send(e.alice, "DELETE", lpath, nil, 204)
	e.send("", "GET", lpath, nil, 404)
	e.send(e.alice, "DELETE", lpath, nil, 204) // Forgejo: deleting what is gone succeeds
}

// labelNames are the names of the labels of issue n, as the API lists them.
func (e *issueEnv) labelNames(n int) []string {
	e.t.Helper()
	return listNames(e.t, e.send("", "GET", e.issuePath(n, "/labels"), nil, 200))
}

// TestIssueLabels covers add, replace, remove and clear, by id and by
// name, with Forgejo's statuses (200 for add and replace) and refusals.
func TestIssueLabels(t *testing.T) {
	t.Parallel()
	e := newIssueEnv(t)
	n := e.newIssue(e.bob, "labelled")
	bug, docs := e.newLabel("bug", false), e.newLabel("docs", false)

	r := e.send(e.bob, "POST", e.issuePath(n, "/labels"), map[string]any{"labels": []int64{bug}}, 200)
	assert.Equal(t, []string{"bug"}, listNames(t, r))
	r = e.send(e.bob, "POST", e.issuePath(n, "/labels"), map[string]any{"labels": []string{"docs", "unknown"}}, 200)
	assert.ElementsMatch(t, []string{"bug", "docs"}, listNames(t, r), "unknown names are ignored")
	assert.ElementsMatch(t, []string{"bug", "docs"}, e.labelNames(n))
	issue := e.send("", "GET", e.issuePath(n, ""), nil, 200).json(t)
	assert.Len(t, issue["labels"], 2)

	// Replace: unknown ids are ignored, the rest replaces.
	r = e.send(e.bob, "PUT", e.issuePath(n, "/labels"), map[string]any{"labels": []int64{docs, 424242}}, 200)
	assert.Equal(t, []string{"docs"}, listNames(t, r))
	// Remove by name, by id; an identifier naming no label is 422.
	e.send(e.bob, "DELETE", e.issuePath(n, "/labels/docs"), nil, 204)
	assert.Empty(t, e.labelNames(n))
	e.send(e.bob, "POST", e.issuePath(n, "/labels"), map[string]any{"labels": []int64{bug, docs}}, 200)
	e.send(e.bob, "DELETE", e.issuePath(n, fmt.Sprintf("/labels/%d", bug)), nil, 204)
	assert.Equal(t, []string{"docs"}, e.labelNames(n))
	e.send(e.bob, "DELETE", e.issuePath(n, "/labels/bug"), nil, 204) // not on the issue: still 204
	e.send(e.bob, "DELETE", e.issuePath(n, "/labels/nosuch"), nil, 422)
	// GitHub's media type answers the removed label.
	r = e.do(req{method: "DELETE", path: e.issuePath(n, "/labels/docs"), token: e.bob, header: map[string]string{"Accept": "application/vnd.github+json"}})
	e.expect(r, 200, "")
	assert.Equal(t, []string{"docs"}, listNames(t, r))
	// Clear; PUT with no labels clears too.
	e.send(e.bob, "POST", e.issuePath(n, "/labels"), map[string]any{"labels": []int64{bug, docs}}, 200)
	e.send(e.bob, "DELETE", e.issuePath(n, "/labels"), nil, 204)
	assert.Empty(t, e.labelNames(n))
	e.send(e.bob, "POST", e.issuePath(n, "/labels"), map[string]any{"labels": []int64{bug}}, 200)
	assert.Empty(t, listNames(t, e.send(e.bob, "PUT", e.issuePath(n, "/labels"), map[string]any{}, 200)))

	// Malformed lists are 400 — for non-writers too, parsing comes first.
	for _, tok := range []string{e.bob, e.eve} {
		e.expect(e.do(req{method: "POST", path: e.issuePath(n, "/labels"), token: tok, body: map[string]any{"labels": []any{1, "bug"}}}), 400,
			"labels should be an array of strings or integers")
		e.expect(e.do(req{method: "PUT", path: e.issuePath(n, "/labels"), token: tok, body: map[string]any{"labels": []any{true}}}), 400,
			"a label must be an integer or a string")
	}
	// An unknown issue comes before the label check.
	e.send(e.bob, "POST", e.issuePath(99, "/labels"), map[string]any{"labels": []any{1, "bug"}}, 404)
	// Non-writers: a bare 403, nothing changed.
	r = e.send(e.eve, "POST", e.issuePath(n, "/labels"), map[string]any{"labels": []int64{docs}}, 403)
	assert.Empty(t, r.body)
	e.send(e.eve, "DELETE", e.issuePath(n, "/labels"), nil, 403)
	e.send(e.eve, "DELETE", e.issuePath(n, "/labels/bug"), nil, 403)
	assert.Empty(t, e.labelNames(n))
	e.send("", "GET", e.issuePath(99, "/labels"), nil, 404)
}

// TestIssueLabelsExclusive checks exclusive scopes in add and in replace,
// by id and by name (spec/issues.md §5): the alphabetically last label of
// a scope stays whatever the request's order; a newly added label evicts
// the one of its scope already there; non-exclusive labels of the same
// prefix, and other scopes, are untouched; archived labels can be added.
func TestIssueLabelsExclusive(t *testing.T) {
	t.Parallel()
	e := newIssueEnv(t)
	n := e.newIssue(e.bob, "scoped")
	high, low := e.newLabel("prio/high", true), e.newLabel("prio/low", true)
	loose := e.newLabel("prio/loose", false)
	kind := e.newLabel("kind/bug", true)
	old := e.send(e.alice, "POST", e.proj+"/labels", map[string]any{"name": "kind/old", "color": "#ffffff", "exclusive": true, "is_archived": true}, 201).json(t)

	add := func(labels any) []string {
		t.Helper()
		return listNames(t, e.send(e.bob, "POST", e.issuePath(n, "/labels"), map[string]any{"labels": labels}, 200))
	}
	put := func(labels any) []string {
		t.Helper()
		return listNames(t, e.send(e.bob, "PUT", e.issuePath(n, "/labels"), map[string]any{"labels": labels}, 200))
	}
	assert.Equal(t, []string{"prio/high"}, add([]int64{high}))
	assert.Equal(t, []string{"prio/low"}, add([]int64{low}), "the new label evicts the old one of its scope")
	assert.Equal(t, []string{"prio/high"}, add([]string{"prio/high"}), "by name too")
	assert.ElementsMatch(t, []string{"prio/high", "prio/loose"}, add([]int64{loose}), "a non-exclusive label of the prefix stays")
	put(nil)
	assert.Equal(t, []string{"prio/low"}, add([]int64{low, high}), "one request: the alphabetically last wins")
	put(nil)
	assert.Equal(t, []string{"prio/low"}, add([]int64{high, low}), "whatever the order")
	assert.Equal(t, []string{"prio/low"}, put([]int64{high, low}))
	assert.Equal(t, []string{"prio/low"}, put([]string{"prio/low", "prio/high"}))
	assert.ElementsMatch(t, []string{"prio/low", "kind/bug"}, put([]int64{low, kind, high}), "scopes are independent")
	// An archived label is added like any other, and evicts by its scope.
	assert.ElementsMatch(t, []string{"prio/low", "kind/old"}, add([]any{old["id"]}))
	archived := map[string]any{}
	for _, l := range e.send("", "GET", e.issuePath(n, "/labels"), nil, 200).list(t) {
		archived[l["name"].(string)] = l["is_archived"]
	}
	require.Equal(t, map[string]any{"prio/low": false, "kind/old": true}, archived)
}

// TestOrgLabels covers /orgs/{org}/labels: list (no token needed), get
// (token), create, edit, delete (owners).
func TestOrgLabels(t *testing.T) {
	t.Parallel()
	e := newIssueEnv(t)
	base := "/api/v1/orgs/alice/labels"
	r := e.send(e.alice, "POST", base, map[string]any{"name": "team/a", "color": "#ABCDEF", "exclusive": true}, 201)
	l := r.json(t)
	assert.Equal(t, "abcdef", l["color"])
	assert.True(t, strings.HasSuffix(l["url"].(string), fmt.Sprintf("/api/v1/orgs/alice/labels/%v", l["id"])), l["url"])
	lpath := fmt.Sprintf("%s/%v", base, l["id"])

	r = e.send("", "GET", base, nil, 200)
	assert.Equal(t, []string{"team/a"}, listNames(t, r))
	assert.Equal(t, "1", r.Header.Get("X-Total-Count"))
	e.expect(e.do(req{method: "GET", path: lpath}), 401, "token is required")
	assert.Equal(t, "team/a", e.send(e.bob, "GET", lpath, nil, 200).json(t)["name"])
	e.send(e.bob, "POST", base, map[string]any{"name": "x", "color": "#ffffff"}, 403)
	e.expect(e.do(req{method: "POST", path: base, token: e.alice, body: map[string]any{"name": "x", "color": "#fffff"}}), 422, "bad color code: #fffff")
	assert.Equal(t, "team/b", e.send(e.alice, "PATCH", lpath, map[string]any{"name": "team/b"}, 200).json(t)["name"])
	e.send(e.alice, "GET", base+"/9999", nil, 404)
	e.send(e.alice, "GET", "/api/v1/orgs/nosuchorg/labels", nil, 404)
	e.send(e.alice, "DELETE", lpath, nil, 204)
	e.send(e.alice, "GET", lpath, nil, 404)
}
