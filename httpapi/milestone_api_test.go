package httpapi_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// TestMilestones covers milestones: create (due_on null without a
// deadline, closed on request), get/edit/delete by id or by title, the
// state filter, and the open/closed issue counters.
func TestMilestones(t *testing.T) {
	t.Parallel()
	e := newIssueEnv(t)
	ms := e.send(e.alice, "POST", e.proj+"/milestones", map[string]any{"title": "v1", "description": "first"}, 201).json(t)
	assert.Equal(t, "v1", ms["title"])
	assert.Equal(t, "first", ms["description"])
	assert.Equal(t, "open", ms["state"])
	assert.Nil(t, ms["due_on"], "no deadline is 9999-12-31, shown as null")
	assert.Nil(t, ms["closed_at"])
	assert.NotNil(t, ms["updated_at"])
	assert.EqualValues(t, 0, ms["open_issues"])
	id := int64(ms["id"].(float64))

	due := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
	closed := e.send(e.alice, "POST", e.proj+"/milestones", map[string]any{"title": "v0", "state": "closed", "due_on": due.Format(time.RFC3339)}, 201).json(t)
	assert.Equal(t, "closed", closed["state"])
	assert.NotNil(t, closed["closed_at"])
	assert.Equal(t, "2030-01-02T03:04:05Z", closed["due_on"])

	mpath := fmt.Sprintf("%s/milestones/%d", e.proj, id)
	assert.Equal(t, "v1", e.send("", "GET", mpath, nil, 200).json(t)["title"])
	assert.EqualValues(t, id, e.send("", "GET", e.proj+"/milestones/v1", nil, 200).json(t)["id"], "by title")
	e.send("", "GET", e.proj+"/milestones/9999", nil, 404)
	e.send("", "GET", e.proj+"/milestones/nope", nil, 404)

	list := func(q string) []string {
		t.Helper()
		return titles(t, e.send("", "GET", e.proj+"/milestones"+q, nil, 200))
	}
	assert.ElementsMatch(t, []string{"v1", "v0"}, list(""))
	assert.Equal(t, []string{"v1"}, list("?state=open"))
	assert.Equal(t, []string{"v0"}, list("?state=closed"))
	assert.ElementsMatch(t, []string{"v1", "v0"}, list("?state=all"))
	assert.Equal(t, []string{"v0"}, list("?name=v0"))
	assert.Equal(t, []string{"v0"}, list("?name=V0"), "the name filter ignores case (Forgejo's)")
	assert.ElementsMatch(t, []string{"v1", "v0"}, list("?name=V"), "and matches within the name")
	assert.Empty(t, list("?name=v_"), "_ is no wildcard")
	r := e.send("", "GET", e.proj+"/milestones?limit=1", nil, 200)
	assert.Len(t, r.list(t), 1)
	assert.Equal(t, "2", r.Header.Get("X-Total-Count"))

	// Counters follow the issues.
	a, b := e.newIssue(e.alice, "a"), e.newIssue(e.alice, "b")
	for _, n := range []int{a, b} {
		e.send(e.alice, "PATCH", e.issuePath(n, ""), map[string]any{"milestone": id}, 201)
	}
	e.send(e.alice, "PATCH", e.issuePath(b, ""), map[string]any{"state": "closed"}, 201)
	got := e.send("", "GET", mpath, nil, 200).json(t)
	assert.EqualValues(t, 1, got["open_issues"])
	assert.EqualValues(t, 1, got["closed_issues"])

	// Edit: empty title keeps it; state "closed" closes, anything else opens.
	edited := e.send(e.alice, "PATCH", mpath, map[string]any{"title": "", "description": "changed", "state": "closed"}, 200).json(t)
	assert.Equal(t, "v1", edited["title"])
	assert.Equal(t, "changed", edited["description"])
	assert.Equal(t, "closed", edited["state"])
	assert.Equal(t, "open", e.send(e.alice, "PATCH", e.proj+"/milestones/v1", map[string]any{"state": "reopen"}, 200).json(t)["state"])

	e.send(e.eve, "POST", e.proj+"/milestones", map[string]any{"title": "x"}, 403)
	e.send(e.eve, "PATCH", mpath, map[string]any{"title": "x"}, 403)
	e.send(e.eve, "DELETE", mpath, nil, 403)
	e.send(e.alice, "DELETE", e.proj+"/milestones/v1", nil, 204)
	e.send("", "GET", mpath, nil, 404)
	assert.Nil(t, e.send("", "GET", e.issuePath(a, ""), nil, 200).json(t)["milestone"], "its issues keep none")
}
