package httpapi_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/httpapi"
)

// Issue 8 item 22: the gitignore and licence templates auto_init uses are
// served as Forgejo's misc routes, public (no scope: a token scoped to
// something else reads them too), in Forgejo's JSON.
func TestTemplateListings(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(c *httpapi.Config) { c.RootURL = "https://forge.example/" })
	other := e.token("root", "read:issue")
	for _, tok := range []string{"", other} {
		r := e.do(req{method: "GET", path: "/api/v1/gitignore/templates", token: tok})
		e.expect(r, http.StatusOK, "")
		var names []string
		require.NoError(t, json.Unmarshal(r.body, &names))
		assert.Contains(t, names, "C++")
		assert.Contains(t, names, "Go")

		r = e.do(req{method: "GET", path: "/api/v1/gitignore/templates/C++", token: tok})
		e.expect(r, http.StatusOK, "")
		gi := r.json(t)
		assert.Equal(t, "C++", gi["name"])
		assert.Contains(t, gi["source"], "*.o")

		r = e.do(req{method: "GET", path: "/api/v1/licenses", token: tok})
		e.expect(r, http.StatusOK, "")
		list := r.list(t)
		require.Greater(t, len(list), 2)
		assert.Equal(t, []any{"Apache-2.0", "MIT"}, []any{list[0]["key"], list[1]["key"]}, "Forgejo's preferred licences come first")
		for _, l := range list {
			assert.Equal(t, l["key"], l["name"])
			assert.Equal(t, "https://forge.example/api/v1/licenses/"+l["key"].(string), l["url"])
		}

		r = e.do(req{method: "GET", path: "/api/v1/licenses/MIT", token: tok})
		e.expect(r, http.StatusOK, "")
		mit := r.json(t)
		assert.Equal(t, "MIT", mit["key"])
		assert.Equal(t, "MIT", mit["name"])
		assert.Equal(t, "https://forge.example/api/v1/licenses/MIT", mit["url"])
		assert.True(t, strings.HasPrefix(mit["body"].(string), "MIT License\n"))
		assert.Contains(t, mit["body"], "<year>", "the text is served with its placeholders")
		assert.Contains(t, mit["implementation"], "Create a text file")
	}
	for _, p := range []string{"/gitignore/templates/NoSuchTemplate", "/gitignore/templates/c++",
		"/licenses/NoSuchLicense", "/licenses/%2E%2E", "/licenses/..%2Flicense%2FMIT"} {
		r := e.do(req{method: "GET", path: "/api/v1" + p})
		e.expect(r, http.StatusNotFound, "The target couldn't be found.")
		assert.Equal(t, []any{}, r.json(t)["errors"], p)
	}
	// Label templates are not served yet.
	e.expect(e.do(req{method: "GET", path: "/api/v1/label/templates"}), http.StatusNotImplemented, "")
}
