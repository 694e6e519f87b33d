package site_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/forge/site"
)

// feedAction is what the tests read of a feed's action.
type feedAction struct {
	OpType  string `json:"op_type"`
	RefName string `json:"ref_name"`
	Content string `json:"content"`
}

// feedOps reads the repository feed of root/name as root and returns its
// "op_type ref_name" entries.
func (e *siteEnv) feedOps(name string) []string {
	out := []string{}
	for _, a := range e.feedActions(name) {
		out = append(out, strings.TrimSpace(a.OpType+" "+a.RefName))
	}
	return out
}

// feedActions reads the repository feed of root/name as root.
func (e *siteEnv) feedActions(name string) []feedAction {
	e.t.Helper()
	req, _ := http.NewRequest("GET", e.srv.URL+"/api/v1/repos/root/"+name+"/activities/feeds?limit=50", nil)
	req.SetBasicAuth("root", rootPassword)
	res, err := http.DefaultClient.Do(req)
	require.NoError(e.t, err)
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	require.Equal(e.t, http.StatusOK, res.StatusCode, "%s", raw)
	var list []feedAction
	require.NoError(e.t, json.NewDecoder(bytes.NewReader(raw)).Decode(&list))
	return list
}

// pushContent decodes the content of the newest commit_repo action of
// ref in the feed of root/name: Forgejo's PushCommits.
func (e *siteEnv) pushContent(name, ref string) (head string, n int, compare string) {
	e.t.Helper()
	for _, a := range e.feedActions(name) {
		if a.OpType == "commit_repo" && a.RefName == ref {
			var c struct {
				HeadCommit struct{ Sha1 string }
				CompareURL string
				Len        int
			}
			require.NoError(e.t, json.Unmarshal([]byte(a.Content), &c), a.Content)
			return c.HeadCommit.Sha1, c.Len, c.CompareURL
		}
	}
	e.t.Fatalf("no commit_repo of %s", ref)
	return "", 0, ""
}

// waitFeed polls the feed of root/name until it holds every entry of
// want, failing after a deadline: the feed is written by the outbox
// consumer that Run's dispatcher runs after the change.
func (e *siteEnv) waitFeed(name string, want ...string) {
	e.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		got := e.feedOps(name)
		missing := slices.DeleteFunc(slices.Clone(want), func(w string) bool { return slices.Contains(got, w) })
		if len(missing) == 0 {
			return
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("feed of %s: %v never appeared; it holds %v", name, missing, got)
		}
		<-tick.C // polled until the deadline: the consumer runs in Run's goroutine
	}
}

// TestFeedsFollowPushesAndIssues: on a running forge (SQLite in a data
// directory, the workers running), a repository created, a branch and a
// tag pushed with git over HTTP, a branch deleted and an issue opened
// through the API reach the repository's activity feed through the
// outbox's feed consumer.
func TestFeedsFollowPushesAndIssues(t *testing.T) {
	t.Parallel()
	e := startSite(t, site.Config{Dir: t.TempDir()})
	e.call("POST", "/user/repos", map[string]any{"name": "r", "auto_init": true}, http.StatusCreated)
	e.waitFeed("r", "create_repo")

	dir := t.TempDir()
	url := strings.Replace(e.srv.URL, "http://", "http://root:"+rootPassword+"@", 1) + "/root/r.git"
	forgetest.Git(t, dir, "clone", "-q", url, "w")
	w := filepath.Join(dir, "w")
	firstMain := forgetest.Git(t, w, "rev-parse", "HEAD")
	require.NoError(t, os.WriteFile(filepath.Join(w, "f.txt"), []byte("f"), 0o644))
	forgetest.Git(t, w, "add", "f.txt")
	forgetest.Git(t, w, "commit", "-q", "-m", "f")
	forgetest.Git(t, w, "tag", "v1")
	forgetest.Git(t, w, "push", "-q", "origin", "HEAD:refs/heads/feature", "v1")
	e.waitFeed("r", "commit_repo refs/heads/feature", "push_tag refs/tags/v1")
	head, n, compare := e.pushContent("r", "refs/heads/feature")
	require.Equal(t, forgetest.Git(t, w, "rev-parse", "HEAD"), head, "the content names the pushed commit")
	require.Equal(t, 2, n, "a new branch counts its last commits (Forgejo: up to 10), the initial one included")
	require.Empty(t, compare, "no compare path for a new branch")

	forgetest.Git(t, w, "push", "-q", "origin", ":refs/heads/feature", ":refs/tags/v1")
	e.waitFeed("r", "delete_branch refs/heads/feature", "delete_tag refs/tags/v1")

	require.NoError(t, os.WriteFile(filepath.Join(w, "g.txt"), []byte("g"), 0o644))
	forgetest.Git(t, w, "add", "g.txt")
	forgetest.Git(t, w, "commit", "-q", "-m", "g")
	forgetest.Git(t, w, "push", "-q", "origin", "HEAD:refs/heads/main")
	e.waitFeed("r", "commit_repo refs/heads/main")
	head, n, compare = e.pushContent("r", "refs/heads/main")
	require.Equal(t, forgetest.Git(t, w, "rev-parse", "HEAD"), head)
	require.Equal(t, 2, n, "main moved from the initial commit by two")
	require.Equal(t, "root/r/compare/"+firstMain+"..."+head, compare)

	e.call("POST", "/repos/root/r/issues", map[string]any{"title": "t"}, http.StatusCreated)
	e.waitFeed("r", "create_issue")
}

// TestFeedsSurviveAStop: an action whose event was committed while no
// dispatcher ran (the server stopped before its consumer ran) reaches
// the feed once the server runs again on the same data directory, once.
func TestFeedsSurviveAStop(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s, err := site.New(t.Context(), site.Config{Dir: dir})
	require.NoError(t, err)
	createRootRepo(t, s, "r") // committed with its outbox event; Run never ran
	require.NoError(t, s.Close())

	e := startSite(t, site.Config{Dir: dir})
	e.waitFeed("r", "create_repo")
	e.call("POST", "/repos/root/r/issues", map[string]any{"title": "t"}, http.StatusCreated)
	e.waitFeed("r", "create_issue")
	require.Equal(t, []string{"create_issue", "create_repo"}, e.feedOps("r"), "each action once")
}
