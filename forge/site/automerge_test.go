package site_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge/site"
)

// TestScheduledMergeOnStatus: a pull request scheduled to merge when its
// checks succeed (merge_when_checks_succeed while the required "ci"
// status is pending) is merged by the running forge once a success status
// for its head arrives: the status reaches the scheduled merges through
// the outbox, as Forgejo's automerge does on a commit status.
func TestScheduledMergeOnStatus(t *testing.T) {
	t.Parallel()
	e := startSite(t, site.Config{})
	call := e.call
	call("POST", "/user/repos", map[string]any{"name": "r", "auto_init": true}, http.StatusCreated)
	call("POST", "/repos/root/r/branch_protections", map[string]any{"rule_name": "main",
		"enable_status_check": true, "status_check_contexts": []string{"ci"}}, http.StatusCreated)
	call("POST", "/repos/root/r/contents/b.txt", map[string]any{"content": "Ygo=", "message": "add b",
		"new_branch": "b1"}, http.StatusCreated)
	pull := call("POST", "/repos/root/r/pulls", map[string]any{"head": "b1", "base": "main", "title": "wait for ci"},
		http.StatusCreated)
	head := pull["head"].(map[string]any)["sha"].(string)
	call("POST", "/repos/root/r/statuses/"+head, map[string]any{"state": "pending", "context": "ci"}, http.StatusCreated)
	call("POST", "/repos/root/r/pulls/1/merge", map[string]any{"Do": "merge", "merge_when_checks_succeed": true},
		http.StatusCreated)
	require.Equal(t, false, call("GET", "/repos/root/r/pulls/1", nil, http.StatusOK)["merged"])

	call("POST", "/repos/root/r/statuses/"+head, map[string]any{"state": "success", "context": "ci"}, http.StatusCreated)
	deadline := time.Now().Add(time.Minute)
	for call("GET", "/repos/root/r/pulls/1", nil, http.StatusOK)["merged"] != true {
		if time.Now().After(deadline) {
			t.Fatal("the scheduled merge did not happen after the success status")
		}
		time.Sleep(20 * time.Millisecond)
	}
}
