package repos_test

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/forge/repos"
)

// TestWritesReturnTheStateAfterThem: every method that writes and returns
// a *View returns what a fresh GetByID by the same actor returns next,
// counters kept by the store (watchers, stars, forks) included. Star
// returns no view; its count is read back by a Get (TestMemWatchAndStar).
func TestWritesReturnTheStateAfterThem(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newMemEnv(t)
	alice := e.user(t, "alice")
	bob := e.user(t, "bob")
	root := e.user(t, "root", forgetest.Admin)
	for _, n := range []string{"watched", "topics", "edited", "forked", "offered", "accepted", "rejected", "moved"} {
		e.repo(t, alice, n, false)
	}
	for _, n := range []string{"accepted", "rejected"} {
		_, err := e.svc.StartTransfer(ctx, alice, "alice", n, "bob", nil)
		require.NoError(t, err)
	}
	desc := "after"
	cases := []struct {
		name  string
		actor forge.Actor
		write func() (*repos.View, error)
	}{
		{"Watch", bob, func() (*repos.View, error) { return e.svc.Watch(ctx, bob, "alice", "watched") }},
		{"AddTopic", alice, func() (*repos.View, error) { return e.svc.AddTopic(ctx, alice, "alice", "topics", "go") }},
		{"SetTopics", alice, func() (*repos.View, error) {
			return e.svc.SetTopics(ctx, alice, "alice", "topics", []string{"b", "a"})
		}},
		{"RemoveTopic", alice, func() (*repos.View, error) { return e.svc.RemoveTopic(ctx, alice, "alice", "topics", "a") }},
		{"Edit", alice, func() (*repos.View, error) {
			return e.svc.Edit(ctx, alice, "alice", "edited", repos.EditOptions{Description: &desc})
		}},
		{"Create", alice, func() (*repos.View, error) {
			return e.svc.Create(ctx, alice, "", repos.CreateOptions{Name: "created", AutoInit: true})
		}},
		{"Fork", bob, func() (*repos.View, error) { return e.svc.Fork(ctx, bob, "alice", "forked", "") }},
		{"StartTransfer pending", alice, func() (*repos.View, error) {
			return e.svc.StartTransfer(ctx, alice, "alice", "offered", "bob", nil)
		}},
		{"StartTransfer at once", root, func() (*repos.View, error) {
			return e.svc.StartTransfer(ctx, root, "alice", "moved", "bob", nil)
		}},
		{"AcceptTransfer", bob, func() (*repos.View, error) { return e.svc.AcceptTransfer(ctx, bob, "alice", "accepted") }},
		{"RejectTransfer", bob, func() (*repos.View, error) { return e.svc.RejectTransfer(ctx, bob, "alice", "rejected") }},
	}
	// A redacted copy caches its avatar hash (unexported).
	opts := cmp.Options{forgetest.CmpOptions, cmpopts.IgnoreUnexported(forge.User{})}
	for _, c := range cases {
		e.clock.Step(time.Minute)
		got, err := c.write()
		require.NoError(t, err, c.name)
		fresh, err := e.svc.GetByID(ctx, c.actor, got.Repo.ID)
		require.NoError(t, err, c.name)
		if d := cmp.Diff(fresh.Repo, got.Repo, opts); d != "" {
			t.Errorf("%s: the returned repository is not the stored one (-stored +returned):\n%s", c.name, d)
		}
		if !reflect.DeepEqual(fresh.Perm, got.Perm) {
			t.Errorf("%s: returned permission %v, stored %v", c.name, got.Perm, fresh.Perm)
		}
		if d := cmp.Diff(fresh.Owner, got.Owner, opts); d != "" {
			t.Errorf("%s: the returned owner is not the stored one (-stored +returned):\n%s", c.name, d)
		}
	}
}
