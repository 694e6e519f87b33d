package httpapi_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestGeneralSettings: /settings/repository says what this server serves
// (git over HTTP on, LFS, migrations, mirrors and time tracking off) and
// /settings/ui Forgejo's reaction defaults; both public.
func TestGeneralSettings(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	r := e.do(req{method: "GET", path: "/api/v1/settings/repository"})
	e.expect(r, http.StatusOK, "")
	got := r.json(t)
	assert.Equal(t, false, got["http_git_disabled"])
	assert.Equal(t, true, got["lfs_disabled"])
	assert.Equal(t, true, got["mirrors_disabled"])
	assert.Equal(t, false, got["stars_disabled"])
	r = e.do(req{method: "GET", path: "/api/v1/settings/ui"})
	e.expect(r, http.StatusOK, "")
	assert.Contains(t, r.json(t)["allowed_reactions"], "+1")
}
