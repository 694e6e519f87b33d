package httpapi_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestContentsDatesInGitRange: the author and committer `dates` of every
// contents write are checked against the range git records (1970 to 2099,
// as git's date parser reads them): a date outside it is a 422 in
// Forgejo's shape, never a 500, and nothing is committed; the bounds
// themselves are written as given.
func TestContentsDatesInGitRange(t *testing.T) {
	t.Parallel()
	e, tok := repoEnv(t, "sha1")
	api := "/api/v1/repos/alice/proj"
	readme := e.do(req{method: "GET", path: api + "/contents/README.md", token: tok}).json(t)
	head := func() any {
		return e.do(req{method: "GET", path: api + "/branches/main", token: tok}).json(t)["commit"].(map[string]any)["id"]
	}
	before := head()
	for _, d := range []struct{ author, committer, msg string }{
		{"9999-12-31T23:59:59Z", "", "invalid author date [date: 9999-12-31T23:59:59Z]: outside 1970-01-01T00:00:00Z..2099-12-31T23:59:59Z"},
		{"2100-01-01T00:00:00Z", "", "invalid author date [date: 2100-01-01T00:00:00Z]: outside 1970-01-01T00:00:00Z..2099-12-31T23:59:59Z"},
		{"2020-01-01T00:00:00Z", "1969-12-31T23:59:59Z", "invalid committer date [date: 1969-12-31T23:59:59Z]: outside 1970-01-01T00:00:00Z..2099-12-31T23:59:59Z"},
		{"1900-06-01T00:00:00+02:00", "", "invalid author date [date: 1900-06-01T00:00:00+02:00]: outside 1970-01-01T00:00:00Z..2099-12-31T23:59:59Z"},
	} {
		dates := map[string]any{"author": d.author}
		if d.committer != "" {
			dates["committer"] = d.committer
		}
		for _, r := range []resp{
			e.do(req{method: "POST", path: api + "/contents/new.md", token: tok, body: map[string]any{"content": b64("x"), "dates": dates}}),
			e.do(req{method: "PUT", path: api + "/contents/README.md", token: tok, body: map[string]any{"content": b64("x"), "sha": readme["sha"], "dates": dates}}),
			e.do(req{method: "DELETE", path: api + "/contents/README.md", token: tok, body: map[string]any{"sha": readme["sha"], "dates": dates}}),
			e.do(req{method: "POST", path: api + "/contents", token: tok, body: map[string]any{"dates": dates,
				"files": []map[string]any{{"operation": "create", "path": "new.md", "content": b64("x")}}}}),
		} {
			e.expect(r, http.StatusUnprocessableEntity, d.msg)
		}
	}
	assert.Equal(t, before, head(), "nothing was committed")
	for _, when := range []string{"1970-01-01T00:00:00Z", "2099-12-31T23:59:59Z"} {
		r := e.do(req{method: "POST", path: api + "/contents/" + when[:4] + ".md", token: tok, body: map[string]any{"content": b64("x"),
			"dates": map[string]any{"author": when, "committer": when}}})
		e.expect(r, http.StatusCreated, "")
		c := r.json(t)["commit"].(map[string]any)
		assert.Equal(t, when, c["author"].(map[string]any)["date"], "the author date is the one given")
		assert.Equal(t, when, c["committer"].(map[string]any)["date"], "the committer date is the one given")
	}
}
