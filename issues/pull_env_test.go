package issues_test

import (
	"bytes"
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/forge/hooks"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/issues"
	"github.com/hearthforge/hearth/storage/gitstore"
	"github.com/hearthforge/hearth/storage/memstore"
	"github.com/hearthforge/hearth/storage/sqlite"
)

// pullEnv is the issue service with pull requests on memstore and a real
// gitstore (git repositories in t.TempDir()), the real repository service
// telling the issue service of pushes, as the wiring does.
type pullEnv struct {
	t     testing.TB
	ctx   context.Context
	store pullBackend
	git   *gitstore.Store
	repos *repos.Service
	svc   *issues.Service
	ports *issues.Ports
	clock *forgetest.FakeClock
	// events records what the issue service told its listeners.
	events *recorder
	// late is the repository service's push listener (queueOnly leaves the
	// pull request checks queued).
	late *lateListener
	// pc is the pull-request configuration the service was built with.
	pc issues.PullConfig
}

// lateListener forwards pushes to the issue service once it exists and,
// unless queueOnly, then runs the pull request checks they queued
// (CheckPending), so that a test reads the pull requests' state right
// after a push.
type lateListener struct {
	svc       *issues.Service
	ports     *issues.Ports
	queueOnly bool
}

func (l *lateListener) AfterPush(ctx context.Context, actor forge.Actor, repo *forge.Repository, u []repos.RefUpdate) {
	if err := l.ports.AfterPush(ctx, actor, repo, u); err != nil {
		panic(err) // a test's store does not fail
	}
	if !l.queueOnly {
		if err := l.svc.CheckPending(ctx); err != nil {
			panic(err)
		}
	}
}

// pullBackend is the stores a pullEnv uses: memstore or SQLite.
type pullBackend interface {
	Auth() auth.Store
	Repos() repos.Store
	Issues() issues.Store
	Hooks() hooks.Store
}

func newPullEnv(t testing.TB, opts ...func(*issues.PullConfig)) *pullEnv {
	t.Helper()
	return newPullEnvOn(t, memstore.New(), opts...)
}

// newPullEnvSQL is newPullEnv on a SQLite database in t.TempDir().
func newPullEnvSQL(t testing.TB, opts ...func(*issues.PullConfig)) *pullEnv {
	t.Helper()
	db, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "hearth.db"))
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	return newPullEnvOn(t, db, opts...)
}

func newPullEnvOn(t testing.TB, store pullBackend, opts ...func(*issues.PullConfig)) *pullEnv {
	t.Helper()
	e := &pullEnv{t: t, ctx: context.Background(), store: store, clock: forgetest.NewClock()}
	e.events = newRecorder(t, store.Hooks())
	var err error
	e.git, err = gitstore.Open(t.TempDir())
	require.NoError(t, err)
	t.Cleanup(func() { e.git.Close() })
	late := &lateListener{}
	e.repos, err = repos.New(repos.Config{Store: e.store.Repos(), Git: e.git, Clock: e.clock, PushListeners: []repos.PushListener{late}})
	require.NoError(t, err)
	pc := issues.PullConfig{Git: e.git, Repos: e.repos}
	for _, o := range opts {
		o(&pc)
	}
	e.late, e.pc = late, pc
	e.restart()
	return e
}

// restart replaces the issue service by a new one on the same stores, as
// a process that starts again: the old one's queue of pull request checks
// is lost.
func (e *pullEnv) restart() {
	e.t.Helper()
	var err error
	e.svc, e.ports, err = issues.NewWithPorts(issues.Config{Store: e.store.Issues(), Repos: e.repos, Clock: e.clock, Pulls: e.pc})
	require.NoError(e.t, err)
	e.late.svc, e.late.ports = e.svc, e.ports
}

func (e *pullEnv) user(name string) forge.Actor {
	e.t.Helper()
	u := forgetest.User(name)
	require.NoError(e.t, e.store.Auth().Update(e.ctx, func(tx auth.Tx) error { return tx.CreateUser(e.ctx, u, "") }))
	return forgetest.ActorFor(u)
}

// repo creates a repository of owner with a first commit on main (a.txt,
// b.txt) in format.
func (e *pullEnv) repo(owner forge.Actor, name string, format forge.ObjectFormat) *forge.Repository {
	e.t.Helper()
	v, err := e.repos.Create(e.ctx, owner, "", repos.CreateOptions{Name: name, ObjectFormat: format, DefaultBranch: "main"})
	require.NoError(e.t, err)
	e.commit(owner, v.Repo, "", "main", "init\n", op("create", "a.txt", "1\n2\n3\n"), op("create", "b.txt", "b\n"))
	r, _, err := e.repos.RepoAccess(e.ctx, owner, owner.User.Name, name)
	require.NoError(e.t, err)
	return r
}

func op(kind, path, content string) repos.FileOp {
	return repos.FileOp{Op: kind, Path: path, Content: []byte(content)}
}

// commit writes a commit on branch (from "from" when creating the branch)
// as a push by actor would, and tells the push listeners.
func (e *pullEnv) commit(actor forge.Actor, r *forge.Repository, from, branch, msg string, ops ...repos.FileOp) string {
	e.t.Helper()
	cs := repos.ChangeSet{Branch: branch, Message: msg, Files: ops}
	old := ""
	if from != "" {
		cs.Branch, cs.NewBranch = from, branch
	} else if id, err := e.git.Resolve(e.ctx, r.ID, "refs/heads/"+branch); err == nil {
		old = id
	} else {
		cs.Branch, cs.NewBranch = "", branch
	}
	sig := repos.Signature{Name: actor.User.Name, Email: actor.User.Name + "@example.com", When: e.clock.Now()}
	cs.Author, cs.Committer = sig, sig
	c, err := e.git.Apply(e.ctx, r.ID, cs)
	require.NoError(e.t, err)
	require.NoError(e.t, e.repos.AfterPush(e.ctx, actor, r.ID, []repos.RefUpdate{{Ref: "refs/heads/" + branch, OldID: old, NewID: c.ID}}))
	e.clock.Step(time.Minute)
	return c.ID
}

// deleteBranch deletes a branch as a push would.
func (e *pullEnv) deleteBranch(actor forge.Actor, r *forge.Repository, branch string) {
	e.t.Helper()
	old, err := e.git.Resolve(e.ctx, r.ID, "refs/heads/"+branch)
	require.NoError(e.t, err)
	require.NoError(e.t, e.git.SetRef(e.ctx, r.ID, "refs/heads/"+branch, "", old))
	require.NoError(e.t, e.repos.AfterPush(e.ctx, actor, r.ID, []repos.RefUpdate{{Ref: "refs/heads/" + branch, OldID: old}}))
}

func (e *pullEnv) tip(r *forge.Repository, branch string) string {
	e.t.Helper()
	id, err := e.git.Resolve(e.ctx, r.ID, "refs/heads/"+branch)
	require.NoError(e.t, err)
	return id
}

func (e *pullEnv) hasBranch(r *forge.Repository, branch string) bool {
	_, err := e.git.Resolve(e.ctx, r.ID, "refs/heads/"+branch)
	return err == nil
}

// gitCLI runs the git command line in r's directory.
func (e *pullEnv) gitCLI(r *forge.Repository, args ...string) string {
	e.t.Helper()
	c := exec.Command("git", append([]string{"-C", e.git.Path(r.ID)}, args...)...)
	c.Env = append(c.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
	var stderr bytes.Buffer
	c.Stderr = &stderr
	out, err := c.Output()
	require.NoError(e.t, err, "git %v: %s", args, stderr.String())
	return strings.TrimRight(string(out), "\n")
}

// pull opens a pull request and returns it.
func (e *pullEnv) pull(actor forge.Actor, r *forge.Repository, head, base, title string) *issues.PullView {
	e.t.Helper()
	v, err := e.svc.CreatePull(e.ctx, actor, r.OwnerName, r.Name, issues.CreatePullOption{Head: head, Base: base, Title: title})
	require.NoError(e.t, err)
	return v
}

func (e *pullEnv) get(actor forge.Actor, r *forge.Repository, index int64) *issues.PullView {
	e.t.Helper()
	v, err := e.svc.GetPull(e.ctx, actor, r.OwnerName, r.Name, index)
	require.NoError(e.t, err)
	return v
}

// setRepo changes a stored repository directly.
func (e *pullEnv) setRepo(r *forge.Repository, fn func(*forge.Repository)) {
	e.t.Helper()
	require.NoError(e.t, e.store.Repos().Update(e.ctx, func(tx repos.Tx) error {
		cur, err := tx.RepoByID(e.ctx, r.ID)
		if err != nil {
			return err
		}
		fn(cur)
		return tx.UpdateRepo(e.ctx, cur)
	}))
}

func (e *pullEnv) setPrivate(r *forge.Repository) {
	e.setRepo(r, func(r *forge.Repository) { r.Private = true })
}

// commitRef moves branch from old to id as a push would.
func (e *pullEnv) commitRef(actor forge.Actor, r *forge.Repository, branch, old, id string) {
	e.t.Helper()
	require.NoError(e.t, e.git.SetRef(e.ctx, r.ID, "refs/heads/"+branch, id, old))
	require.NoError(e.t, e.repos.AfterPush(e.ctx, actor, r.ID, []repos.RefUpdate{{Ref: "refs/heads/" + branch, OldID: old, NewID: id}}))
}

// forgetestTokenFor is a token actor of a's user with scopes.
func forgetestTokenFor(a forge.Actor, scope ...string) forge.Actor {
	return forgetest.TokenActor(a.User, scope...)
}
