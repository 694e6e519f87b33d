package site_test

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge/hooks"
	"github.com/hearthforge/hearth/forge/site"
)

// TestPayloadRepositoryPresented: the repository of a webhook payload is
// the API's repository answer, counters included: the issues event of a
// repository's first issue shows open_issues_count 1, as GET
// /repos/{owner}/{repo} does.
func TestPayloadRepositoryPresented(t *testing.T) {
	t.Parallel()
	policy, err := hooks.ParseAddressPolicy([]string{"loopback"})
	require.NoError(t, err)
	e := startSite(t, site.Config{WebhookPolicy: policy})
	call := e.call
	url, deliveries := receiver(t)
	call("POST", "/user/repos", map[string]any{"name": "r", "auto_init": true}, http.StatusCreated)
	call("POST", "/repos/root/r/hooks", map[string]any{"type": "forgejo", "active": true, "events": []string{"issues"},
		"config": map[string]string{"url": url, "content_type": "json"}}, http.StatusCreated)
	call("POST", "/repos/root/r/issues", map[string]any{"title": "one"}, http.StatusCreated)
	var payload struct {
		Repository map[string]any `json:"repository"`
	}
	select {
	case d := <-deliveries:
		require.NoError(t, json.Unmarshal(d.body, &payload))
	case <-time.After(time.Minute):
		t.Fatal("no webhook delivered")
	}
	answer := call("GET", "/repos/root/r", nil, http.StatusOK)
	assert.EqualValues(t, 1, answer["open_issues_count"])
	assert.EqualValues(t, 1, payload.Repository["open_issues_count"], "the payload's repository shows the counters")
}
