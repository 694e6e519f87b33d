package httpapi_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// Repository flags: site administrators only, stored and read back.
func TestRepoFlags(t *testing.T) {
	t.Parallel()
	e := newWikiEnv(t)
	e.createUser("alice")
	alice := e.token("alice", "write:repository", "write:admin", "write:user")
	root := e.token("root", "write:repository", "write:admin")
	rootRepoOnly := e.token("root", "write:repository")
	e.createRepo(alice, "proj", map[string]any{"private": true})
	f := "/api/v1/repos/alice/proj/flags"

	r := e.do(req{method: "GET", path: f, token: root})
	e.expect(r, 200, "")
	assert.Equal(t, "[]\n", string(r.body))
	e.expect(e.do(req{method: "PUT", path: f + "/zeta", token: root}), 204, "")
	e.expect(e.do(req{method: "PUT", path: f + "/zeta", token: root}), 204, "")
	e.expect(e.do(req{method: "PUT", path: f + "/alpha", token: root}), 204, "")
	r = e.do(req{method: "GET", path: f, token: root})
	e.expect(r, 200, "")
	assert.Equal(t, `["alpha","zeta"]`+"\n", string(r.body))
	assert.Equal(t, "2", r.Header.Get("X-Total-Count"))
	e.expect(e.do(req{method: "GET", path: f + "/alpha", token: root}), 204, "")
	e.expect(e.do(req{method: "GET", path: f + "/beta", token: root}), 404, "The target couldn't be found.")
	e.expect(e.do(req{method: "PUT", path: f, token: root, body: map[string]any{"flags": []string{"b", "a", "b"}}}), 204, "")
	r = e.do(req{method: "GET", path: f, token: root})
	assert.Equal(t, `["a","b"]`+"\n", string(r.body))
	e.expect(e.do(req{method: "DELETE", path: f + "/a", token: root}), 204, "")
	e.expect(e.do(req{method: "DELETE", path: f + "/a", token: root}), 204, "")
	e.expect(e.do(req{method: "GET", path: f + "/a", token: root}), 404, "")
	e.expect(e.do(req{method: "DELETE", path: f, token: root}), 204, "")
	r = e.do(req{method: "GET", path: f, token: root})
	assert.Equal(t, "[]\n", string(r.body))

	// Refusals: the owner is no site administrator; a token without the
	// admin scope; the anonymous; an unknown repository is 404 first.
	e.expect(e.do(req{method: "PUT", path: f + "/x", token: alice}), 403, "user should be the site admin")
	e.expect(e.do(req{method: "GET", path: f, token: alice}), 403, "user should be the site admin")
	e.expect(e.do(req{method: "PUT", path: f + "/x", token: rootRepoOnly}), 403, "token does not have at least one of required scope(s): [write:repository write:admin]")
	e.expect(e.do(req{method: "GET", path: f}), 404, "The target couldn't be found.")
	e.expect(e.do(req{method: "GET", path: "/api/v1/repos/alice/nothing/flags", token: alice}), 404, "The target couldn't be found.")
	e.expect(e.do(req{method: "PUT", path: f, token: root, body: map[string]any{"flags": "no list"}}), 422, "")
	r = e.do(req{method: "GET", path: f, token: root})
	assert.Equal(t, "[]\n", string(r.body), "nothing was written by the refusals")
}

// Topic search: Forgejo's TopicSearch over the topics repositories have.
func TestTopicSearch(t *testing.T) {
	t.Parallel()
	e := newWikiEnv(t)
	e.createUser("alice")
	alice := e.token("alice", "write:repository", "write:user")
	for _, c := range []struct {
		name   string
		topics []string
	}{{"a", []string{"go", "db"}}, {"b", []string{"go", "golang"}}, {"c", []string{"go"}}} {
		e.createRepo(alice, c.name, nil)
		e.expect(e.do(req{method: "PUT", path: "/api/v1/repos/alice/" + c.name + "/topics", token: alice, body: map[string]any{"topics": c.topics}}), 204, "")
	}
	r := e.do(req{method: "GET", path: "/api/v1/topics/search?q=GO&limit=1"})
	e.expect(r, 200, "")
	assert.Equal(t, "2", r.Header.Get("X-Total-Count"))
	assert.Contains(t, r.Header.Get("Link"), `rel="next"`)
	topics := r.json(t)["topics"].([]any)
	assert.Len(t, topics, 1)
	first := topics[0].(map[string]any)
	assert.Equal(t, "go", first["topic_name"])
	assert.EqualValues(t, 3, first["repo_count"])
	r = e.do(req{method: "GET", path: "/api/v1/topics/search?q=&page=1", token: alice})
	var names []string
	for _, tp := range r.json(t)["topics"].([]any) {
		names = append(names, tp.(map[string]any)["topic_name"].(string))
	}
	assert.Equal(t, []string{"go", "db", "golang"}, names)
	// Removing a topic from its last repository takes it out of the search.
	e.expect(e.do(req{method: "DELETE", path: "/api/v1/repos/alice/a/topics/db", token: alice}), 204, "")
	r = e.do(req{method: "GET", path: "/api/v1/topics/search?q=db", token: alice})
	assert.Equal(t, "0", r.Header.Get("X-Total-Count"))
	assert.Equal(t, `{"topics":[]}`+"\n", string(r.body))
	e.expect(e.do(req{method: "GET", path: "/api/v1/topics/search?q=go", token: e.token("alice", "read:user")}), 403,
		"token does not have at least one of required scope(s): [read:repository]")
}
