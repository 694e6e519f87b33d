package repos_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/forge/orgs"
	"github.com/hearthforge/hearth/forge/repos"
)

// repoEvents records what a repos.RepoListener is told.
type repoEvents struct {
	mu  sync.Mutex
	got []string
}

func (r *repoEvents) add(s string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.got = append(r.got, s)
}

func (r *repoEvents) take() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	g := r.got
	r.got = nil
	return g
}

func (r *repoEvents) AfterCreate(_ context.Context, a forge.Actor, repo *forge.Repository) {
	r.add(fmt.Sprintf("create %s by %s ready=%v", repo.FullName(), a.User.Name, repo.Status == forge.RepoReady))
}

func (r *repoEvents) AfterDelete(_ context.Context, a forge.Actor, repo *forge.Repository) {
	r.add(fmt.Sprintf("delete %s by %s", repo.FullName(), a.User.Name))
}

func (r *repoEvents) AfterFork(_ context.Context, a forge.Actor, parent, fork *forge.Repository) {
	r.add(fmt.Sprintf("fork %s into %s by %s", parent.FullName(), fork.FullName(), a.User.Name))
}

// Every way a repository is made or removed tells the listeners once,
// after the change; refused operations tell them nothing.
func TestMemRepoListeners(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ev := &repoEvents{}
	e := newMemEnv(t, func(c *repos.Config) { c.RepoListeners = []repos.RepoListener{ev} })
	alice := e.user(t, "alice")
	bob := e.user(t, "bob")
	root := e.user(t, "root", forgetest.Admin)
	acme := forgetest.User("acme", func(u *forge.User) { u.Type = forge.UserTypeOrganization })
	require.NoError(t, e.store.Orgs().Update(ctx, func(tx orgs.Tx) error { return tx.CreateOrg(ctx, acme) }))

	// A user's own repository.
	e.repo(t, alice, "one", false)
	assert.Equal(t, []string{"create alice/one by alice ready=true"}, ev.take())
	// The same name again is refused: no event.
	_, err := e.svc.Create(ctx, alice, "", repos.CreateOptions{Name: "one"})
	require.ErrorIs(t, err, forge.ErrConflict)
	// A bad name neither.
	_, err = e.svc.Create(ctx, alice, "", repos.CreateOptions{Name: "bad name"})
	require.Error(t, err)
	assert.Empty(t, ev.take())

	// An administrator's repository for another user.
	_, err = e.svc.Create(ctx, root, "bob", repos.CreateOptions{Name: "given"})
	require.NoError(t, err)
	assert.Equal(t, []string{"create bob/given by root ready=true"}, ev.take())
	// Not by a non-administrator.
	_, err = e.svc.Create(ctx, alice, "bob", repos.CreateOptions{Name: "taken"})
	require.ErrorIs(t, err, forge.ErrForbidden)
	assert.Empty(t, ev.take())

	// An organisation's repository (by a site administrator); a stranger
	// is refused.
	_, err = e.svc.CreateInOrg(ctx, root, "acme", repos.CreateOptions{Name: "tool"})
	require.NoError(t, err)
	assert.Equal(t, []string{"create acme/tool by root ready=true"}, ev.take())
	_, err = e.svc.CreateInOrg(ctx, bob, "acme", repos.CreateOptions{Name: "nope"})
	require.Error(t, err)
	assert.Empty(t, ev.take())

	// A fork, once; forking again is refused.
	_, err = e.svc.Fork(ctx, bob, "alice", "one", "")
	require.NoError(t, err)
	assert.Equal(t, []string{"fork alice/one into bob/one by bob"}, ev.take())
	_, err = e.svc.Fork(ctx, bob, "alice", "one", "again")
	require.ErrorIs(t, err, forge.ErrConflict)
	assert.Empty(t, ev.take())

	// Deletion by a non-owner is refused; by the owner it is told once.
	require.Error(t, e.svc.Delete(ctx, bob, "alice", "one"))
	assert.Empty(t, ev.take())
	require.NoError(t, e.svc.Delete(ctx, alice, "alice", "one"))
	assert.Equal(t, []string{"delete alice/one by alice"}, ev.take())
	require.ErrorIs(t, e.svc.Delete(ctx, alice, "alice", "one"), forge.ErrNotFound)
	assert.Empty(t, ev.take())
}
