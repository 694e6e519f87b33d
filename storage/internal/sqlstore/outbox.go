package sqlstore

import (
	"context"
	"time"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/hooks"
)

const outboxCols = `id, kind, data, created_unix, claim, claim_until_unix, done_unix`

var (
	sqlAppendOutbox   = prepared(`INSERT INTO outbox (kind, data, created_unix) VALUES (?, ?, ?)`)
	sqlClaimOneOutbox = prepared(`UPDATE outbox SET claim = ?, claim_until_unix = ? WHERE id = ?`)
	sqlOutboxState    = prepared(`SELECT claim, done_unix FROM outbox WHERE id = ?`)
	sqlFinishOutbox   = prepared(`UPDATE outbox SET done_unix = ? WHERE id = ? AND done_unix = 0 AND claim = ?`)
	sqlPruneOutbox    = prepared(`DELETE FROM outbox WHERE done_unix <> 0 AND done_unix < ?`)
)

// sqlClaimOutbox selects the events to claim; the dialect's SkipLocked
// is appended (PostgreSQL: servers claiming at once take different rows).
const sqlClaimOutbox = `SELECT ` + outboxCols + ` FROM outbox WHERE done_unix = 0 AND claim_until_unix <= ?
	ORDER BY id LIMIT ?`

// AppendOutbox implements hooks.Tx, and the outbox of the domains' Tx
// (issues.Tx, repos.Tx): every domain appends on the same transaction.
func (t *tx) AppendOutbox(ctx context.Context, kind string, data []byte, at time.Time) error {
	if data == nil {
		data = []byte{}
	}
	_, err := t.exec(ctx, sqlAppendOutbox, kind, data, toUnix(at))
	return mapError(err, "append outbox event")
}

// ClaimOutbox implements hooks.Tx.
func (t hookTx) ClaimOutbox(ctx context.Context, claim string, now, until time.Time, limit int) ([]*hooks.OutboxEvent, error) {
	rows, err := t.query(ctx, sqlClaimOutbox+t.db.d.SkipLocked, toUnix(now), limit)
	if err != nil {
		return nil, mapError(err, "claim outbox events")
	}
	var list []*hooks.OutboxEvent
	for rows.Next() {
		var e hooks.OutboxEvent
		var created, claimUntil, done int64
		if err := rows.Scan(&e.ID, &e.Kind, &e.Data, &created, &e.Claim, &claimUntil, &done); err != nil {
			rows.Close()
			return nil, mapError(err, "claim outbox events")
		}
		e.Created, e.ClaimUntil, e.Done = fromUnix(created), fromUnix(claimUntil), fromUnix(done)
		list = append(list, &e)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, mapError(err, "claim outbox events")
	}
	for _, e := range list {
		if _, err := t.exec(ctx, sqlClaimOneOutbox, claim, toUnix(until), e.ID); err != nil {
			return nil, mapError(err, "claim outbox events")
		}
		e.Claim, e.ClaimUntil = claim, fromUnix(toUnix(until))
	}
	return list, nil
}

// FinishOutbox implements hooks.Tx.
func (t hookTx) FinishOutbox(ctx context.Context, id forge.ID, claim string, at time.Time) error {
	res, err := t.exec(ctx, sqlFinishOutbox, toUnix(at), id, claim)
	if err != nil {
		return mapError(err, "finish outbox event")
	}
	if n, err := res.RowsAffected(); err != nil {
		return mapError(err, "finish outbox event")
	} else if n == 1 {
		return nil
	}
	var holder string
	var done int64
	if err := t.queryRow(ctx, sqlOutboxState, id).Scan(&holder, &done); err != nil {
		return mapError(err, "outbox event")
	}
	if done != 0 {
		return forge.Errorf(forge.ErrConflict, "outbox event %d: processed already", id)
	}
	return forge.Errorf(forge.ErrConflict, "outbox event %d: claimed by another pass", id)
}

// PruneOutbox implements hooks.Tx.
func (t hookTx) PruneOutbox(ctx context.Context, before time.Time) (int64, error) {
	res, err := t.exec(ctx, sqlPruneOutbox, toUnix(before))
	if err != nil {
		return 0, mapError(err, "prune outbox")
	}
	n, err := res.RowsAffected()
	return n, mapError(err, "prune outbox")
}
