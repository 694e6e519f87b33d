package site_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/hearthforge/hearth/forge/site"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCronTasksAreTheWorkers: the site's GET /admin/cron lists the
// periodic tasks it runs (update_mirrors always; sweep_blobs with
// BlobSweep, already run once at start), and POST runs one on demand.
func TestCronTasksAreTheWorkers(t *testing.T) {
	t.Parallel()
	e := startSite(t, site.Config{Dir: t.TempDir(), BlobSweep: time.Hour})
	list := func() map[string]map[string]any {
		req, _ := http.NewRequest("GET", e.srv.URL+"/api/v1/admin/cron", bytes.NewReader(nil))
		req.SetBasicAuth("root", rootPassword)
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer res.Body.Close()
		raw, _ := io.ReadAll(res.Body)
		require.Equal(t, http.StatusOK, res.StatusCode, "%s", raw)
		var tasks []map[string]any
		require.NoError(t, json.Unmarshal(raw, &tasks))
		out := map[string]map[string]any{}
		for _, task := range tasks {
			out[task["name"].(string)] = task
		}
		return out
	}
	tasks := list()
	require.Len(t, tasks, 2)
	assert.Equal(t, "@every 1m0s", tasks["update_mirrors"]["schedule"])
	assert.Equal(t, "@every 1h0m0s", tasks["sweep_blobs"]["schedule"])
	// The sweep at start: poll with a deadline for its count.
	deadline := time.Now().Add(time.Minute)
	for tasks["sweep_blobs"]["exec_times"] != float64(1) {
		require.True(t, time.Now().Before(deadline), "sweep_blobs never ran at start: %v", tasks["sweep_blobs"])
		tasks = list()
	}
	before := tasks["update_mirrors"]["exec_times"].(float64)
	e.call("POST", "/admin/cron/update_mirrors", nil, http.StatusNoContent)
	assert.Equal(t, before+1, list()["update_mirrors"]["exec_times"])
	e.call("POST", "/admin/cron/unknown", nil, http.StatusNotFound)
}
