package memstore

import (
	"cmp"
	"context"
	"maps"
	"slices"
	"time"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/hooks"
)

// Hooks returns the store package forge/hooks consumes.
func (s *Store) Hooks() hooks.Store { return storeOf(s, func(t *tx) hooks.Tx { return hookTx{t} }) }

// hookTx is a transaction seen as a hooks.Tx.
type hookTx struct{ *tx }

var _ hooks.Tx = hookTx{}

// storedHook is a hook as kept: times to the second, copies of slices.
func storedHook(h *hooks.Hook) hooks.Hook {
	c := *h.Clone()
	c.Created, c.Updated = ts(c.Created), ts(c.Updated)
	return c
}

func (t hookTx) hookRefsExist(h *hooks.Hook) error {
	if _, ok := t.st.repos[h.RepoID]; h.RepoID != 0 && !ok {
		return missingRef("hook repository")
	}
	if _, ok := t.st.users[h.OwnerID]; h.OwnerID != 0 && !ok {
		return missingRef("hook owner")
	}
	return nil
}

// live reports whether a hook still exists: memstore cascades the
// deletion of a hook's repository or owner lazily, by treating the hooks
// (and their tasks) of a missing repository or account as deleted, as the
// SQL schema's ON DELETE CASCADE does.
func (t hookTx) live(h hooks.Hook) bool {
	_, repo := t.st.repos[h.RepoID]
	_, owner := t.st.users[h.OwnerID]
	return (h.RepoID == 0 || repo) && (h.OwnerID == 0 || owner)
}

// liveHook returns the hook id if it exists and is live.
func (t hookTx) liveHook(id forge.ID) (hooks.Hook, bool) {
	h, ok := t.st.hooks[id]
	return h, ok && t.live(h)
}

func (t hookTx) CreateHook(ctx context.Context, h *hooks.Hook) error {
	if err := t.write(ctx); err != nil {
		return err
	}
	if err := t.hookRefsExist(h); err != nil {
		return err
	}
	h.ID = t.st.nextID("webhook")
	t.st.hooks[h.ID] = storedHook(h)
	return nil
}

func (t hookTx) Hook(ctx context.Context, id forge.ID) (*hooks.Hook, error) {
	if err := t.read(ctx); err != nil {
		return nil, err
	}
	h, ok := t.liveHook(id)
	if !ok {
		return nil, notFound("hook")
	}
	return h.Clone(), nil
}

func (t hookTx) UpdateHook(ctx context.Context, h *hooks.Hook) error {
	if err := t.write(ctx); err != nil {
		return err
	}
	if _, ok := t.liveHook(h.ID); !ok {
		return notFound("hook")
	}
	t.st.hooks[h.ID] = storedHook(h)
	return nil
}

func (t hookTx) DeleteHook(ctx context.Context, id forge.ID) error {
	if err := t.write(ctx); err != nil {
		return err
	}
	if _, ok := t.liveHook(id); !ok {
		return notFound("hook")
	}
	delete(t.st.hooks, id)
	maps.DeleteFunc(t.st.hookTasks, func(_ forge.ID, k hooks.Task) bool { return k.HookID == id })
	return nil
}

func (t hookTx) ListHooks(ctx context.Context, f hooks.Filter, o forge.ListOptions) ([]*hooks.Hook, int64, error) {
	if err := t.read(ctx); err != nil {
		return nil, 0, err
	}
	var all []*hooks.Hook
	for _, h := range t.st.hooks {
		switch {
		case !t.live(h) || (f.ActiveOnly && !h.Active):
			continue
		case f.RepoID != 0 || f.OwnerID != 0:
			if h.RepoID != f.RepoID || h.OwnerID != f.OwnerID {
				continue
			}
		case h.RepoID != 0 || h.OwnerID != 0 || h.IsSystem != f.System:
			continue
		}
		all = append(all, h.Clone())
	}
	slices.SortFunc(all, func(a, b *hooks.Hook) int { return cmp.Compare(a.ID, b.ID) })
	if o.Limit >= 0 {
		o = o.Normalize()
	}
	lo, hi := o.Bounds(len(all))
	return all[lo:hi], int64(len(all)), nil
}

func storedTask(k *hooks.Task) hooks.Task {
	c := *k
	c.Payload = slices.Clone(k.Payload)
	c.NextAttempt, c.Created, c.DeliveredAt = ts(c.NextAttempt), ts(c.Created), ts(c.DeliveredAt)
	return c
}

func cloneTask(k hooks.Task) *hooks.Task {
	k.Payload = slices.Clone(k.Payload)
	return &k
}

func (t hookTx) CreateTask(ctx context.Context, k *hooks.Task) error {
	if err := t.write(ctx); err != nil {
		return err
	}
	if _, ok := t.liveHook(k.HookID); !ok {
		return missingRef("task hook")
	}
	k.ID = t.st.nextID("hook_task")
	t.st.hookTasks[k.ID] = storedTask(k)
	return nil
}

func (t hookTx) Task(ctx context.Context, id forge.ID) (*hooks.Task, error) {
	if err := t.read(ctx); err != nil {
		return nil, err
	}
	k, ok := t.st.hookTasks[id]
	if _, live := t.liveHook(k.HookID); !ok || !live {
		return nil, notFound("hook task")
	}
	return cloneTask(k), nil
}

func (t hookTx) UpdateTask(ctx context.Context, k *hooks.Task) error {
	if err := t.write(ctx); err != nil {
		return err
	}
	old, ok := t.st.hookTasks[k.ID]
	if _, live := t.liveHook(old.HookID); !ok || !live {
		return notFound("hook task")
	}
	t.st.hookTasks[k.ID] = storedTask(k)
	return nil
}

func (t hookTx) DueTasks(ctx context.Context, now time.Time, limit int) ([]*hooks.Task, error) {
	if err := t.read(ctx); err != nil {
		return nil, err
	}
	var due []*hooks.Task
	for _, k := range t.st.hookTasks {
		if _, live := t.liveHook(k.HookID); live && !k.Delivered && !k.NextAttempt.After(now) {
			due = append(due, cloneTask(k))
		}
	}
	slices.SortFunc(due, func(a, b *hooks.Task) int {
		return cmp.Or(a.NextAttempt.Compare(b.NextAttempt), cmp.Compare(a.ID, b.ID))
	})
	if limit >= 0 && len(due) > limit {
		due = due[:limit]
	}
	return due, nil
}

func (t hookTx) ListTasks(ctx context.Context, hookID forge.ID, o forge.ListOptions) ([]*hooks.Task, int64, error) {
	if err := t.read(ctx); err != nil {
		return nil, 0, err
	}
	var all []*hooks.Task
	for _, k := range t.st.hookTasks {
		if k.HookID == hookID {
			all = append(all, cloneTask(k))
		}
	}
	slices.SortFunc(all, func(a, b *hooks.Task) int { return cmp.Compare(b.ID, a.ID) })
	lo, hi := o.Normalize().Bounds(len(all))
	return all[lo:hi], int64(len(all)), nil
}
