package httpapi_test

import (
	"net/http"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestAccessMatrixAllowMaintainerEdit: only the poster with write on the
// head repository's code may set allow_maintainer_edit (Forgejo's
// SetAllowEdits); a read collaborator who opened the pull request is
// refused and nothing changes.
func TestAccessMatrixAllowMaintainerEdit(t *testing.T) {
	t.Parallel()
	e := newMatrixEnv(t)
	w := seedMatrix(t, e)
	base := "/repos/olivia/pubrepo"
	r := e.do(as("olivia", "POST", base+"/contents/two.txt", map[string]any{"content": "dHdvCg==", "message": "two", "new_branch": "two"}))
	require.Equal(t, http.StatusCreated, r.StatusCode, r.body)
	r = e.do(as("reader", "POST", base+"/pulls", map[string]any{"head": "two", "base": "main", "title": "by reader"}))
	require.Equal(t, http.StatusCreated, r.StatusCode, r.body)
	n := strconv.FormatInt(int64(r.json(t)["number"].(float64)), 10)

	r = e.do(as("reader", "PATCH", base+"/pulls/"+n, map[string]any{"allow_maintainer_edit": true}))
	require.Equal(t, http.StatusForbidden, r.StatusCode, "a poster without write on the head repository: %s", r.body)
	r = e.do(as("reader", "GET", base+"/pulls/"+n, nil))
	require.Equal(t, false, r.json(t)["allow_maintainer_edit"], "nothing changed")

	// The poster of the seeded pull request, owner of its head repository.
	r = e.do(as("olivia", "PATCH", base+"/pulls/"+w.pull, map[string]any{"allow_maintainer_edit": true}))
	require.Equal(t, http.StatusCreated, r.StatusCode, r.body)
	require.Equal(t, true, r.json(t)["allow_maintainer_edit"])
}
