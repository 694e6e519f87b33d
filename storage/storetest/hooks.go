package storetest

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/hooks"
	"github.com/hearthforge/hearth/forge/repos"
)

// testHooks: hooks of every owner kind round-trip with their settings,
// lists select by owner (system vs default), updates and deletes, and
// missing rows are forge.ErrNotFound.
func testHooks(t *testing.T, b Backend) {
	ctx := context.Background()
	s := b.Hooks()
	owner, repo := newUserRepo(t, b, "hana", "hooked")
	at := time.Date(2024, 3, 4, 5, 6, 7, 0, time.UTC)
	mk := func(h hooks.Hook) *hooks.Hook {
		h.Type, h.ContentType, h.HTTPMethod, h.Events, h.Created, h.Updated = hooks.TypeForgejo, hooks.ContentJSON, "POST", []string{"push"}, at, at
		if h.URL == "" {
			h.URL = "https://example.com/h"
		}
		if h.Meta == nil {
			h.Meta = map[string]string{}
		}
		return &h
	}
	system := mk(hooks.Hook{IsSystem: true, Active: true})
	def := mk(hooks.Hook{})
	onRepo := mk(hooks.Hook{RepoID: repo.ID, Secret: "s", BranchFilter: "main", AuthorizationHeader: "Bearer t",
		Events: nil, Active: true})
	onRepo.Type, onRepo.Meta = hooks.TypeSlack, map[string]string{"channel": "#dev", "color": "red"}
	onOwner := mk(hooks.Hook{OwnerID: owner.ID, Active: false})
	hookUpdate(t, s, func(tx hooks.Tx) error {
		for _, h := range []*hooks.Hook{system, def, onRepo, onOwner} {
			if err := tx.CreateHook(ctx, h); err != nil {
				return err
			}
			require.NotZero(t, h.ID)
		}
		return nil
	})
	onRepo.Events = []string{"push", "issues"}
	onRepo.Updated = at.Add(time.Hour)
	onRepo.Meta = map[string]string{"channel": "#ops"}
	hookUpdate(t, s, func(tx hooks.Tx) error { return tx.UpdateHook(ctx, onRepo) })

	require.NoError(t, s.View(ctx, func(tx hooks.Tx) error {
		for _, want := range []*hooks.Hook{system, def, onRepo, onOwner} {
			got, err := tx.Hook(ctx, want.ID)
			wantRoundTrip(t, "hook", want, got, err)
		}
		for _, c := range []struct {
			f    hooks.Filter
			want []forge.ID
		}{
			{hooks.Filter{System: true}, []forge.ID{system.ID}},
			{hooks.Filter{}, []forge.ID{def.ID}},
			{hooks.Filter{RepoID: repo.ID}, []forge.ID{onRepo.ID}},
			{hooks.Filter{OwnerID: owner.ID}, []forge.ID{onOwner.ID}},
			{hooks.Filter{OwnerID: owner.ID, ActiveOnly: true}, nil},
		} {
			list, n, err := tx.ListHooks(ctx, c.f, forge.ListOptions{Limit: -1})
			require.NoError(t, err)
			var ids []forge.ID
			for _, h := range list {
				ids = append(ids, h.ID)
			}
			assert.Equal(t, c.want, ids, "%+v", c.f)
			assert.Equal(t, int64(len(c.want)), n)
		}
		u, err := tx.UserByID(ctx, owner.ID)
		require.NoError(t, err)
		assert.Equal(t, "hana", u.Name)
		_, err = tx.Hook(ctx, 9999)
		assert.ErrorIs(t, err, forge.ErrNotFound)
		return nil
	}))
	// Paging: two system hooks, one per page.
	second := mk(hooks.Hook{IsSystem: true})
	hookUpdate(t, s, func(tx hooks.Tx) error { return tx.CreateHook(ctx, second) })
	require.NoError(t, s.View(ctx, func(tx hooks.Tx) error {
		list, n, err := tx.ListHooks(ctx, hooks.Filter{System: true}, forge.ListOptions{Page: 2, Limit: 1})
		require.NoError(t, err)
		assert.Equal(t, int64(2), n)
		require.Len(t, list, 1)
		assert.Equal(t, second.ID, list[0].ID)
		return nil
	}))
	err := s.Update(ctx, func(tx hooks.Tx) error { return tx.UpdateHook(ctx, mk(hooks.Hook{ID: 9999})) })
	assert.ErrorIs(t, err, forge.ErrNotFound)
	err = s.Update(ctx, func(tx hooks.Tx) error { return tx.DeleteHook(ctx, 9999) })
	assert.ErrorIs(t, err, forge.ErrNotFound)
	hookUpdate(t, s, func(tx hooks.Tx) error { return tx.DeleteHook(ctx, def.ID) })
	wantNotFound(t, s, func(ctx context.Context, tx hooks.Tx) error { _, err := tx.Hook(ctx, def.ID); return err })

	// Deleting the repository or the owner takes their hooks.
	repoUpdate(t, b.Repos(), func(tx repos.Tx) error { return tx.DeleteRepo(ctx, repo.ID) })
	wantNotFound(t, s, func(ctx context.Context, tx hooks.Tx) error { _, err := tx.Hook(ctx, onRepo.ID); return err }, "a repository's hooks go with it")
}

// testHookTasks: tasks round-trip, are due by NextAttempt, are listed
// newest first, and go with their hook.
func testHookTasks(t *testing.T, b Backend) {
	ctx := context.Background()
	s := b.Hooks()
	at := time.Date(2024, 3, 4, 5, 6, 7, 0, time.UTC)
	h := &hooks.Hook{IsSystem: true, Type: hooks.TypeGitea, URL: "https://example.com", ContentType: hooks.ContentForm,
		HTTPMethod: "POST", Events: []string{"push"}, Meta: map[string]string{}, Created: at, Updated: at}
	hookUpdate(t, s, func(tx hooks.Tx) error { return tx.CreateHook(ctx, h) })
	var ks []*hooks.Task
	for i, next := range []time.Time{at.Add(time.Minute), at, at.Add(time.Hour)} {
		ks = append(ks, &hooks.Task{HookID: h.ID, UUID: "u" + string(rune('a'+i)), Event: "push", EventType: "push",
			Payload: []byte(`{"i":1}`), NextAttempt: next, Created: at})
	}
	hookUpdate(t, s, func(tx hooks.Tx) error {
		for _, k := range ks {
			if err := tx.CreateTask(ctx, k); err != nil {
				return err
			}
		}
		return nil
	})
	err := s.Update(ctx, func(tx hooks.Tx) error {
		return tx.CreateTask(ctx, &hooks.Task{HookID: 9999, UUID: "x", Payload: []byte("{}"), Created: at})
	})
	assert.ErrorIs(t, err, forge.ErrNotFound, "a task needs its hook")
	ks[0].Attempts, ks[0].Delivered, ks[0].Succeeded, ks[0].ResponseStatus, ks[0].ResponseBody, ks[0].DeliveredAt =
		1, true, true, 200, "ok", at.Add(2*time.Minute)
	hookUpdate(t, s, func(tx hooks.Tx) error { return tx.UpdateTask(ctx, ks[0]) })
	require.NoError(t, s.View(ctx, func(tx hooks.Tx) error {
		got, err := tx.Task(ctx, ks[0].ID)
		wantRoundTrip(t, "task", ks[0], got, err)
		due, err := tx.DueTasks(ctx, at.Add(time.Minute), 10)
		require.NoError(t, err)
		require.Len(t, due, 1, "delivered and later tasks are not due")
		assert.Equal(t, ks[1].ID, due[0].ID)
		due, err = tx.DueTasks(ctx, at.Add(time.Hour), 1)
		require.NoError(t, err)
		require.Len(t, due, 1, "limit")
		list, n, err := tx.ListTasks(ctx, h.ID, forge.ListOptions{Page: 1, Limit: 2})
		require.NoError(t, err)
		assert.Equal(t, int64(3), n)
		require.Len(t, list, 2)
		assert.Equal(t, []forge.ID{ks[2].ID, ks[1].ID}, []forge.ID{list[0].ID, list[1].ID}, "newest first")
		_, err = tx.Task(ctx, 9999)
		assert.ErrorIs(t, err, forge.ErrNotFound)
		return nil
	}))
	err = s.Update(ctx, func(tx hooks.Tx) error { return tx.UpdateTask(ctx, &hooks.Task{ID: 9999, Payload: []byte("{}")}) })
	assert.ErrorIs(t, err, forge.ErrNotFound)
	hookUpdate(t, s, func(tx hooks.Tx) error { return tx.DeleteHook(ctx, h.ID) })
	wantNotFound(t, s, func(ctx context.Context, tx hooks.Tx) error { _, err := tx.Task(ctx, ks[1].ID); return err }, "tasks go with their hook")
}

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
	_, repo := newUserRepo(t, b, "claire", "claimed")
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
