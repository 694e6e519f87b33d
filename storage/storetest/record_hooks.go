package storetest

import (
	"context"
	"time"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/hooks"
)

// The recording wrapper of hooks.Tx (see record.go).

type recHooksStore struct {
	s   hooks.Store
	rec *recorder
}

func (r recHooksStore) Update(ctx context.Context, fn func(hooks.Tx) error) error {
	return r.s.Update(ctx, func(tx hooks.Tx) error { return fn(recHooksTx{tx, r.rec}) })
}

func (r recHooksStore) View(ctx context.Context, fn func(hooks.Tx) error) error {
	return r.s.View(ctx, func(tx hooks.Tx) error { return fn(recHooksTx{tx, r.rec}) })
}

type recHooksTx struct {
	hooks.Tx
	rec *recorder
}

func (x recHooksTx) UserByID(ctx context.Context, id forge.ID) (*forge.User, error) {
	x.rec.hit("hooks.Tx.UserByID")
	return x.Tx.UserByID(ctx, id)
}

func (x recHooksTx) CreateHook(ctx context.Context, h *hooks.Hook) error {
	x.rec.hit("hooks.Tx.CreateHook")
	return x.Tx.CreateHook(ctx, h)
}

func (x recHooksTx) Hook(ctx context.Context, id forge.ID) (*hooks.Hook, error) {
	x.rec.hit("hooks.Tx.Hook")
	return x.Tx.Hook(ctx, id)
}

func (x recHooksTx) UpdateHook(ctx context.Context, h *hooks.Hook) error {
	x.rec.hit("hooks.Tx.UpdateHook")
	return x.Tx.UpdateHook(ctx, h)
}

func (x recHooksTx) DeleteHook(ctx context.Context, id forge.ID) error {
	x.rec.hit("hooks.Tx.DeleteHook")
	return x.Tx.DeleteHook(ctx, id)
}

func (x recHooksTx) ListHooks(ctx context.Context, f hooks.Filter, o forge.ListOptions) ([]*hooks.Hook, int64, error) {
	x.rec.hit("hooks.Tx.ListHooks")
	return x.Tx.ListHooks(ctx, f, o)
}

func (x recHooksTx) CreateTask(ctx context.Context, k *hooks.Task) error {
	x.rec.hit("hooks.Tx.CreateTask")
	return x.Tx.CreateTask(ctx, k)
}

func (x recHooksTx) Task(ctx context.Context, id forge.ID) (*hooks.Task, error) {
	x.rec.hit("hooks.Tx.Task")
	return x.Tx.Task(ctx, id)
}

func (x recHooksTx) UpdateTask(ctx context.Context, k *hooks.Task) error {
	x.rec.hit("hooks.Tx.UpdateTask")
	return x.Tx.UpdateTask(ctx, k)
}

func (x recHooksTx) DueTasks(ctx context.Context, now time.Time, limit int) ([]*hooks.Task, error) {
	x.rec.hit("hooks.Tx.DueTasks")
	return x.Tx.DueTasks(ctx, now, limit)
}

func (x recHooksTx) ListTasks(ctx context.Context, hookID forge.ID, o forge.ListOptions) ([]*hooks.Task, int64, error) {
	x.rec.hit("hooks.Tx.ListTasks")
	return x.Tx.ListTasks(ctx, hookID, o)
}
