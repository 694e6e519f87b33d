package httpapi_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestAccessMatrixMigrateOwner: a migration into another user's or an
// organisation's namespace is refused to who may not create repositories
// there (403, the address being a good one: the world's own repository
// over loopback, which olivia may migrate), and nothing is created.
func TestAccessMatrixMigrateOwner(t *testing.T) {
	t.Parallel()
	e := newMatrixEnv(t)
	seedMatrix(t, e)
	// The world's own public repository over loopback clones: olivia may.
	r := e.do(as("olivia", "POST", "/repos/migrate", map[string]any{"clone_addr": e.srv.URL + "/olivia/pubrepo.git",
		"repo_name": "copy", "repo_owner": "puborg"}))
	require.Equal(t, http.StatusCreated, r.StatusCode, "%s", r.body)
	for _, c := range []struct{ who, owner string }{{"stranger", "olivia"}, {"stranger", "puborg"}, {"teamw", "puborg"}, {"radmin", "olivia"}} {
		r := e.do(as(c.who, "POST", "/repos/migrate", map[string]any{"clone_addr": e.srv.URL + "/olivia/pubrepo.git",
			"repo_name": "migrated", "repo_owner": c.owner}))
		require.Equal(t, http.StatusForbidden, r.StatusCode, "%s into %s: %s", c.who, c.owner, r.body)
		r = e.do(as("olivia", "GET", "/repos/"+c.owner+"/migrated", nil))
		require.Equal(t, http.StatusNotFound, r.StatusCode, "nothing created")
	}
}
