package httpapi_test

import (
	"context"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hearthforge/hearth/forge/cron"
	"github.com/hearthforge/hearth/httpapi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAdminCron: GET /admin/cron lists the registry's tasks in Forgejo's
// Cron shape with X-Total-Count; POST /admin/cron/{task} runs one (204)
// and the list counts it; an unknown task is 404; a user who is no site
// administrator, and an administrator's token without the admin scope,
// are refused and run nothing.
func TestAdminCron(t *testing.T) {
	t.Parallel()
	var runs atomic.Int64
	reg, err := cron.New(cron.Config{Tasks: []cron.Task{
		{Name: "update_mirrors", Every: time.Minute, Run: func(context.Context) error { runs.Add(1); return nil }},
		{Name: "sweep_blobs", Every: time.Hour, Run: func(context.Context) error { return nil }},
	}})
	require.NoError(t, err)
	e := newEnv(t, func(c *httpapi.Config) { c.Cron = reg })
	e.createUser("alice")

	r := e.do(rootReq("GET", "/admin/cron", nil))
	e.expect(r, http.StatusOK, "")
	assert.Equal(t, "2", r.Header.Get("X-Total-Count"))
	list := r.list(t)
	require.Len(t, list, 2)
	assert.Equal(t, "sweep_blobs", list[0]["name"])
	assert.Equal(t, "@every 1m0s", list[1]["schedule"])
	assert.EqualValues(t, 0, list[1]["exec_times"])

	r = e.do(rootReq("POST", "/admin/cron/update_mirrors", nil))
	e.expect(r, http.StatusNoContent, "")
	assert.EqualValues(t, 1, runs.Load())
	r = e.do(rootReq("GET", "/admin/cron?limit=1&page=2", nil))
	e.expect(r, http.StatusOK, "")
	list = r.list(t)
	require.Len(t, list, 1)
	assert.Equal(t, "update_mirrors", list[0]["name"])
	assert.EqualValues(t, 1, list[0]["exec_times"])

	e.expect(e.do(rootReq("POST", "/admin/cron/nope", nil)), http.StatusNotFound, "")
	e.expect(e.do(as("alice", "POST", "/admin/cron/update_mirrors", nil)), http.StatusForbidden, "user should be the site admin")
	e.expect(e.do(as("alice", "GET", "/admin/cron", nil)), http.StatusForbidden, "user should be the site admin")
	tok := e.token("root", "write:repository")
	e.expect(e.do(req{method: "POST", path: "/api/v1/admin/cron/update_mirrors", token: tok}), http.StatusForbidden, "")
	e.expect(e.do(req{method: "GET", path: "/api/v1/admin/cron"}), http.StatusUnauthorized, "")
	assert.EqualValues(t, 1, runs.Load(), "refused calls run nothing")
}
