package httpapi_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

// pushRecorder is a repos.PushListener that remembers what it heard.
type pushRecorder struct {
	mu     sync.Mutex
	pushes []string
}

func (p *pushRecorder) AfterPush(_ context.Context, actor forge.Actor, r *forge.Repository, updates []repos.RefUpdate) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, u := range updates {
		p.pushes = append(p.pushes, actor.User.Name+" "+r.FullName()+" "+u.Ref+" "+u.NewID)
	}
}

func TestPushNotifiesListeners(t *testing.T) {
	t.Parallel()
	rec := &pushRecorder{}
	e := newEnvWith(t, func(c *repos.Config) { c.PushListeners = []repos.PushListener{rec} })
	e.createUser("alice")
	tok := e.token("alice", "all")
	e.expect(e.do(req{method: "POST", path: "/api/v1/user/repos", token: tok, body: map[string]any{"name": "proj"}}), 201, "")

	dir := t.TempDir()
	git := func(args ...string) string {
		cmd := exec.Command("git", append([]string{"-c", "user.name=T", "-c", "user.email=t@example.com", "-c", "init.defaultBranch=main"}, args...)...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "HOME="+dir, "GIT_TERMINAL_PROMPT=0")
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "git %v: %s", args, out)
		return strings.TrimSpace(string(out))
	}
	git("init", ".")
	require.NoError(t, os.WriteFile(filepath.Join(dir, "f"), []byte("x"), 0o644))
	git("add", ".")
	git("commit", "-m", "c")
	head := git("rev-parse", "HEAD")
	git("push", strings.Replace(e.srv.URL, "http://", "http://alice:"+tok+"@", 1)+"/alice/proj.git", "main")

	rec.mu.Lock()
	defer rec.mu.Unlock()
	assert.Equal(t, []string{"alice alice/proj refs/heads/main " + head}, rec.pushes)
	r := e.do(req{method: "GET", path: "/api/v1/repos/alice/proj", token: tok})
	assert.Equal(t, false, r.json(t)["empty"])
}
