package mirror_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/quota"
)

// overQuota is a Config.Quota refusing size:repos:all (and size:git:all)
// for the repositories in over.
type overQuota struct {
	mu    sync.Mutex
	over  map[forge.ID]bool
	asked int
}

func (q *overQuota) check(r *forge.Repository) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.asked++
	if q.over[r.ID] {
		return &quota.ExceededError{UserID: r.OwnerID, Username: "mira", Subject: quota.SubjectReposAll}
	}
	return nil
}

func (q *overQuota) CheckGitQuota(_ context.Context, r *forge.Repository) error   { return q.check(r) }
func (q *overQuota) CheckReposQuota(_ context.Context, r *forge.Repository) error { return q.check(r) }

// TestSchedulerSkipsOwnerOverQuota: a scheduled pull-mirror sync of an
// owner over size:repos:all is skipped silently (spec/quota.md §7.2): no
// fetch, no error recorded, no failure counted, Updated untouched, the
// next sync scheduled one interval later; a mirror within quota syncs.
func TestSchedulerSkipsOwnerOverQuota(t *testing.T) {
	t.Parallel()
	q := &overQuota{over: map[forge.ID]bool{}}
	cfg := noJitter
	cfg.Quota = q
	e := newEnv(t, cfg)
	now := e.clock.Now()
	over := e.pull(time.Hour, now.Add(time.Minute))
	ok := e.pull(time.Hour, now.Add(time.Minute))
	q.over[over.RepoID] = true
	d := e.drive("a")
	d.until(20, func() bool {
		return len(e.git.snapshot()) >= 1 && e.pullByID(over.ID).NextUpdate.After(now.Add(time.Minute))
	})
	d.stop()
	for _, c := range e.git.snapshot() {
		if c.repo == over.RepoID {
			t.Fatalf("fetched the mirror of an owner over quota")
		}
	}
	got := e.pullByID(over.ID)
	if got.LastError != "" || got.Failures != 0 || !got.Updated.IsZero() {
		t.Errorf("a skip was recorded as a sync or a failure: %+v", got)
	}
	if want := now.Add(time.Minute + time.Hour); !got.NextUpdate.Equal(want) {
		t.Errorf("next update %v, want %v", got.NextUpdate, want)
	}
	if synced := e.pullByID(ok.ID); synced.Updated.IsZero() || synced.LastError != "" {
		t.Errorf("the mirror within quota did not sync: %+v", synced)
	}
}
