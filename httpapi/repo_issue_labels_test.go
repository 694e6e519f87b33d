package httpapi_test

import (
	"net/http"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestCreateRepoIssueLabels: `issue_labels` of a repository's creation
// adds that label template set (Forgejo's InitializeLabels); a set that
// does not exist is a 422 in Forgejo's words (ErrTemplateLoad) with
// nothing created: the name stays free.
func TestCreateRepoIssueLabels(t *testing.T) {
	t.Parallel()
	e := newIssueEnv(t)
	create := func(name, set string) resp {
		return e.do(req{method: "POST", path: "/api/v1/user/repos", token: e.alice, body: map[string]any{"name": name, "issue_labels": set}})
	}
	labels := func(repo string) []string {
		r := e.send(e.alice, "GET", "/api/v1/repos/alice/"+repo+"/labels", nil, 200)
		names := listNames(t, r)
		sort.Strings(names)
		return names
	}
	e.expect(create("plain", ""), http.StatusCreated, "")
	assert.Empty(t, labels("plain"), "no set: no labels")

	e.expect(create("basic", "Default"), http.StatusCreated, "")
	assert.Equal(t, []string{"bug", "duplicate", "enhancement", "help wanted", "invalid", "question", "wontfix"}, labels("basic"))
	bug := e.send(e.alice, "GET", "/api/v1/repos/alice/basic/labels/1", nil, 200).json(t)
	assert.Equal(t, "bug", bug["name"])
	assert.Equal(t, "ee0701", bug["color"])
	assert.Equal(t, "Something is not working", bug["description"])

	e.expect(create("fancy", "Advanced"), http.StatusCreated, "")
	got := labels("fancy")
	assert.Len(t, got, 18)
	assert.Contains(t, got, "Kind/Bug")
	assert.Contains(t, got, "Priority/Low")

	for _, set := range []string{"Nope", "default", "../Default"} {
		e.expect(create("broken", set), http.StatusUnprocessableEntity,
			`failed to load label template file "`+set+`": label template "`+set+`" not found`)
		e.expect(e.do(req{method: "GET", path: "/api/v1/repos/alice/broken", token: e.alice}), http.StatusNotFound, "")
	}
	e.expect(create("broken", "Default"), http.StatusCreated, "")
}
