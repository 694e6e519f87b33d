package issues_test

import (
	"bytes"
	"context"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/issues"
	"github.com/hearthforge/hearth/storage/memgit"
	"github.com/hearthforge/hearth/storage/memstore"
)

// env is the issue service on memstore, with the real repository service
// (on memgit) deciding who sees what, and a fake clock.
type env struct {
	t     testing.TB
	ctx   context.Context
	store *memstore.Store
	repos *repos.Service
	svc   *issues.Service
	clock *forgetest.FakeClock
	blobs *memBlobs
	// allRepos lists owner/name of the repositories repoSearch covers.
	allRepos [][2]string
}

func newEnv(t testing.TB) *env {
	t.Helper()
	e := &env{t: t, ctx: context.Background(), store: memstore.New(), clock: forgetest.NewClock(), blobs: &memBlobs{m: map[string][]byte{}}}
	var err error
	e.repos, err = repos.New(repos.Config{Store: e.store.Repos(), Git: memgit.New(), Clock: e.clock})
	require.NoError(t, err)
	e.svc, err = issues.New(issues.Config{Store: e.store.Issues(), Repos: e.repos, Clock: e.clock, Blobs: e.blobs})
	require.NoError(t, err)
	return e
}

// user creates an account and returns a password actor for it.
func (e *env) user(name string, opts ...func(*forge.User)) forge.Actor {
	e.t.Helper()
	u := forgetest.User(name, opts...)
	require.NoError(e.t, e.store.Auth().Update(e.ctx, func(tx auth.Tx) error { return tx.CreateUser(e.ctx, u, "") }))
	return forgetest.ActorFor(u)
}

// repo creates a repository of owner.
func (e *env) repo(owner forge.Actor, name string, private bool) *forge.Repository {
	e.t.Helper()
	v, err := e.repos.Create(e.ctx, owner, "", repos.CreateOptions{Name: name, Private: private})
	require.NoError(e.t, err)
	return v.Repo
}

// collab makes user a collaborator of owner's repository.
func (e *env) collab(owner forge.Actor, repo string, user forge.Actor, mode forge.AccessMode) {
	e.t.Helper()
	require.NoError(e.t, e.repos.AddCollaborator(e.ctx, owner, owner.User.Name, repo, user.User.Name, mode))
}

// setRepo changes a stored repository directly (archiving, units).
func (e *env) setRepo(r *forge.Repository, fn func(*forge.Repository)) {
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

// issue creates an issue as actor.
func (e *env) issue(actor forge.Actor, owner, repo, title string) *issues.IssueView {
	e.t.Helper()
	v, err := e.svc.Create(e.ctx, actor, owner, repo, issues.CreateIssueOption{Title: title})
	require.NoError(e.t, err)
	return v
}

// label creates a repository label.
func (e *env) label(actor forge.Actor, owner, repo, name string, exclusive bool) *issues.Label {
	e.t.Helper()
	l, err := e.svc.CreateLabel(e.ctx, actor, owner, repo, issues.CreateLabelOption{Name: name, Color: "#00aabb", Exclusive: exclusive})
	require.NoError(e.t, err)
	return l
}

func at(t time.Time) *time.Time { return &t }

func labelNames(ls []*issues.Label) string {
	var s []string
	for _, l := range ls {
		s = append(s, l.Name)
	}
	return strings.Join(s, " ")
}

// memBlobs is an in-memory issues.Blobs.
type memBlobs struct {
	mu sync.Mutex
	m  map[string][]byte
}

func (b *memBlobs) Put(_ context.Context, key string, r io.Reader, max int64) (int64, error) {
	var buf bytes.Buffer
	src := r
	if max > 0 {
		src = io.LimitReader(r, max+1)
	}
	n, err := io.Copy(&buf, src)
	if err != nil {
		return 0, err
	}
	if max > 0 && n > max {
		return 0, forge.Errorf(forge.ErrInvalid, "file too large")
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.m[key] = buf.Bytes()
	return n, nil
}

func (b *memBlobs) Open(_ context.Context, key string) (io.ReadCloser, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	v, ok := b.m[key]
	if !ok {
		return nil, forge.Errorf(forge.ErrNotFound, "no blob")
	}
	return io.NopCloser(bytes.NewReader(v)), nil
}

func (b *memBlobs) Delete(_ context.Context, key string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.m, key)
	return nil
}

func (b *memBlobs) len() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.m)
}

// forgetestActor returns a password actor for the stored user name.
func forgetestActor(e *env, name string) forge.Actor {
	e.t.Helper()
	var u *forge.User
	require.NoError(e.t, e.store.Auth().View(e.ctx, func(tx auth.Tx) error {
		var err error
		u, err = tx.UserByName(e.ctx, name)
		return err
	}))
	return forgetest.ActorFor(u)
}

// forgetestToken returns a token actor for the stored user name.
func forgetestToken(e *env, name string, scope ...string) forge.Actor {
	e.t.Helper()
	return forgetest.TokenActor(forgetestActor(e, name).User, scope...)
}

func bytesReader(s string) io.Reader { return strings.NewReader(s) }
