package httpapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/forge/site"
	"github.com/hearthforge/hearth/httpapi"
	"github.com/hearthforge/hearth/issues"
	"github.com/hearthforge/hearth/storage/gitstore"
)

// pullEnv is issueEnv with pull requests wired as examples/forged wires
// them: issues.Config.Pulls with the real gitstore and repository service,
// and the issue service's AfterPush as a push listener, so that pushes made
// with the git CLI over smart HTTP move pull requests. Every response is
// checked against the OpenAPI document (checked).
type pullEnv struct {
	*issueEnv
	git *gitstore.Store
}

// lateListener forwards pushes to the issue service once built, then runs
// the pull request checks they queued (CheckPending), so that a test reads
// the pull requests' state right after a push.
type lateListener struct {
	svc   *issues.Service
	ports *issues.Ports
}

func (l *lateListener) AfterPush(ctx context.Context, actor forge.Actor, r *forge.Repository, u []repos.RefUpdate) {
	if l.svc != nil {
		_ = l.ports.AfterPush(ctx, actor, r, u)
		_ = l.svc.CheckPending(ctx)
	}
}

// newPullEnv builds the environment: alice owns alice/proj (object format
// format, "" for SHA-1), bob writes to it, eve has no access; mutate may
// change the issue service's Config.
func newPullEnv(t *testing.T, format string, mutate ...func(*issues.Config)) *pullEnv {
	t.Helper()
	return newPullEnvWith(t, format, nil, mutate...)
}

// newPullEnvWith is newPullEnv with a change to the repository service's
// Config (repoCfg, nil for none) before it is built.
func newPullEnvWith(t *testing.T, format string, repoCfg func(*repos.Config), mutate ...func(*issues.Config)) *pullEnv {
	t.Helper()
	// A database file, as examples/forged opens: the pull-request service
	// reads repositories (their own store) inside its issue transactions,
	// which the one connection of ":memory:" would wait on forever.
	b := newBase(t, filepath.Join(t.TempDir(), "hearth.db"), testSecret)
	db, clock, svc, git, blobs := b.db, b.clock, b.auth, b.git, b.blobs
	late := &lateListener{}
	repoSvc, _ := b.repoService(t, func(c *repos.Config) {
		c.PushListeners = []repos.PushListener{late}
		if repoCfg != nil {
			repoCfg(c)
		}
	})
	ic := issues.Config{Store: db.Issues(), Repos: repoSvc, Orgs: fakeOrgs{svc}, Search: site.IssueRepos{Repos: repoSvc}, Clock: clock, Blobs: blobs,
		Pulls: issues.PullConfig{Git: git, Repos: repoSvc}}
	for _, m := range mutate {
		m(&ic)
	}
	issueSvc, issuePorts, err := issues.NewWithPorts(ic)
	require.NoError(t, err)
	late.svc, late.ports = issueSvc, issuePorts
	e := &pullEnv{issueEnv: issueUsers(b.serve(t, httpapi.Config{Auth: svc, Repos: repoSvc, Git: gitstore.HTTP{Store: git, MaxPushBytes: gitstore.DefaultMaxPushBytes}, Issues: issueSvc}), issueSvc, "/api/v1/repos/alice/proj"), git: git}
	body := map[string]any{"name": "proj"}
	if format != "" {
		body["object_format_name"] = format
	}
	e.send(e.alice, "POST", "/api/v1/user/repos", body, 201)
	e.send(e.alice, "PUT", e.proj+"/collaborators/bob", map[string]any{"permission": "write"}, 204)
	return e
}

// work is a local git repository whose remote is a repository of the
// environment, driven with the git CLI.
type work struct {
	t      *testing.T
	dir    string
	remote string
}

// clone makes a working repository for owner/name, pushing as user with
// tok. format is the object format of a fresh repository ("" SHA-1).
func (e *pullEnv) work(user, tok, owner, name, format string) *work {
	e.t.Helper()
	w := &work{t: e.t, dir: e.t.TempDir(),
		remote: strings.Replace(e.srv.URL, "http://", "http://"+user+":"+tok+"@", 1) + "/" + owner + "/" + name + ".git"}
	if format == "" {
		format = "sha1"
	}
	w.git("init", "--object-format="+format, ".")
	return w
}

// git runs git in the working repository and returns its trimmed output.
func (w *work) git(args ...string) string {
	w.t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=T", "-c", "user.email=t@example.com", "-c", "init.defaultBranch=main"}, args...)...)
	cmd.Dir = w.dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "HOME="+w.dir, "GIT_TERMINAL_PROMPT=0",
		"GIT_AUTHOR_DATE=2026-01-02T03:04:05Z", "GIT_COMMITTER_DATE=2026-01-02T03:04:05Z")
	out, err := cmd.CombinedOutput()
	require.NoError(w.t, err, "git %v: %s", args, out)
	return strings.TrimSpace(string(out))
}

// commit writes files (path → content; "" deletes) and commits them.
func (w *work) commit(msg string, files map[string]string) string {
	w.t.Helper()
	for p, content := range files {
		full := filepath.Join(w.dir, p)
		if content == "" {
			require.NoError(w.t, os.Remove(full))
			continue
		}
		require.NoError(w.t, os.MkdirAll(filepath.Dir(full), 0o755))
		require.NoError(w.t, os.WriteFile(full, []byte(content), 0o644))
	}
	w.git("add", "-A")
	w.git("commit", "-q", "-m", msg)
	return w.git("rev-parse", "HEAD")
}

// push pushes refspecs to the remote.
func (w *work) push(refspecs ...string) {
	w.t.Helper()
	w.git(append([]string{"push", "-q", w.remote}, refspecs...)...)
}

// fetch fetches the remote's branches as refs/remotes/o/*.
func (w *work) fetch() {
	w.t.Helper()
	w.git("fetch", "-q", "--prune", w.remote, "+refs/heads/*:refs/remotes/o/*")
}

// seed pushes main with one file, then b1 (one commit on main) and b2
// (one commit on b1), and returns the working repository.
func (e *pullEnv) seed(format string) *work {
	e.t.Helper()
	w := e.work("alice", e.alice, "alice", "proj", format)
	w.commit("init", map[string]string{"README.md": "hello\n", "a.txt": "1\n2\n3\n"})
	w.push("main")
	w.git("checkout", "-q", "-b", "b1")
	w.commit("b1 change", map[string]string{"a.txt": "1\n2 changed\n3\n4\n", "new.txt": "new\n"})
	w.push("b1")
	w.git("checkout", "-q", "-b", "b2")
	w.commit("b2 change", map[string]string{"b2.txt": "b2\n"})
	w.push("b2")
	w.git("checkout", "-q", "main")
	return w
}

// seededPulls is the common start of a pull-request test: newPullEnv with
// SHA-1 objects and its seed pushed (main, b1, b2).
func seededPulls(t *testing.T) (*pullEnv, *work) {
	t.Helper()
	e := newPullEnv(t, "")
	return e, e.seed("")
}

// newPull opens a pull request from head into base as tok and returns its
// JSON.
func (e *pullEnv) newPull(tok, head, base, title string) map[string]any {
	e.t.Helper()
	return e.send(tok, "POST", e.proj+"/pulls", map[string]any{"head": head, "base": base, "title": title}, 201).json(e.t)
}

// pullPath is the API path of pull request n of alice/proj, with suffix.
func (e *pullEnv) pullPath(n int, suffix string) string {
	return fmt.Sprintf("%s/pulls/%d%s", e.proj, n, suffix)
}

// getPull reads pull request n.
func (e *pullEnv) getPull(n int) map[string]any {
	e.t.Helper()
	return e.send(e.alice, "GET", e.pullPath(n, ""), nil, 200).json(e.t)
}

// num is a JSON number as an int.
func num(v any) int { return int(v.(float64)) }

// jsonString formats v as JSON, for messages.
func jsonString(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
