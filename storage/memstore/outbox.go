package memstore

import (
	"context"
	"slices"
	"time"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/hooks"
)

// AppendOutbox implements hooks.Tx, and the outbox of the domains' Tx
// (issues.Tx, repos.Tx).
func (t *tx) AppendOutbox(ctx context.Context, kind string, data []byte, at time.Time) error {
	if err := t.write(ctx); err != nil {
		return err
	}
	id := t.st.nextID("outbox")
	t.st.outbox[id] = hooks.OutboxEvent{ID: id, Kind: kind, Data: slices.Clone(data), Created: ts(at)}
	return nil
}

// ClaimOutbox implements hooks.Tx. The one writer serializes claims.
func (t hookTx) ClaimOutbox(ctx context.Context, claim string, now, until time.Time, limit int) ([]*hooks.OutboxEvent, error) {
	if err := t.write(ctx); err != nil {
		return nil, err
	}
	var ids []forge.ID
	for id, e := range t.st.outbox {
		if e.Done.IsZero() && !e.ClaimUntil.After(ts(now)) {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	if limit >= 0 && len(ids) > limit {
		ids = ids[:limit]
	}
	var list []*hooks.OutboxEvent
	for _, id := range ids {
		e := t.st.outbox[id]
		e.Claim, e.ClaimUntil = claim, ts(until)
		t.st.outbox[id] = e
		e.Data = slices.Clone(e.Data)
		list = append(list, &e)
	}
	return list, nil
}

// FinishOutbox implements hooks.Tx.
func (t hookTx) FinishOutbox(ctx context.Context, id forge.ID, claim string, at time.Time) error {
	if err := t.write(ctx); err != nil {
		return err
	}
	e, ok := t.st.outbox[id]
	switch {
	case !ok:
		return notFound("outbox event")
	case !e.Done.IsZero():
		return forge.Errorf(forge.ErrConflict, "outbox event %d: processed already", id)
	case e.Claim != claim:
		return forge.Errorf(forge.ErrConflict, "outbox event %d: claimed by another pass", id)
	}
	e.Done = ts(at)
	t.st.outbox[id] = e
	return nil
}

// PruneOutbox implements hooks.Tx.
func (t hookTx) PruneOutbox(ctx context.Context, before time.Time) (int64, error) {
	if err := t.write(ctx); err != nil {
		return 0, err
	}
	var n int64
	for id, e := range t.st.outbox {
		if !e.Done.IsZero() && e.Done.Before(ts(before)) {
			delete(t.st.outbox, id)
			n++
		}
	}
	return n, nil
}
