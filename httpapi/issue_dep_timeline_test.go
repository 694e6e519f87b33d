package httpapi_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// depEvents returns the dependency events of an issue's timeline as
// "type:number of the dependent issue" ("type:-" when it is hidden), and
// the events themselves.
func depEvents(t *testing.T, e *issueEnv, tok, path string) ([]string, []map[string]any) {
	t.Helper()
	var out []string
	var evs []map[string]any
	for _, ev := range e.send(tok, "GET", path, nil, 200).list(t) {
		typ := ev["type"].(string)
		if typ != "add_dependency" && typ != "remove_dependency" {
			continue
		}
		evs = append(evs, ev)
		if d, ok := ev["dependent_issue"].(map[string]any); ok {
			out = append(out, typ+":"+d["title"].(string))
		} else {
			out = append(out, typ+":-")
		}
	}
	return out, evs
}

// TestIssueDependencyTimeline: adding and removing a dependency (by the
// dependency and by the block routes) writes Forgejo's add_dependency and
// remove_dependency events in both issues, each naming the other as
// dependent_issue, by the actor, and updates both issues; a refused
// change writes nothing; the other issue is shown only to those who may
// read it; the events go with the issue they name.
func TestIssueDependencyTimeline(t *testing.T) {
	t.Parallel()
	e := newIssueEnv(t)
	one, two := e.newIssue(e.alice, "one"), e.newIssue(e.alice, "two")
	e.clock.Step(time.Hour)
	at := e.clock.Now().UTC().Format(time.RFC3339)
	two1 := map[string]any{"owner": "alice", "repo": "proj", "index": two}
	e.send(e.bob, "POST", e.issuePath(one, "/dependencies"), two1, 201)

	got, evs := depEvents(t, e, e.alice, e.issuePath(one, "/timeline"))
	assert.Equal(t, []string{"add_dependency:two"}, got)
	require.Len(t, evs, 1)
	assert.Equal(t, "bob", evs[0]["user"].(map[string]any)["login"], "the actor")
	assert.Equal(t, at, evs[0]["created_at"])
	assert.EqualValues(t, two, evs[0]["dependent_issue"].(map[string]any)["number"])
	got, _ = depEvents(t, e, e.alice, e.issuePath(two, "/timeline"))
	assert.Equal(t, []string{"add_dependency:one"}, got, "the other issue names the first")
	for _, n := range []int{one, two} {
		assert.Equal(t, at, e.send(e.alice, "GET", e.issuePath(n, ""), nil, 200).json(t)["updated_at"], "issue %d updated", n)
	}

	// A refused change (the dependency exists) writes no event.
	e.send(e.bob, "POST", e.issuePath(one, "/dependencies"), two1, 409)
	got, _ = depEvents(t, e, e.alice, e.issuePath(one, "/timeline"))
	assert.Equal(t, []string{"add_dependency:two"}, got)

	// Removal through the block route: "one depends on two" is two's block.
	e.clock.Step(time.Minute)
	e.send(e.alice, "DELETE", e.issuePath(two, "/blocks"), map[string]any{"owner": "alice", "repo": "proj", "index": one}, 201)
	got, _ = depEvents(t, e, e.alice, e.issuePath(one, "/timeline"))
	assert.Equal(t, []string{"add_dependency:two", "remove_dependency:two"}, got)
	got, _ = depEvents(t, e, e.alice, e.issuePath(two, "/timeline"))
	assert.Equal(t, []string{"add_dependency:one", "remove_dependency:one"}, got)
	e.send(e.alice, "DELETE", e.issuePath(two, "/blocks"), map[string]any{"owner": "alice", "repo": "proj", "index": one}, 404)
	got, _ = depEvents(t, e, e.alice, e.issuePath(one, "/timeline"))
	assert.Len(t, got, 2, "removing a missing dependency writes nothing")

	// A dependency on a private issue of another repository: its timeline
	// event is there for everyone who reads alice/proj, but the private
	// issue only for those who may read it.
	e.send(e.eve, "POST", "/api/v1/user/repos", map[string]any{"name": "hidden", "private": true}, 201)
	e.send(e.eve, "PUT", "/api/v1/repos/eve/hidden/collaborators/alice", map[string]any{"permission": "read"}, 204)
	e.send(e.eve, "POST", "/api/v1/repos/eve/hidden/issues", map[string]any{"title": "secret plan"}, 201)
	e.send(e.alice, "POST", e.issuePath(one, "/dependencies"), map[string]any{"owner": "eve", "repo": "hidden", "index": 1}, 201)
	got, _ = depEvents(t, e, e.alice, e.issuePath(one, "/timeline"))
	assert.Equal(t, []string{"add_dependency:two", "remove_dependency:two", "add_dependency:secret plan"}, got)
	for _, tok := range []string{e.bob, ""} {
		got, _ = depEvents(t, e, tok, e.issuePath(one, "/timeline"))
		assert.Equal(t, []string{"add_dependency:two", "remove_dependency:two", "add_dependency:-"}, got, "no private issue for %q", tok)
	}
	got, _ = depEvents(t, e, e.eve, "/api/v1/repos/eve/hidden/issues/1/timeline")
	assert.Equal(t, []string{"add_dependency:one"}, got, "eve reads alice/proj, a public repository")

	// The events go with the issue they name.
	e.send(e.alice, "DELETE", e.issuePath(two, ""), nil, 204)
	got, _ = depEvents(t, e, e.alice, e.issuePath(one, "/timeline"))
	assert.Equal(t, []string{"add_dependency:secret plan"}, got)
}
