package repos_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/storage/memgit"
	"github.com/hearthforge/hearth/storage/memstore"
)

// memEnv is the repository service with no database: memstore for the
// rows, memgit for git: no database and no git binary.
type memEnv struct {
	svc   *repos.Service
	store *memstore.Store
	clock *forgetest.FakeClock
}

func newMemEnv(t *testing.T, mutate ...func(*repos.Config)) *memEnv {
	t.Helper()
	e := &memEnv{store: memstore.New(), clock: forgetest.NewClock()}
	var err error
	cfg := repos.Config{Store: e.store.Repos(), Git: memgit.New(), Clock: e.clock}
	for _, m := range mutate {
		m(&cfg)
	}
	e.svc, err = repos.New(cfg)
	require.NoError(t, err)
	return e
}

// user creates an account and returns a password actor for it.
func (e *memEnv) user(t *testing.T, name string, opts ...func(*forge.User)) forge.Actor {
	t.Helper()
	ctx := context.Background()
	u := forgetest.User(name, opts...)
	require.NoError(t, e.store.Auth().Update(ctx, func(tx auth.Tx) error { return tx.CreateUser(ctx, u, "") }))
	return forgetest.ActorFor(u)
}

// repo creates a repository owned by the actor.
func (e *memEnv) repo(t *testing.T, owner forge.Actor, name string, private bool) *repos.View {
	t.Helper()
	v, err := e.svc.Create(context.Background(), owner, "", repos.CreateOptions{Name: name, Private: private})
	require.NoError(t, err)
	return v
}
