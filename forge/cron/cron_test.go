package cron_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/cron"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var (
	admin = forge.Actor{User: &forge.User{ID: 1, Name: "root", IsActive: true, IsAdmin: true}}
	user  = forge.Actor{User: &forge.User{ID: 2, Name: "u", IsActive: true}}
)

// TestRegistry: tasks are listed by name with Forgejo's schedule form,
// run on demand for administrators only (each run counted, Prev and Next
// set from the clock), and unknown names are not found.
func TestRegistry(t *testing.T) {
	clock := forgetest.NewClock()
	var swept, failed atomic.Int64
	r, err := cron.New(cron.Config{Clock: clock, Tasks: []cron.Task{
		{Name: "update_mirrors", Every: time.Minute, Run: func(context.Context) error { swept.Add(1); return nil }},
		{Name: "a_failing_task", Every: time.Hour, Run: func(context.Context) error { failed.Add(1); return errors.New("boom") }},
	}})
	require.NoError(t, err)
	ctx := context.Background()

	list, total, err := r.List(ctx, admin, forge.ListOptions{})
	require.NoError(t, err)
	assert.EqualValues(t, 2, total)
	require.Len(t, list, 2)
	assert.Equal(t, cron.State{Name: "a_failing_task", Schedule: "@every 1h0m0s", Next: clock.Now().Add(time.Hour)}, list[0])
	assert.Equal(t, "update_mirrors", list[1].Name)

	clock.Step(10 * time.Second)
	require.NoError(t, r.Run(ctx, admin, "update_mirrors"))
	require.NoError(t, r.Run(ctx, admin, "a_failing_task"), "a task's own failure is logged, not answered")
	assert.EqualValues(t, 1, swept.Load())
	assert.EqualValues(t, 1, failed.Load())
	list, _, err = r.List(ctx, admin, forge.ListOptions{Page: 2, Limit: 1})
	require.NoError(t, err)
	assert.Equal(t, []cron.State{{Name: "update_mirrors", Schedule: "@every 1m0s", Prev: clock.Now(), Next: clock.Now().Add(time.Minute), ExecTimes: 1}}, list)

	assert.ErrorIs(t, r.Run(ctx, admin, "nope"), forge.ErrNotFound)
	assert.ErrorIs(t, r.Run(ctx, user, "update_mirrors"), forge.ErrForbidden)
	_, _, err = r.List(ctx, forge.Anonymous, forge.ListOptions{})
	assert.ErrorIs(t, err, forge.ErrUnauthenticated)
	assert.EqualValues(t, 1, swept.Load(), "refused runs run nothing")

	_, err = cron.New(cron.Config{Tasks: []cron.Task{{Name: "x", Every: time.Second, Run: func(context.Context) error { return nil }},
		{Name: "x", Every: time.Second, Run: func(context.Context) error { return nil }}}})
	assert.ErrorIs(t, err, forge.ErrInvalid)
	_, err = cron.New(cron.Config{Tasks: []cron.Task{{Name: "x", Run: func(context.Context) error { return nil }}}})
	assert.ErrorIs(t, err, forge.ErrInvalid)
}

// TestServe: Serve runs each task whenever its interval passes, until
// its context ends.
func TestServe(t *testing.T) {
	ticks := make(chan time.Time)
	ran := make(chan struct{})
	r, err := cron.New(cron.Config{After: func(time.Duration) <-chan time.Time { return ticks },
		Tasks: []cron.Task{{Name: "t", Every: time.Minute, Run: func(context.Context) error { ran <- struct{}{}; return nil }}}})
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- r.Serve(ctx) }()
	for range 2 {
		ticks <- time.Time{}
		<-ran
	}
	cancel()
	require.NoError(t, <-done)
	list, _, err := r.List(context.Background(), admin, forge.ListOptions{})
	require.NoError(t, err)
	assert.EqualValues(t, 2, list[0].ExecTimes)
}
