package mirror_test

import (
	"testing"
	"time"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/mirror"
)

// claim gives key to holder until now+d, as a server starting a sync does.
func (e *env) claim(key mirror.Key, holder string, d time.Duration) bool {
	e.t.Helper()
	var ok bool
	now := e.clock.Now()
	if err := e.store.Mirrors().Update(e.ctx, func(tx mirror.Tx) error {
		var err error
		ok, err = tx.ClaimLease(e.ctx, mirror.Lease{Key: key, Holder: holder, Expires: now.Add(d)}, now)
		return err
	}); err != nil {
		e.t.Fatal(err)
	}
	return ok
}

func (e *env) repoName(id forge.ID) string {
	e.t.Helper()
	r, err := e.repos.RepoByID(e.ctx, id)
	if err != nil {
		e.t.Fatal(err)
	}
	return r.Name
}

// TestMirrorLeaseCrash is the crash test of mirror leases: a server
// claims a mirror and dies (never renews, never releases). A manual sync
// then is not dropped — it answers success and leaves the mirror due (not
// looking done) — and another server's scheduler picks the mirror up as
// soon as the short lease runs out (DefaultLease, not 30 minutes), on the
// fake clock.
func TestMirrorLeaseCrash(t *testing.T) {
	t.Parallel()
	const poll = 30 * time.Second
	e := newEnv(t, mirror.Config{Jitter: time.Second, Concurrency: 1, Poll: poll})
	writer := e.user("wri", forge.AccessModeWrite)
	t0 := e.clock.Now()
	m := e.pull(8*time.Hour, t0.Add(time.Hour))
	if !e.claim(m.Key(), "server-dead", mirror.DefaultLease) {
		t.Fatal("the dying server could not claim")
	}
	if mirror.DefaultLease > 5*time.Minute {
		t.Fatalf("DefaultLease %v: a dead server's lease must not outlive it for long", mirror.DefaultLease)
	}
	if err := e.svc.SyncNow(e.ctx, writer, "mira", e.repoName(m.RepoID)); err != nil {
		t.Fatal(err)
	}
	if cs := e.git.snapshot(); len(cs) != 0 {
		t.Fatalf("synced under another server's lease: %+v", cs)
	}
	if got := e.pullByID(m.ID); got.NextUpdate.After(t0) || !got.Updated.IsZero() {
		t.Fatalf("the skipped sync looks done or is not queued: next %v updated %v", got.NextUpdate, got.Updated)
	}
	d := e.drive("server-b")
	d.until(100, func() bool { return len(e.git.snapshot()) >= 1 })
	d.stop()
	cs := e.git.snapshot()
	if at := cs[0].at; at.Before(t0.Add(mirror.DefaultLease)) || at.After(t0.Add(mirror.DefaultLease+poll)) {
		t.Errorf("picked up at %v after the crash, want within [lease, lease+poll] = [%v, %v]", at.Sub(t0), mirror.DefaultLease, mirror.DefaultLease+poll)
	}
	if got := e.pullByID(m.ID); !got.Updated.Equal(cs[0].at) || !got.NextUpdate.Equal(cs[0].at.Add(8*time.Hour)) {
		t.Errorf("after the sync: %+v", got)
	}
}

// TestMirrorLeaseRestartReleases: a server restarting under the same
// holder name releases at once the leases its crash left: its scheduler
// syncs the due mirror at the moment it starts, not at the lease's end.
func TestMirrorLeaseRestartReleases(t *testing.T) {
	t.Parallel()
	e := newEnv(t, mirror.Config{Jitter: time.Second, Concurrency: 1, Poll: time.Minute})
	t0 := e.clock.Now()
	m := e.pull(8*time.Hour, t0)
	other := e.pull(8*time.Hour, t0)
	if !e.claim(m.Key(), "server-a", time.Hour) || !e.claim(other.Key(), "server-z", time.Hour) {
		t.Fatal("claims")
	}
	d := e.drive("server-a") // the restart
	<-d.idle
	d.stop()
	cs := e.git.snapshot()
	if len(cs) != 1 || cs[0].repo != m.RepoID || !cs[0].at.Equal(t0) {
		t.Errorf("syncs after the restart %+v, want repo %d at once", cs, m.RepoID)
	}
	// Another server's lease is not released.
	if e.claim(other.Key(), "server-b", time.Hour) {
		t.Errorf("server-z's lease was released by server-a's restart")
	}
}

// manualAfter is a lease-renewal timer the test fires by hand.
type manualAfter struct{ ch chan chan time.Time }

func (m *manualAfter) after(time.Duration) <-chan time.Time {
	c := make(chan time.Time, 1)
	m.ch <- c
	return c
}

// TestMirrorLeaseHeartbeat: a sync that runs longer than the lease keeps
// it by renewing it while git runs, so no other server takes the mirror;
// once renewals stop and the lease runs out another server may take it,
// and the next renewal then finds it lost and stops the sync, recording
// nothing.
func TestMirrorLeaseHeartbeat(t *testing.T) {
	t.Parallel()
	hb := &manualAfter{ch: make(chan chan time.Time, 16)}
	const lease = 2 * time.Minute
	e := newEnv(t, mirror.Config{Lease: lease, After: hb.after})
	writer := e.user("wri", forge.AccessModeWrite)
	t0 := e.clock.Now()
	m := e.pull(8*time.Hour, t0.Add(time.Hour))
	e.git.block = true
	e.git.started = make(chan forge.ID, 1)
	done := make(chan error, 1)
	go func() { done <- e.svc.SyncNow(e.ctx, writer, "mira", e.repoName(m.RepoID)) }()
	<-e.git.started
	tick := func() {
		select {
		case c := <-hb.ch:
			c <- e.clock.Now()
		case <-time.After(10 * time.Second):
			t.Fatal("no lease renewal is waiting")
		}
	}
	// Four minutes of git, twice the lease: renewed every third of it, the
	// lease is never free for server-b.
	for i := 1; i <= 6; i++ {
		e.clock.Step(lease / 3)
		tick()
		c := <-hb.ch // the next renewal's timer: this one is written
		hb.ch <- c
		if e.claim(m.Key(), "server-b", lease) {
			t.Fatalf("another server took the mirror %v into a renewed sync", e.clock.Now().Sub(t0))
		}
	}
	// Renewals stop (a stalled server): the lease runs out and server-b
	// takes the mirror; the next renewal finds it lost and ends the sync.
	e.clock.Step(lease + time.Second)
	if !e.claim(m.Key(), "server-b", lease) {
		t.Fatal("the lease did not run out")
	}
	tick()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("SyncNow: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the sync did not stop when its lease was lost")
	}
	if got := e.pullByID(m.ID); got.Failures != 0 || got.LastError != "" || !got.Updated.IsZero() {
		t.Errorf("a sync stopped for a lost lease recorded an outcome: %+v", got)
	}
	if e.claim(m.Key(), "server-c", lease) {
		t.Error("the stopped sync released server-b's lease")
	}
}

// TestMirrorSyncAskedDuringSyncRunsAgain: a sync asked for while one of
// the same mirror runs (this server's) answers success at once and is not
// lost: the running sync, when done, leaves the mirror due, and the
// scheduler runs it again. The same holds for a push mirror made due by a
// push (sync_on_commit) while it pushes.
func TestMirrorSyncAskedDuringSyncRunsAgain(t *testing.T) {
	t.Parallel()
	e := newEnv(t, mirror.Config{Jitter: time.Second, Concurrency: 1, Poll: time.Minute})
	writer := e.user("wri", forge.AccessModeWrite)
	t0 := e.clock.Now()
	m := e.pull(8*time.Hour, t0.Add(time.Hour))
	gate := make(chan struct{})
	e.git.gate = gate
	e.git.started = make(chan forge.ID, 4)
	done := make(chan error, 1)
	name := e.repoName(m.RepoID)
	go func() { done <- e.svc.SyncNow(e.ctx, writer, "mira", name) }()
	<-e.git.started
	if err := e.svc.SyncNow(e.ctx, writer, "mira", name); err != nil {
		t.Fatal(err)
	}
	e.git.mu.Lock()
	e.git.gate = nil
	e.git.mu.Unlock()
	close(gate)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if got := e.pullByID(m.ID); got.NextUpdate.After(e.clock.Now()) {
		t.Fatalf("the sync asked for during the running one was dropped: next %v", got.NextUpdate)
	}
	d := e.drive("server-a")
	d.until(10, func() bool { return len(e.git.snapshot()) >= 2 })
	d.stop()
	if got := e.pullByID(m.ID); !got.NextUpdate.Equal(got.Updated.Add(8 * time.Hour)) {
		t.Errorf("after the second sync: %+v", got)
	}
}
