package mirror_test

import (
	"context"
	"fmt"
	"net/netip"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/mirror"
	"github.com/hearthforge/hearth/storage/memstore"
)

// env is a mirror service on memstore with a fake git layer and a fake
// timer driven by the fake clock.
type env struct {
	t     *testing.T
	ctx   context.Context
	store backend
	clock *forgetest.FakeClock
	git   *fakeGit
	repos *storeRepos
	svc   *mirror.Service
	ports *mirror.Ports
	owner *forge.User
	n     int
}

// backend is what the tests need of a storage backend.
type backend interface {
	Auth() auth.Store
	Repos() repos.Store
	Mirrors() mirror.Store
}

func newEnv(t *testing.T, cfg mirror.Config) *env { return newEnvOn(t, cfg, memstore.New()) }

func newEnvOn(t *testing.T, cfg mirror.Config, st backend) *env {
	t.Helper()
	e := &env{t: t, ctx: context.Background(), store: st, clock: forgetest.NewClock(), git: newFakeGit()}
	e.owner = forgetest.User("mira")
	if err := st.Auth().Update(e.ctx, func(tx auth.Tx) error { return tx.CreateUser(e.ctx, e.owner, "") }); err != nil {
		t.Fatal(err)
	}
	e.repos = &storeRepos{s: st.Repos()}
	cfg.Store, cfg.Repos, cfg.Git, cfg.Clock = st.Mirrors(), e.repos, e.git, e.clock
	if cfg.Policy.Resolver == nil {
		cfg.Policy.Resolver = publicResolver{}
	}
	if cfg.Secret == nil {
		cfg.Secret = []byte("test secret")
	}
	e.git.clock = e.clock
	svc, ports, err := mirror.NewWithPorts(cfg)
	if err != nil {
		t.Fatal(err)
	}
	e.svc, e.ports = svc, ports
	return e
}

// repo creates a repository row.
func (e *env) repo(archived bool) *forge.Repository {
	e.t.Helper()
	e.n++
	r := &forge.Repository{OwnerID: e.owner.ID, Name: fmt.Sprintf("r%d", e.n), DefaultBranch: "main",
		ObjectFormat: forge.SHA1, Topics: []string{}, Archived: archived, Created: e.clock.Now(), Updated: e.clock.Now()}
	if err := e.store.Repos().Update(e.ctx, func(tx repos.Tx) error { return tx.CreateRepo(e.ctx, r) }); err != nil {
		e.t.Fatal(err)
	}
	return r
}

// pull makes a new repository a pull mirror due at next.
func (e *env) pull(interval time.Duration, next time.Time) *mirror.PullMirror {
	e.t.Helper()
	r := e.repo(false)
	m := &mirror.PullMirror{RepoID: r.ID, RemoteAddress: "https://example.com/x.git", Interval: interval,
		EnablePrune: true, NextUpdate: next}
	if err := e.store.Mirrors().Update(e.ctx, func(tx mirror.Tx) error { return tx.CreatePullMirror(e.ctx, m) }); err != nil {
		e.t.Fatal(err)
	}
	return m
}

func (e *env) pullByID(id forge.ID) *mirror.PullMirror {
	e.t.Helper()
	var m *mirror.PullMirror
	if err := e.store.Mirrors().View(e.ctx, func(tx mirror.Tx) error {
		var err error
		m, err = tx.PullMirrorByID(e.ctx, id)
		return err
	}); err != nil {
		e.t.Fatal(err)
	}
	return m
}

// publicResolver answers one public address for every name but
// "internal.example", which answers a public and a private one.
type publicResolver struct{}

func (publicResolver) LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error) {
	if host == "internal.example" {
		return []netip.Addr{netip.MustParseAddr("93.184.216.34"), netip.MustParseAddr("10.0.0.7")}, nil
	}
	return []netip.Addr{netip.MustParseAddr("93.184.216.34")}, nil
}

// storeRepos is mirror.Repos over the memstore's repositories.
// RepoAccess finds repositories of any owner by name; perms gives users'
// modes (others read public repositories, and see no private one).
type storeRepos struct {
	s         repos.Store
	mu        sync.Mutex
	refreshed map[forge.ID]int
	updates   []mirror.RefUpdate
	perms     map[forge.ID]forge.AccessMode
}

func (r *storeRepos) RepoAccess(ctx context.Context, actor forge.Actor, owner, name string) (*forge.Repository, forge.Permission, error) {
	var out *forge.Repository
	err := r.s.View(ctx, func(tx repos.Tx) error {
		u, err := tx.UserByName(ctx, owner)
		if err != nil {
			return err
		}
		out, err = tx.RepoByName(ctx, u.ID, name)
		return err
	})
	if err != nil {
		return nil, forge.Permission{}, forge.Errorf(forge.ErrNotFound, "repository does not exist")
	}
	r.mu.Lock()
	mode := r.perms[actor.UserID()]
	r.mu.Unlock()
	if mode == forge.AccessNone && !out.Private {
		mode = forge.AccessModeRead
	}
	if mode == forge.AccessNone {
		return nil, forge.Permission{}, forge.Errorf(forge.ErrNotFound, "repository does not exist")
	}
	return out, forge.Permission{Mode: mode}, nil
}

func (r *storeRepos) RepoByID(ctx context.Context, id forge.ID) (*forge.Repository, error) {
	var out *forge.Repository
	err := r.s.View(ctx, func(tx repos.Tx) error {
		var err error
		out, err = tx.RepoByID(ctx, id)
		return err
	})
	return out, err
}

func (r *storeRepos) Refresh(ctx context.Context, id forge.ID, updates []mirror.RefUpdate) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.updates = append(r.updates, updates...)
	if r.refreshed == nil {
		r.refreshed = map[forge.ID]int{}
	}
	r.refreshed[id]++
	return nil
}

// call is one git operation the fake saw.
type call struct {
	op   string
	repo forge.ID
	at   time.Time
	addr string
	user string
}

// fakeGit records operations; fail makes a repository's operations fail;
// block makes them wait for their context.
type fakeGit struct {
	clock    *forgetest.FakeClock
	mu       sync.Mutex
	calls    []call
	fail     map[forge.ID]error
	block    bool
	inflight map[forge.ID]int
	overlap  int // operations that started while the same repository's was running
	started  chan forge.ID
	// gate, when set, holds each operation until a value is received or
	// the gate is closed (or its context ends).
	gate chan struct{}
}

func newFakeGit() *fakeGit {
	return &fakeGit{fail: map[forge.ID]error{}, inflight: map[forge.ID]int{}}
}

func (g *fakeGit) op(ctx context.Context, name string, repo forge.ID, r mirror.Remote) error {
	g.mu.Lock()
	g.calls = append(g.calls, call{op: name, repo: repo, at: g.clock.Now(), addr: r.Address.URL, user: r.Address.Creds.Username})
	if g.inflight[repo] > 0 {
		g.overlap++
	}
	g.inflight[repo]++
	err, block, started, gate := g.fail[repo], g.block, g.started, g.gate
	g.mu.Unlock()
	if started != nil {
		started <- repo
	}
	if block {
		<-ctx.Done()
		err = ctx.Err()
	}
	if gate != nil {
		select {
		case <-gate:
		case <-ctx.Done():
			err = ctx.Err()
		}
	}
	g.mu.Lock()
	g.inflight[repo]--
	g.mu.Unlock()
	return err
}

func (g *fakeGit) Clone(ctx context.Context, repo forge.ID, r mirror.Remote, o mirror.CloneOptions) (forge.ObjectFormat, error) {
	return forge.SHA1, g.op(ctx, "clone", repo, r)
}

func (g *fakeGit) Fetch(ctx context.Context, repo forge.ID, r mirror.Remote, prune bool) ([]mirror.RefUpdate, error) {
	if err := g.op(ctx, "fetch", repo, r); err != nil {
		return nil, err
	}
	return []mirror.RefUpdate{{Ref: "refs/heads/main", NewID: "abc"}}, nil
}

func (g *fakeGit) Push(ctx context.Context, repo forge.ID, r mirror.Remote, filter string) error {
	return g.op(ctx, "push", repo, r)
}

func (g *fakeGit) snapshot() []call {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]call(nil), g.calls...)
}

// fakeTimer is the Scheduler's After on the fake clock: the test moves the
// clock to the deadline of the scheduler's latest wait and fires it.
type fakeTimer struct {
	clock *forgetest.FakeClock
	mu    sync.Mutex
	at    time.Time
	ch    chan time.Time
}

func (f *fakeTimer) after(d time.Duration) <-chan time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.at, f.ch = f.clock.Now().Add(d), make(chan time.Time, 1)
	return f.ch
}

// fire moves the clock to the pending deadline (if later) and fires it.
func (f *fakeTimer) fire() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.at.After(f.clock.Now()) {
		f.clock.Set(f.at)
	}
	f.ch <- f.clock.Now()
	return f.at
}

// driven runs a scheduler on the fake timer. step waits until the
// scheduler is idle, then fires its timer; stop cancels it and waits for Run.
type driven struct {
	t     *testing.T
	timer *fakeTimer
	idle  chan struct{}
	// loads receives after each load of due mirrors (dropped when full).
	loads chan struct{}
	stop  func()
}

func (e *env) drive(holder string) *driven {
	e.t.Helper()
	d := &driven{t: e.t, timer: &fakeTimer{clock: e.clock}, idle: make(chan struct{}), loads: make(chan struct{}, 1)}
	sc := e.ports.NewScheduler(holder, d.timer.after)
	ctx, cancel := context.WithCancel(e.ctx)
	mirror.SetOnLoad(sc, func() {
		select {
		case d.loads <- struct{}{}:
		default:
		}
	})
	mirror.SetOnIdle(sc, func() {
		select {
		case d.idle <- struct{}{}:
		case <-ctx.Done():
		}
	})
	done := make(chan error, 1)
	go func() { done <- sc.Run(ctx) }()
	d.stop = func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				e.t.Errorf("Run: %v", err)
			}
		case <-time.After(10 * time.Second):
			e.t.Fatal("Run did not stop after cancel")
		}
	}
	e.t.Cleanup(func() { cancel() })
	return d
}

// step waits for the scheduler to be idle and fires its timer.
func (d *driven) step() {
	d.t.Helper()
	select {
	case <-d.idle:
	case <-time.After(10 * time.Second):
		d.t.Fatal("scheduler never went idle")
	}
	d.timer.fire()
}

// until steps until cond holds (at most n steps).
func (d *driven) until(n int, cond func() bool) {
	d.t.Helper()
	for i := 0; i < n; i++ {
		if cond() {
			return
		}
		d.step()
	}
	if !cond() {
		d.t.Fatalf("condition not met after %d steps", n)
	}
}

func sortedRepos(cs []call) []forge.ID {
	out := make([]forge.ID, len(cs))
	for i, c := range cs {
		out[i] = c.repo
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}
