package storetest

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge/hooks"
)

// countingSender records the deliveries it is asked to send, by their
// X-Forgejo-Delivery header, and answers 200. Each Send waits until meet
// sends are in flight at once (or a short deadline passes, for the last
// tasks), so that the workers' passes overlap: a task two workers both
// read is then sent twice.
type countingSender struct {
	meet int
	mu   sync.Mutex
	sent map[string]int
	// inFlight counts the sends of the current gathering; gathered is
	// closed when it reaches meet.
	inFlight int
	gathered chan struct{}
}

func (s *countingSender) Send(ctx context.Context, r hooks.Request) (hooks.Response, error) {
	s.mu.Lock()
	s.sent[r.Header["X-Forgejo-Delivery"]]++
	if s.gathered == nil {
		s.gathered = make(chan struct{})
	}
	g := s.gathered
	if s.inFlight++; s.inFlight == s.meet {
		close(g)
		s.gathered, s.inFlight = nil, 0
	}
	s.mu.Unlock()
	select {
	case <-g:
	case <-time.After(50 * time.Millisecond):
	case <-ctx.Done():
	}
	return hooks.Response{Status: 200}, nil
}

// testHookTaskClaims: several delivery workers (hooks.Service.DeliverDue,
// as several servers on one database) running at once on the store's own
// claim path (DueTasks and UpdateTask in one transaction: SKIP LOCKED on
// PostgreSQL, the one writer on SQLite) deliver every task exactly once.
func testHookTaskClaims(t *testing.T, b Backend) {
	ctx := context.Background()
	s := b.Hooks()
	owner := newUser(t, b, "claire")
	repo := newRepo(t, b, owner, "claimed")
	at := time.Now().Add(-time.Hour).UTC().Truncate(time.Second)
	h := &hooks.Hook{RepoID: repo.ID, Type: hooks.TypeForgejo, ContentType: hooks.ContentJSON, HTTPMethod: "POST",
		URL: "https://example.com/claims", Events: []string{"push"}, Active: true, Meta: map[string]string{}, Created: at, Updated: at}
	const n = 40
	hookUpdate(t, s, func(tx hooks.Tx) error {
		if err := tx.CreateHook(ctx, h); err != nil {
			return err
		}
		for i := range n {
			task := &hooks.Task{HookID: h.ID, UUID: fmt.Sprintf("claim-%02d", i), Event: "push", EventType: "push",
				Payload: []byte(`{}`), NextAttempt: at, Created: at}
			if err := tx.CreateTask(ctx, task); err != nil {
				return err
			}
		}
		return nil
	})
	const workers = 4
	sender := &countingSender{meet: workers, sent: map[string]int{}}
	svcs := make([]*hooks.Service, workers)
	for i := range svcs {
		var err error
		// Concurrency 1: each pass claims 4 tasks, so the workers take
		// turns and meet on the same rows.
		svcs[i], err = hooks.New(hooks.Config{Store: s, Sender: sender, Concurrency: 1})
		require.NoError(t, err)
	}
	var wg sync.WaitGroup
	start := make(chan struct{})
	for _, svc := range svcs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			for {
				k, err := svc.DeliverDue(ctx)
				if !assert.NoError(t, err) || k == 0 {
					return
				}
			}
		}()
	}
	close(start)
	wg.Wait()
	assert.Len(t, sender.sent, n, "every task delivered")
	for uuid, k := range sender.sent {
		assert.Equal(t, 1, k, "task %s delivered %d times", uuid, k)
	}
	require.NoError(t, s.View(ctx, func(tx hooks.Tx) error {
		due, err := tx.DueTasks(ctx, time.Now().Add(24*time.Hour), n)
		assert.Empty(t, due, "no task left undelivered")
		return err
	}))
}
