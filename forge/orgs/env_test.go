package orgs_test

import (
	"bytes"
	"context"
	"io"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/forge/orgs"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/storage/memstore"
)

// env is the organisation service on memstore, with a fake repository
// service (RepoAccess) and an in-memory blob store.
type env struct {
	svc   *orgs.Service
	st    *memstore.Store
	clock *forgetest.FakeClock
	repos *fakeRepos
	blobs *memBlobs
}

func newEnv(t *testing.T, mutate ...func(*orgs.Config)) *env {
	t.Helper()
	e := &env{st: memstore.New(), clock: forgetest.NewClock(), blobs: &memBlobs{m: map[string][]byte{}}}
	e.repos = &fakeRepos{st: e.st, perms: map[forge.ID]forge.AccessMode{}}
	cfg := orgs.Config{Store: e.st.Orgs(), Clock: e.clock, Repos: e.repos, Blobs: e.blobs}
	for _, m := range mutate {
		m(&cfg)
	}
	var err error
	e.svc, err = orgs.New(cfg)
	require.NoError(t, err)
	return e
}

var ctx = context.Background()

// canCreateOrgs lets a user create organisations (an option of user).
func canCreateOrgs(u *forge.User) { u.AllowCreateOrganization = true }

// user creates a person who may create organisations and returns a
// password actor for it.
func (e *env) user(t *testing.T, name string, opts ...func(*forge.User)) forge.Actor {
	t.Helper()
	u := forgetest.User(name, append([]func(*forge.User){canCreateOrgs}, opts...)...)
	require.NoError(t, e.st.Auth().Update(ctx, func(tx auth.Tx) error { return tx.CreateUser(ctx, u, "") }))
	return forgetest.ActorFor(u)
}

// org creates an organisation owned by owner.
func (e *env) org(t *testing.T, owner forge.Actor, name string, vis forge.Visibility) *forge.User {
	t.Helper()
	o, err := e.svc.Create(ctx, owner, orgs.CreateOptions{Name: name, Visibility: vis, Email: name + "@org.example"})
	require.NoError(t, err)
	return o
}

// repo creates a ready repository row owned by owner (the repository
// service's creation is another package's).
func (e *env) repo(t *testing.T, owner *forge.User, name string) *forge.Repository {
	t.Helper()
	r := &forge.Repository{OwnerID: owner.ID, Name: name, DefaultBranch: "main", Created: forgetest.Epoch, Updated: forgetest.Epoch}
	require.NoError(t, e.st.Repos().Update(ctx, func(tx repos.Tx) error { return tx.CreateRepo(ctx, r) }))
	// As the repository service does for an organisation's repository:
	// the teams that include all repositories get it.
	require.NoError(t, e.st.Orgs().Update(ctx, func(tx orgs.Tx) error {
		teams, _, err := tx.ListTeams(ctx, orgs.TeamFilter{OrgID: owner.ID}, forge.ListOptions{Page: 1, Limit: forge.MaxPageSize})
		for _, tm := range teams {
			if err == nil && tm.IncludesAllRepos {
				err = tx.AddTeamRepo(ctx, tm.ID, r.ID)
			}
		}
		return err
	}))
	return r
}

// team creates a team as owner.
func (e *env) team(t *testing.T, owner forge.Actor, org string, o orgs.CreateTeamOptions) *forge.Team {
	t.Helper()
	v, err := e.svc.CreateTeam(ctx, owner, org, o)
	require.NoError(t, err)
	return v.Team
}

// member makes user a member of org through a new read team.
func (e *env) member(t *testing.T, owner forge.Actor, org string, user forge.Actor) *forge.Team {
	t.Helper()
	tm := e.team(t, owner, org, orgs.CreateTeamOptions{Name: "readers-" + user.User.Name, Permission: "read", Units: []string{"repo.code"}})
	require.NoError(t, e.svc.AddTeamMember(ctx, owner, tm.ID, user.User.Name))
	return tm
}

// fakeRepos answers RepoAccess from the store's repositories and a fixed
// mode per user (set), or else the highest mode of the user's teams that
// have the repository (site administrators own everything).
type fakeRepos struct {
	st    *memstore.Store
	mu    sync.Mutex
	perms map[forge.ID]forge.AccessMode
}

func (f *fakeRepos) set(u forge.Actor, m forge.AccessMode) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.perms[u.UserID()] = m
}

func (f *fakeRepos) RepoAccess(ctx context.Context, actor forge.Actor, owner, name string) (*forge.Repository, forge.Permission, error) {
	var r *forge.Repository
	err := f.st.Repos().View(ctx, func(tx repos.Tx) error {
		u, err := tx.UserByName(ctx, owner)
		if err != nil {
			return err
		}
		r, err = tx.RepoByName(ctx, u.ID, name)
		return err
	})
	if err != nil {
		return nil, forge.Permission{}, err
	}
	f.mu.Lock()
	m, set := f.perms[actor.UserID()]
	f.mu.Unlock()
	if !set && actor.IsSignedIn() {
		err = f.st.Orgs().View(ctx, func(tx orgs.Tx) error {
			teams, _, err := tx.ListTeams(ctx, orgs.TeamFilter{MemberID: actor.UserID(), RepoID: r.ID}, forge.ListOptions{})
			for _, t := range teams {
				m = max(m, t.Mode)
			}
			return err
		})
	}
	if actor.IsSiteAdmin() {
		m = forge.AccessModeOwner
	}
	return r, forge.Permission{Mode: m}, err
}

type memBlobs struct {
	mu sync.Mutex
	m  map[string][]byte
}

func (b *memBlobs) Put(_ context.Context, key string, r io.Reader, max int64) (int64, error) {
	data, err := io.ReadAll(io.LimitReader(r, max+1))
	if err != nil {
		return 0, err
	}
	if int64(len(data)) > max {
		return 0, forge.Errorf(forge.ErrInvalid, "too big")
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.m[key] = data
	return int64(len(data)), nil
}

func (b *memBlobs) Open(_ context.Context, key string) (io.ReadCloser, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	data, ok := b.m[key]
	if !ok {
		return nil, forge.Errorf(forge.ErrNotFound, "no blob")
	}
	return io.NopCloser(bytes.NewReader(data)), nil
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

// requireErr checks err's category and message.
func requireErr(t *testing.T, err error, kind error, msg string) {
	t.Helper()
	require.Error(t, err)
	require.ErrorIs(t, err, kind)
	require.Equal(t, msg, err.Error())
}
