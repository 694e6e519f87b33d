package memstore

import (
	"cmp"
	"context"
	"slices"
	"time"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/mirror"
)

// Mirrors returns the store package mirror consumes.
func (s *Store) Mirrors() mirror.Store {
	return storeOf(s, func(t *tx) mirror.Tx { return mirrorTx{t} })
}

// mirrorTx is a transaction seen as a mirror.Tx.
type mirrorTx struct{ *tx }

var _ mirror.Tx = mirrorTx{}

func storedPull(m *mirror.PullMirror) mirror.PullMirror {
	c := *m
	c.Updated, c.NextUpdate = ts(c.Updated), ts(c.NextUpdate)
	return c
}

func storedPush(m *mirror.PushMirror) mirror.PushMirror {
	c := *m
	c.Created, c.LastUpdate, c.NextUpdate = ts(c.Created), ts(c.LastUpdate), ts(c.NextUpdate)
	return c
}

func (t mirrorTx) PullMirrorByRepo(ctx context.Context, repoID forge.ID) (*mirror.PullMirror, error) {
	return findRow(ctx, t, t.st.pullMirrors, func(m mirror.PullMirror) bool { return m.RepoID == repoID }, "pull mirror")
}

func (t mirrorTx) PullMirrorByID(ctx context.Context, id forge.ID) (*mirror.PullMirror, error) {
	return readRow(ctx, t, t.st.pullMirrors, id, "pull mirror")
}

func (t mirrorTx) PullMirrorsByRepo(ctx context.Context, repoIDs []forge.ID) (map[forge.ID]*mirror.PullMirror, error) {
	if err := t.read(ctx); err != nil {
		return nil, err
	}
	out := map[forge.ID]*mirror.PullMirror{}
	for _, m := range t.st.pullMirrors {
		if slices.Contains(repoIDs, m.RepoID) {
			c := m
			out[m.RepoID] = &c
		}
	}
	return out, nil
}

func (t mirrorTx) CreatePullMirror(ctx context.Context, m *mirror.PullMirror) error {
	if err := writeRef(ctx, t, t.st.repos, m.RepoID, "pull mirror repository"); err != nil {
		return err
	}
	if _, err := t.PullMirrorByRepo(ctx, m.RepoID); err == nil {
		return conflict("pull mirror")
	}
	m.ID = t.st.nextID("mirror")
	t.st.pullMirrors[m.ID] = storedPull(m)
	return nil
}

func (t mirrorTx) UpdatePullMirror(ctx context.Context, m *mirror.PullMirror) error {
	return updateRow(ctx, t, t.st.pullMirrors, m.ID, "pull mirror", func(old mirror.PullMirror) mirror.PullMirror {
		c := storedPull(m)
		c.RepoID = old.RepoID
		return c
	})
}

func (t mirrorTx) DeletePullMirror(ctx context.Context, repoID forge.ID) error {
	if err := t.write(ctx); err != nil {
		return err
	}
	m, err := t.PullMirrorByRepo(ctx, repoID)
	if err != nil {
		return err
	}
	delete(t.st.pullMirrors, m.ID)
	delete(t.st.leases, m.Key())
	return nil
}

func (t mirrorTx) pushOf(repoID forge.ID) []mirror.PushMirror {
	var out []mirror.PushMirror
	for _, m := range t.st.pushMirrors {
		if m.RepoID == repoID {
			out = append(out, m)
		}
	}
	slices.SortFunc(out, func(a, b mirror.PushMirror) int { return cmp.Compare(a.ID, b.ID) })
	return out
}

func (t mirrorTx) PushMirrors(ctx context.Context, repoID forge.ID, o forge.ListOptions) ([]*mirror.PushMirror, int64, error) {
	if err := t.read(ctx); err != nil {
		return nil, 0, err
	}
	all := t.pushOf(repoID)
	lo, hi := o.Bounds(len(all))
	out := make([]*mirror.PushMirror, 0, hi-lo)
	for i := lo; i < hi; i++ {
		out = append(out, &all[i])
	}
	return out, int64(len(all)), nil
}

func (t mirrorTx) PushMirrorByName(ctx context.Context, repoID forge.ID, remoteName string) (*mirror.PushMirror, error) {
	return findRow(ctx, t, t.st.pushMirrors, func(m mirror.PushMirror) bool { return m.RepoID == repoID && m.RemoteName == remoteName }, "push mirror")
}

func (t mirrorTx) PushMirrorByID(ctx context.Context, id forge.ID) (*mirror.PushMirror, error) {
	return readRow(ctx, t, t.st.pushMirrors, id, "push mirror")
}

func (t mirrorTx) CreatePushMirror(ctx context.Context, m *mirror.PushMirror) error {
	if err := writeRef(ctx, t, t.st.repos, m.RepoID, "push mirror repository"); err != nil {
		return err
	}
	if _, err := t.PushMirrorByName(ctx, m.RepoID, m.RemoteName); err == nil {
		return conflict("push mirror")
	}
	m.ID = t.st.nextID("push_mirror")
	t.st.pushMirrors[m.ID] = storedPush(m)
	return nil
}

func (t mirrorTx) UpdatePushMirror(ctx context.Context, m *mirror.PushMirror) error {
	return updateRow(ctx, t, t.st.pushMirrors, m.ID, "push mirror", func(old mirror.PushMirror) mirror.PushMirror {
		c := storedPush(m)
		c.RepoID, c.RemoteName, c.Created = old.RepoID, old.RemoteName, old.Created
		return c
	})
}

func (t mirrorTx) DeletePushMirror(ctx context.Context, repoID forge.ID, remoteName string) error {
	if err := t.write(ctx); err != nil {
		return err
	}
	m, err := t.PushMirrorByName(ctx, repoID, remoteName)
	if err != nil {
		return nil
	}
	delete(t.st.pushMirrors, m.ID)
	delete(t.st.leases, m.Key())
	return nil
}

func (t mirrorTx) leased(k mirror.Key, now time.Time) bool {
	l, ok := t.st.leases[k]
	return ok && l.Expires.After(now)
}

func (t mirrorTx) DueMirrors(ctx context.Context, before, now time.Time, limit int) ([]mirror.Due, error) {
	if err := t.read(ctx); err != nil {
		return nil, err
	}
	before = ts(before)
	var out []mirror.Due
	for _, m := range t.st.pullMirrors {
		if _, ok := t.st.repos[m.RepoID]; ok && !m.NextUpdate.IsZero() && !m.NextUpdate.After(before) && !t.leased(m.Key(), now) {
			out = append(out, mirror.Due{Key: m.Key(), At: m.NextUpdate})
		}
	}
	for _, m := range t.st.pushMirrors {
		r, ok := t.st.repos[m.RepoID]
		if ok && !r.Archived && !m.NextUpdate.IsZero() && !m.NextUpdate.After(before) && !t.leased(m.Key(), now) {
			out = append(out, mirror.Due{Key: m.Key(), At: m.NextUpdate})
		}
	}
	slices.SortFunc(out, func(a, b mirror.Due) int {
		return cmp.Or(a.At.Compare(b.At), cmp.Compare(a.Key.Kind, b.Key.Kind), cmp.Compare(a.Key.ID, b.Key.ID))
	})
	if limit >= 0 && len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}

func (t mirrorTx) ClaimLease(ctx context.Context, l mirror.Lease, now time.Time) (bool, error) {
	if err := t.write(ctx); err != nil {
		return false, err
	}
	if cur, ok := t.st.leases[l.Key]; ok && cur.Holder != l.Holder && cur.Expires.After(now) {
		return false, nil
	}
	l.Expires = ts(l.Expires)
	t.st.leases[l.Key] = l
	return true, nil
}

func (t mirrorTx) ReleaseLease(ctx context.Context, k mirror.Key, holder string) error {
	if err := t.write(ctx); err != nil {
		return err
	}
	if cur, ok := t.st.leases[k]; ok && cur.Holder == holder {
		delete(t.st.leases, k)
	}
	return nil
}

func (t mirrorTx) ReleaseLeases(ctx context.Context, holder string) (int, error) {
	if err := t.write(ctx); err != nil {
		return 0, err
	}
	n := 0
	for k, l := range t.st.leases {
		if l.Holder == holder {
			delete(t.st.leases, k)
			n++
		}
	}
	return n, nil
}
