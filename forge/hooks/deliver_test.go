package hooks_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/forge/hooks"
	"github.com/hearthforge/hearth/forge/hooks/hookhttp"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/storage/memgit"
	"github.com/hearthforge/hearth/storage/memstore"
)

// pushes adapts the sinks to repos.PushListener, as the wiring does.
type pushes struct{ h *sinks }

func (p pushes) AfterPush(ctx context.Context, actor forge.Actor, r *forge.Repository, ups []repos.RefUpdate) {
	conv := make([]hooks.RefUpdate, len(ups))
	for i, u := range ups {
		conv[i] = hooks.RefUpdate{Ref: u.Ref, OldID: u.OldID, NewID: u.NewID}
	}
	_ = p.h.pushed(ctx, actor, r, conv)
}

// delivery is one request a receiver got.
type delivery struct {
	header http.Header
	body   []byte
}

// receiver is a real HTTP server on 127.0.0.1 that answers with the
// statuses queued (200 when none) and records what it got. hang makes it
// wait for the request's end instead.
type receiver struct {
	srv      *httptest.Server
	mu       sync.Mutex
	statuses []int
	hang     bool
	got      chan delivery
}

func newReceiver(t *testing.T) *receiver {
	rc := &receiver{got: make(chan delivery, 16)}
	done := make(chan struct{})
	rc.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		rc.got <- delivery{r.Header.Clone(), b}
		rc.mu.Lock()
		hang := rc.hang
		status := http.StatusOK
		if len(rc.statuses) > 0 {
			status, rc.statuses = rc.statuses[0], rc.statuses[1:]
		}
		rc.mu.Unlock()
		if hang {
			select {
			case <-r.Context().Done():
			case <-done:
			}
			return
		}
		w.WriteHeader(status)
		_, _ = io.WriteString(w, "ok")
	}))
	t.Cleanup(func() { close(done); rc.srv.Close() })
	return rc
}

// next returns the next delivery, failing after a deadline.
func (rc *receiver) next(t *testing.T) delivery {
	t.Helper()
	select {
	case d := <-rc.got:
		return d
	case <-time.After(10 * time.Second):
		t.Fatal("no delivery")
		return delivery{}
	}
}

func (rc *receiver) none(t *testing.T) {
	t.Helper()
	select {
	case d := <-rc.got:
		t.Fatalf("unexpected delivery %s", d.body)
	default:
	}
}

type env struct {
	store *memstore.Store
	clock *forgetest.FakeClock
	repos *repos.Service
	hooks *hooks.Service
	sinks *sinks
	alice forge.Actor
	repo  *forge.Repository
}

func newEnv(t *testing.T, policy []string, mutate ...func(*hooks.Config)) *env {
	t.Helper()
	ctx := context.Background()
	e := &env{store: memstore.New(), clock: forgetest.NewClock()}
	p, err := hooks.ParseAddressPolicy(policy)
	require.NoError(t, err)
	hc := hooks.Config{Store: e.store.Hooks(), Clock: e.clock, Sender: hookhttp.New(p), RootURL: testRoot,
		Timeout: 100 * time.Millisecond, Backoff: 10 * time.Second, MaxAttempts: 3}
	for _, m := range mutate {
		m(&hc)
	}
	var h pushes
	var rp *repos.Ports
	e.repos, rp, err = repos.NewWithPorts(repos.Config{Store: e.store.Repos(), Git: memgit.New(), Clock: e.clock,
		PushListeners: []repos.PushListener{&h}})
	require.NoError(t, err)
	hc.Repos = e.repos
	e.hooks, e.sinks, err = newSinks(hc, rp)
	require.NoError(t, err)
	h.h = e.sinks
	u := forgetest.User("alice")
	require.NoError(t, e.store.Auth().Update(ctx, func(tx auth.Tx) error { return tx.CreateUser(ctx, u, "") }))
	e.alice = forgetest.ActorFor(u)
	v, err := e.repos.Create(ctx, e.alice, "", repos.CreateOptions{Name: "proj"})
	require.NoError(t, err)
	e.repo = v.Repo
	return e
}

func (e *env) hook(t *testing.T, url string, events ...string) *hooks.Hook {
	t.Helper()
	h, err := e.hooks.Create(context.Background(), e.alice, hooks.RepoHooks("alice", "proj"), hooks.CreateOptions{
		Type: hooks.TypeForgejo, Config: hooks.Settings{"url": url, "content_type": "json", "secret": "s3cret"},
		Events: events, Active: true})
	require.NoError(t, err)
	return h
}

const (
	zero = "0000000000000000000000000000000000000000"
	c1   = "1111111111111111111111111111111111111111"
	c2   = "2222222222222222222222222222222222222222"
)

func (e *env) push(t *testing.T, ups ...repos.RefUpdate) {
	t.Helper()
	require.NoError(t, e.repos.AfterPush(context.Background(), e.alice, e.repo.ID, ups))
}

func (e *env) tasks(t *testing.T, id forge.ID) []*hooks.Task {
	t.Helper()
	list, _, err := e.hooks.Tasks(context.Background(), e.alice, hooks.RepoHooks("alice", "proj"), id, forge.ListOptions{})
	require.NoError(t, err)
	return list
}

func verify(t *testing.T, d delivery, secret string) {
	t.Helper()
	m := hmac.New(sha256.New, []byte(secret))
	m.Write(d.body)
	want := hex.EncodeToString(m.Sum(nil))
	assert.Equal(t, want, d.header.Get("X-Forgejo-Signature"))
	assert.Equal(t, want, d.header.Get("X-Gitea-Signature"))
	assert.Equal(t, want, d.header.Get("X-Gogs-Signature"))
}

// TestDeliverPushCreateDelete: a push creating a branch, updating another
// and deleting a tag reaches a loopback receiver (allowed by the policy)
// signed, with Forgejo's headers and payload fields per event; the
// delivery log records the successes.
func TestDeliverPushCreateDelete(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	rc := newReceiver(t)
	e := newEnv(t, []string{"loopback"})
	h := e.hook(t, rc.srv.URL+"/hook", "push", "create", "delete")
	e.push(t, repos.RefUpdate{Ref: "refs/heads/main", OldID: c1, NewID: c2},
		repos.RefUpdate{Ref: "refs/heads/dev", OldID: zero, NewID: c1},
		repos.RefUpdate{Ref: "refs/tags/v1", OldID: c1, NewID: zero})
	rc.none(t) // queued, not delivered by the push
	n, err := e.hooks.DeliverDue(ctx)
	require.NoError(t, err)
	assert.Equal(t, 4, n, "push main, create dev, push dev, delete v1")

	byEvent := map[string][]map[string]any{}
	for range 4 {
		d := rc.next(t)
		verify(t, d, "s3cret")
		assert.Equal(t, "application/json", d.header.Get("Content-Type"))
		assert.NotEmpty(t, d.header.Get("X-Forgejo-Delivery"))
		assert.Equal(t, d.header.Get("X-Forgejo-Event"), d.header.Get("X-Gitea-Event"))
		var p map[string]any
		require.NoError(t, json.Unmarshal(d.body, &p))
		byEvent[d.header.Get("X-Forgejo-Event")] = append(byEvent[d.header.Get("X-Forgejo-Event")], p)
	}
	require.Len(t, byEvent["push"], 2)
	for _, p := range byEvent["push"] {
		assert.Equal(t, "alice/proj", p["repository"].(map[string]any)["full_name"])
		assert.Equal(t, "alice", p["pusher"].(map[string]any)["login"])
		assert.Equal(t, "alice", p["sender"].(map[string]any)["login"])
		if p["ref"] == "refs/heads/main" {
			assert.Equal(t, c1, p["before"])
			assert.Equal(t, c2, p["after"])
			assert.Equal(t, "https://forge.example/alice/proj/compare/"+c1+"..."+c2, p["compare_url"])
		} else {
			assert.Equal(t, "refs/heads/dev", p["ref"])
		}
	}
	require.Len(t, byEvent["create"], 1)
	assert.Equal(t, map[string]any{"sha": c1, "ref": "dev", "ref_type": "branch"},
		pick(byEvent["create"][0], "sha", "ref", "ref_type"))
	require.Len(t, byEvent["delete"], 1)
	assert.Equal(t, map[string]any{"ref": "v1", "ref_type": "tag", "pusher_type": "user"},
		pick(byEvent["delete"][0], "ref", "ref_type", "pusher_type"))

	log := e.tasks(t, h.ID)
	require.Len(t, log, 4)
	for _, k := range log {
		assert.True(t, k.Delivered && k.Succeeded, "%+v", k)
		assert.Equal(t, 200, k.ResponseStatus)
		assert.Equal(t, 1, k.Attempts)
	}
	n, err = e.hooks.DeliverDue(ctx)
	require.NoError(t, err)
	assert.Zero(t, n, "nothing left")
}

func pick(m map[string]any, keys ...string) map[string]any {
	out := map[string]any{}
	for _, k := range keys {
		out[k] = m[k]
	}
	return out
}

// TestRetryAfter500: a 500 is retried after the back-off, on the worker's
// clock, and the log shows both attempts.
func TestRetryAfter500(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	rc := newReceiver(t)
	rc.statuses = []int{500}
	e := newEnv(t, []string{"loopback"})
	h := e.hook(t, rc.srv.URL)
	e.push(t, repos.RefUpdate{Ref: "refs/heads/main", OldID: c1, NewID: c2})
	_, err := e.hooks.DeliverDue(ctx)
	require.NoError(t, err)
	rc.next(t)
	k := e.tasks(t, h.ID)[0]
	assert.False(t, k.Delivered)
	assert.Equal(t, 500, k.ResponseStatus)
	assert.Equal(t, e.clock.Now().Add(10*time.Second), k.NextAttempt)

	n, err := e.hooks.DeliverDue(ctx)
	require.NoError(t, err)
	assert.Zero(t, n, "not due before the back-off")
	e.clock.Step(10 * time.Second)
	n, err = e.hooks.DeliverDue(ctx)
	require.NoError(t, err)
	assert.Equal(t, 1, n)
	verify(t, rc.next(t), "s3cret")
	k = e.tasks(t, h.ID)[0]
	assert.True(t, k.Delivered && k.Succeeded)
	assert.Equal(t, 2, k.Attempts)
}

// TestAttemptsExhausted: a receiver that keeps failing is given up after
// MaxAttempts, with the back-off doubling.
func TestAttemptsExhausted(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	rc := newReceiver(t)
	rc.statuses = []int{500, 502, 503}
	e := newEnv(t, []string{"loopback"})
	h := e.hook(t, rc.srv.URL)
	e.push(t, repos.RefUpdate{Ref: "refs/heads/main", OldID: c1, NewID: c2})
	for _, wait := range []time.Duration{0, 10 * time.Second, 20 * time.Second} {
		e.clock.Step(wait)
		n, err := e.hooks.DeliverDue(ctx)
		require.NoError(t, err)
		require.Equal(t, 1, n)
		rc.next(t)
	}
	k := e.tasks(t, h.ID)[0]
	assert.True(t, k.Delivered)
	assert.False(t, k.Succeeded)
	assert.Equal(t, 3, k.Attempts)
	assert.Equal(t, 503, k.ResponseStatus)
}

// TestHangingReceiverTimesOut: an attempt ends at Config.Timeout and is
// logged as failed; the push that caused it did not wait.
func TestHangingReceiverTimesOut(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	rc := newReceiver(t)
	rc.hang = true
	e := newEnv(t, []string{"loopback"})
	h := e.hook(t, rc.srv.URL)
	e.push(t, repos.RefUpdate{Ref: "refs/heads/main", OldID: c1, NewID: c2})
	n, err := e.hooks.DeliverDue(ctx)
	require.NoError(t, err)
	assert.Equal(t, 1, n)
	rc.next(t)
	k := e.tasks(t, h.ID)[0]
	assert.False(t, k.Delivered)
	assert.Equal(t, 1, k.Attempts)
	assert.Zero(t, k.ResponseStatus)
	assert.Contains(t, k.ResponseBody, "deadline exceeded")
}

// TestRequestNeverWaits: with the worker running and a receiver that
// hangs, pushes return at once and their events keep being queued.
func TestRequestNeverWaits(t *testing.T) {
	t.Parallel()
	rc := newReceiver(t)
	rc.hang = true
	e := newEnv(t, []string{"loopback"}, func(c *hooks.Config) { c.Timeout = time.Hour })
	h := e.hook(t, rc.srv.URL)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- e.hooks.Run(ctx) }()
	e.push(t, repos.RefUpdate{Ref: "refs/heads/main", OldID: c1, NewID: c2})
	rc.next(t) // the worker is now stuck in the receiver
	e.push(t, repos.RefUpdate{Ref: "refs/heads/main", OldID: c2, NewID: c1})
	assert.Len(t, e.tasks(t, h.ID), 2)
	cancel()
	require.NoError(t, <-done)
}

// TestLoopbackRefusedByDefault: without "loopback" in the policy the
// sender refuses 127.0.0.1 at connect time; the receiver gets nothing.
func TestLoopbackRefusedByDefault(t *testing.T) {
	t.Parallel()
	rc := newReceiver(t)
	e := newEnv(t, nil)
	h := e.hook(t, rc.srv.URL)
	e.push(t, repos.RefUpdate{Ref: "refs/heads/main", OldID: c1, NewID: c2})
	_, err := e.hooks.DeliverDue(context.Background())
	require.NoError(t, err)
	rc.none(t)
	k := e.tasks(t, h.ID)[0]
	assert.False(t, k.Succeeded)
	assert.Contains(t, k.ResponseBody, "is not an allowed host")
}

// TestNothingForRefusedChange: a push the repository service refuses
// (its transaction never commits) queues nothing.
func TestNothingForRefusedChange(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	rc := newReceiver(t)
	e := newEnv(t, []string{"loopback"})
	h := e.hook(t, rc.srv.URL)
	bob := forgetest.User("bob")
	require.NoError(t, e.store.Auth().Update(ctx, func(tx auth.Tx) error { return tx.CreateUser(ctx, bob, "") }))
	err := e.repos.AfterPush(ctx, forgetest.ActorFor(bob), e.repo.ID, []repos.RefUpdate{{Ref: "refs/heads/main", OldID: c1, NewID: c2}})
	require.ErrorIs(t, err, forge.ErrForbidden)
	assert.Empty(t, e.tasks(t, h.ID))
}

// TestFilters: inactive hooks, other events and other branches get
// nothing.
func TestFilters(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	rc := newReceiver(t)
	e := newEnv(t, []string{"loopback"})
	onlyCreate := e.hook(t, rc.srv.URL, "create")
	filtered, err := e.hooks.Create(ctx, e.alice, hooks.RepoHooks("alice", "proj"), hooks.CreateOptions{
		Type: hooks.TypeGitea, Config: hooks.Settings{"url": rc.srv.URL, "content_type": "form"}, BranchFilter: "release/*", Active: true})
	require.NoError(t, err)
	inactive, err := e.hooks.Create(ctx, e.alice, hooks.RepoHooks("alice", "proj"), hooks.CreateOptions{
		Type: hooks.TypeForgejo, Config: hooks.Settings{"url": rc.srv.URL, "content_type": "json"}})
	require.NoError(t, err)
	e.push(t, repos.RefUpdate{Ref: "refs/heads/main", OldID: c1, NewID: c2})
	assert.Empty(t, e.tasks(t, onlyCreate.ID))
	assert.Empty(t, e.tasks(t, filtered.ID))
	assert.Empty(t, e.tasks(t, inactive.ID))
	e.push(t, repos.RefUpdate{Ref: "refs/heads/release/1", OldID: c1, NewID: c2})
	assert.Len(t, e.tasks(t, filtered.ID), 1)
	_, err = e.hooks.DeliverDue(ctx)
	require.NoError(t, err)
	d := rc.next(t)
	assert.Equal(t, "application/x-www-form-urlencoded", d.header.Get("Content-Type"))
	assert.Contains(t, string(d.body), "payload=")
}

// TestTwoWorkersDeliverEachTaskOnce: two delivery workers on one store (as
// two servers on one database) running at once deliver every task once:
// a worker claims what it reads.
func TestTwoWorkersDeliverEachTaskOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	rc := newReceiver(t)
	var cfg *hooks.Config
	e := newEnv(t, []string{"loopback"}, func(c *hooks.Config) { cfg = c })
	other, err := hooks.New(*cfg)
	require.NoError(t, err)
	h := e.hook(t, rc.srv.URL)
	const n = 6
	for i := range n {
		e.push(t, repos.RefUpdate{Ref: fmt.Sprintf("refs/heads/b%d", i), OldID: c1, NewID: c2})
	}
	var wg sync.WaitGroup
	for _, s := range []*hooks.Service{e.hooks, other} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := s.DeliverDue(ctx)
			assert.NoError(t, err)
		}()
	}
	wg.Wait()
	seen := map[string]int{}
	for range n {
		seen[rc.next(t).header.Get("X-Forgejo-Delivery")]++
	}
	rc.none(t)
	assert.Len(t, seen, n, "every task delivered, each once")
	for _, k := range e.tasks(t, h.ID) {
		assert.True(t, k.Delivered && k.Succeeded)
		assert.Equal(t, 1, k.Attempts)
	}
}
