package mirror_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/mirror"
	"github.com/hearthforge/hearth/storage/sqlite"
)

// A Jitter window of one second gives every mirror a zero offset.
var noJitter = mirror.Config{Jitter: time.Second, Concurrency: 1, Poll: 10 * time.Minute}

func TestSchedulerDueOrder(t *testing.T) {
	t.Parallel()
	e := newEnv(t, noJitter)
	now := e.clock.Now()
	late := e.pull(time.Hour, now.Add(3*time.Hour))
	first := e.pull(time.Hour, now.Add(30*time.Minute))
	mid := e.pull(time.Hour, now.Add(2*time.Hour))
	never := e.pull(0, time.Time{})
	d := e.drive("a")
	d.until(100, func() bool { return len(e.git.snapshot()) >= 3 })
	d.stop()
	cs := e.git.snapshot()
	want := []struct {
		repo forge.ID
		at   time.Time
	}{{first.RepoID, now.Add(30 * time.Minute)}, {first.RepoID, now.Add(90 * time.Minute)}, {mid.RepoID, now.Add(2 * time.Hour)}}
	_ = late
	for i, w := range want {
		if cs[i].repo != w.repo || !cs[i].at.Equal(w.at) {
			t.Errorf("sync %d = repo %d at %v, want repo %d at %v", i, cs[i].repo, cs[i].at, w.repo, w.at)
		}
	}
	for _, c := range cs {
		if c.repo == never.RepoID {
			t.Errorf("a mirror with interval 0 was synced on schedule")
		}
	}
	if m := e.pullByID(first.ID); !m.Updated.Equal(now.Add(90*time.Minute)) || !m.NextUpdate.Equal(now.Add(150*time.Minute)) {
		t.Errorf("after sync: updated %v next %v", m.Updated, m.NextUpdate)
	}
}

func TestSchedulerJitterSpread(t *testing.T) {
	t.Parallel()
	const n = 300
	e := newEnv(t, mirror.Config{Jitter: 10 * time.Minute, Concurrency: 50})
	due := e.clock.Now().Add(time.Hour)
	ms := map[forge.ID]*mirror.PullMirror{}
	for i := 0; i < n; i++ {
		m := e.pull(8*time.Hour, due)
		ms[m.RepoID] = m
	}
	d := e.drive("a")
	d.until(4*n, func() bool { return len(e.git.snapshot()) >= n })
	d.stop()
	perSecond := map[time.Time]int{}
	for _, c := range e.git.snapshot()[:n] {
		want := due.Add(mirror.Jitter(ms[c.repo].Key(), 10*time.Minute))
		if !c.at.Equal(want) {
			t.Errorf("repo %d started at %v, want %v (due + jitter)", c.repo, c.at, want)
		}
		perSecond[c.at]++
	}
	for at, k := range perSecond {
		if k > n/20 {
			t.Errorf("%d of %d mirrors started in the second %v", k, n, at)
		}
	}
}

// TestJitterSpread10k checks the jitter rule itself on ten thousand mirrors
// of one interval: no second holds more than 1% of them.
func TestJitterSpread10k(t *testing.T) {
	t.Parallel()
	const n = 10000
	perSecond := map[time.Duration]int{}
	for i := 1; i <= n; i++ {
		for _, k := range []mirror.Kind{mirror.KindPull, mirror.KindPush} {
			j := mirror.Jitter(mirror.Key{Kind: k, ID: forge.ID(i)}, mirror.DefaultJitter)
			if j < 0 || j >= mirror.DefaultJitter {
				t.Fatalf("jitter %v out of [0, %v)", j, mirror.DefaultJitter)
			}
			perSecond[j]++
		}
	}
	worst := 0
	for _, k := range perSecond {
		worst = max(worst, k)
	}
	if worst > 2*n/100 {
		t.Errorf("one second holds %d of %d starts", worst, 2*n)
	}
	t.Logf("worst second: %d of %d starts over %d seconds", worst, 2*n, len(perSecond))
}

func TestSchedulerBackoff(t *testing.T) {
	t.Parallel()
	e := newEnv(t, mirror.Config{Jitter: time.Second, Concurrency: 1, RetryBase: time.Minute})
	now := e.clock.Now()
	m := e.pull(time.Hour, now.Add(time.Hour))
	e.git.fail[m.RepoID] = errors.New("exit status 128 - fatal: could not read from https://bob:hunter2@example.com/x.git")
	d := e.drive("a")
	d.until(200, func() bool { return len(e.git.snapshot()) >= 4 })
	cs := e.git.snapshot()
	gaps := []time.Duration{0, time.Minute, 2 * time.Minute, 4 * time.Minute}
	at := now.Add(time.Hour)
	for i, g := range gaps {
		at = at.Add(g)
		if !cs[i].at.Equal(at) {
			t.Errorf("attempt %d at %v, want %v", i, cs[i].at, at)
		}
	}
	got := e.pullByID(m.ID)
	if got.Failures < 4 || got.LastError != "fatal: could not read from https://example.com/x.git" {
		t.Errorf("failures %d, last error %q", got.Failures, got.LastError)
	}
	if !got.Updated.IsZero() {
		t.Errorf("a failed sync set Updated")
	}
	// A success resets the failures and goes back to the interval.
	e.git.mu.Lock()
	delete(e.git.fail, m.RepoID)
	e.git.mu.Unlock()
	d.until(200, func() bool { return e.pullByID(m.ID).Failures == 0 })
	d.stop()
	got = e.pullByID(m.ID)
	if got.LastError != "" || got.Updated.IsZero() || !got.NextUpdate.Equal(got.Updated.Add(time.Hour)) {
		t.Errorf("after success: %+v", got)
	}
}

func TestSchedulerArchivedPushMirrorsSkipped(t *testing.T) {
	t.Parallel()
	e := newEnv(t, noJitter)
	now := e.clock.Now()
	archived, live := e.repo(true), e.repo(false)
	for _, r := range []*forge.Repository{archived, live} {
		pm := &mirror.PushMirror{RepoID: r.ID, RemoteName: "remote_mirror_x", RemoteAddress: "https://example.com/y.git",
			Interval: time.Hour, SyncOnCommit: true, Created: now, NextUpdate: now.Add(time.Minute)}
		if err := e.store.Mirrors().Update(e.ctx, func(tx mirror.Tx) error { return tx.CreatePushMirror(e.ctx, pm) }); err != nil {
			t.Fatal(err)
		}
	}
	if err := e.ports.AfterPush(e.ctx, archived); err != nil {
		t.Fatal(err)
	}
	d := e.drive("a")
	d.until(10, func() bool { return len(e.git.snapshot()) >= 2 })
	d.stop()
	for _, c := range e.git.snapshot() {
		if c.repo == archived.ID {
			t.Errorf("pushed a mirror of an archived repository")
		}
		if c.op != "push" {
			t.Errorf("op %q", c.op)
		}
	}
}

func TestSchedulerCancellation(t *testing.T) {
	t.Parallel()
	e := newEnv(t, noJitter)
	m := e.pull(time.Hour, e.clock.Now())
	e.git.block = true
	e.git.started = make(chan forge.ID, 1)
	d := e.drive("a")
	go func() {
		for {
			select {
			case <-d.idle:
				d.timer.fire()
			case <-time.After(5 * time.Second):
				return
			}
		}
	}()
	select {
	case <-e.git.started:
	case <-time.After(10 * time.Second):
		t.Fatal("sync never started")
	}
	d.stop() // returns only once the blocked fetch saw its context end
	// Shutdown is not the remote's failure: nothing recorded, still due.
	got := e.pullByID(m.ID)
	if got.Failures != 0 || got.LastError != "" || !got.NextUpdate.Equal(m.NextUpdate) {
		t.Errorf("cancelled sync changed the mirror: %+v", got)
	}
	// The lease is released: another holder may claim at once.
	var ok bool
	if err := e.store.Mirrors().Update(e.ctx, func(tx mirror.Tx) error {
		var err error
		ok, err = tx.ClaimLease(e.ctx, mirror.Lease{Key: m.Key(), Holder: "b", Expires: e.clock.Now().Add(time.Hour)}, e.clock.Now())
		return err
	}); err != nil || !ok {
		t.Errorf("lease not released: %v %v", ok, err)
	}
}

// TestSchedulersNeverOverlap runs two schedulers (two servers) on one store
// with real timers: every due mirror is synced exactly once, never by both.
func TestSchedulersNeverOverlap(t *testing.T) {
	t.Parallel()
	const n = 200
	e := newEnv(t, mirror.Config{Jitter: time.Second, Concurrency: 8, Poll: time.Hour})
	for i := 0; i < n; i++ {
		e.pull(8*time.Hour, e.clock.Now())
	}
	e.git.started = make(chan forge.ID, n*2)
	ctx, cancel := context.WithCancel(e.ctx)
	defer cancel()
	errs := make(chan error, 2)
	for _, h := range []string{"server-a", "server-b"} {
		sc := e.ports.NewScheduler(h, nil)
		go func() { errs <- sc.Run(ctx) }()
	}
	deadline := time.After(20 * time.Second)
	for seen := 0; seen < n; seen++ {
		select {
		case <-e.git.started:
		case <-deadline:
			t.Fatalf("only %d of %d mirrors synced", seen, n)
		}
	}
	cancel()
	for i := 0; i < 2; i++ {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	cs := e.git.snapshot()
	count := map[forge.ID]int{}
	for _, c := range cs {
		count[c.repo]++
	}
	if len(cs) != n || len(count) != n || e.git.overlap != 0 {
		t.Errorf("%d syncs of %d mirrors (want %d each once), %d overlapping", len(cs), len(count), n, e.git.overlap)
	}
}

// TestSchedulersNeverOverlapSQLite is two servers, each with its own
// handle on one SQLite file: the lease rows keep every mirror to one sync.
func TestSchedulersNeverOverlapSQLite(t *testing.T) {
	t.Parallel()
	const n = 60
	path := filepath.Join(t.TempDir(), "hearth.db")
	dbA, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dbA.Close() })
	dbB, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dbB.Close() })
	cfg := mirror.Config{Jitter: time.Second, Concurrency: 4, Poll: time.Hour}
	e := newEnvOn(t, cfg, dbA)
	for i := 0; i < n; i++ {
		e.pull(8*time.Hour, e.clock.Now())
	}
	e.git.started = make(chan forge.ID, n*2)
	cfg.Store, cfg.Repos, cfg.Git, cfg.Clock, cfg.Secret = dbB.Mirrors(), &storeRepos{s: dbB.Repos()}, e.git, e.clock, []byte("s")
	cfg.Policy.Resolver = publicResolver{}
	_, portsB, err := mirror.NewWithPorts(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(e.ctx)
	defer cancel()
	errs := make(chan error, 2)
	for _, sc := range []*mirror.Scheduler{e.ports.NewScheduler("server-a", nil), portsB.NewScheduler("server-b", nil)} {
		go func() { errs <- sc.Run(ctx) }()
	}
	deadline := time.After(30 * time.Second)
	for seen := 0; seen < n; seen++ {
		select {
		case <-e.git.started:
		case <-deadline:
			t.Fatalf("only %d of %d mirrors synced", seen, n)
		}
	}
	cancel()
	for i := 0; i < 2; i++ {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	count := map[forge.ID]int{}
	cs := e.git.snapshot()
	for _, c := range cs {
		count[c.repo]++
	}
	if len(cs) != n || len(count) != n || e.git.overlap != 0 {
		t.Errorf("%d syncs of %d mirrors (want %d each once), %d overlapping", len(cs), len(count), n, e.git.overlap)
	}
}

// TestSchedulerSyncOnCommitStartsAtOnce: a push makes a sync_on_commit
// mirror due now, wakes the scheduler, and it starts without jitter.
func TestSchedulerSyncOnCommitStartsAtOnce(t *testing.T) {
	t.Parallel()
	e := newEnv(t, mirror.Config{Jitter: time.Hour})
	r := e.repo(false)
	pm := &mirror.PushMirror{RepoID: r.ID, RemoteName: "remote_mirror_c", RemoteAddress: "https://example.com/y.git",
		SyncOnCommit: true, Created: e.clock.Now()}
	if err := e.store.Mirrors().Update(e.ctx, func(tx mirror.Tx) error { return tx.CreatePushMirror(e.ctx, pm) }); err != nil {
		t.Fatal(err)
	}
	e.git.started = make(chan forge.ID, 1)
	d := e.drive("a")
	<-d.idle // loaded, nothing due
	pushedAt := e.clock.Now()
	if err := e.ports.AfterPush(e.ctx, r); err != nil {
		t.Fatal(err)
	}
	select {
	case <-e.git.started:
	case <-time.After(10 * time.Second):
		t.Fatal("the push mirror did not start after the push")
	}
	<-d.idle
	d.stop()
	cs := e.git.snapshot()
	if len(cs) != 1 || !cs[0].at.Equal(pushedAt) {
		t.Errorf("syncs %+v, want one at %v", cs, pushedAt)
	}
	var got *mirror.PushMirror
	e.store.Mirrors().View(e.ctx, func(tx mirror.Tx) error { got, _ = tx.PushMirrorByID(e.ctx, pm.ID); return nil })
	if !got.NextUpdate.IsZero() || !got.LastUpdate.Equal(pushedAt) {
		t.Errorf("after the sync: %+v", got)
	}
}

// TestSyncOnCommitDuringASyncIsNotLost: a ref move while the push mirror's
// sync runs (the push may have missed it) makes the mirror push again;
// before, the running sync's end rescheduled the mirror over the request,
// and the moved refs stayed unpushed until the next interval; and when
// the scheduler reloaded on the request's wake-up before the sync ended
// (the lease kept the mirror out of that load), the mirror, still due,
// waited for the next poll.
func TestSyncOnCommitDuringASyncIsNotLost(t *testing.T) {
	t.Parallel()
	e := newEnv(t, mirror.Config{Jitter: time.Hour})
	r := e.repo(false)
	pm := &mirror.PushMirror{RepoID: r.ID, RemoteName: "remote_mirror_c", RemoteAddress: "https://example.com/y.git",
		SyncOnCommit: true, Created: e.clock.Now()}
	if err := e.store.Mirrors().Update(e.ctx, func(tx mirror.Tx) error { return tx.CreatePushMirror(e.ctx, pm) }); err != nil {
		t.Fatal(err)
	}
	e.git.started = make(chan forge.ID, 4)
	e.git.gate = make(chan struct{})
	d := e.drive("a")
	<-d.idle
	if err := e.ports.AfterPush(e.ctx, r); err != nil {
		t.Fatal(err)
	}
	<-e.git.started // the first push runs (held at the gate)
	drain(d.loads)
	if err := e.ports.AfterPush(e.ctx, r); err != nil { // a later ref move
		t.Fatal(err)
	}
	// The scheduler reloads on the wake-up while the push still runs (its
	// lease keeps the mirror out of that load); only then does it end.
	<-d.loads
	e.git.gate <- struct{}{}
	select {
	case <-e.git.started:
	case <-time.After(10 * time.Second):
		t.Fatal("the ref move during the sync was not pushed")
	}
	e.git.gate <- struct{}{}
	<-d.idle
	d.stop()
	if cs := e.git.snapshot(); len(cs) != 2 {
		t.Errorf("%d pushes, want 2", len(cs))
	}
	var got *mirror.PushMirror
	e.store.Mirrors().View(e.ctx, func(tx mirror.Tx) error { got, _ = tx.PushMirrorByID(e.ctx, pm.ID); return nil })
	if !got.NextUpdate.IsZero() {
		t.Errorf("after the syncs, next update %v, want none (no interval)", got.NextUpdate)
	}
}

// drain empties c.
func drain(c chan struct{}) {
	for {
		select {
		case <-c:
		default:
			return
		}
	}
}
