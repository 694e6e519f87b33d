package sqlstore

import (
	"context"
	"time"

	"github.com/hearthforge/hearth/forge/federation"
)

// Federation returns the store package forge/federation consumes.
func (db *DB) Federation() federation.Store {
	return storeOf(db, func(t *tx) federation.Tx { return federationTx{t} })
}

// federationTx is the transaction as federation.Tx.
type federationTx struct{ *tx }

var _ federation.Tx = federationTx{}

var (
	// A zero since (?1 = 0) counts every individual account; otherwise
	// those signed in at or after it (last_login_unix 0: never).
	sqlCountIndividuals = prepared(`SELECT count(*) FROM users WHERE type = 0
		AND (CAST(?1 AS BIGINT) = 0 OR (last_login_unix > 0 AND last_login_unix >= CAST(?1 AS BIGINT)))`)
	sqlCountAllIssues   = prepared("SELECT count(*) FROM issue")
	sqlCountAllComments = prepared("SELECT count(*) FROM comment")
)

func (t federationTx) CountIndividuals(ctx context.Context, since time.Time) (int64, error) {
	var n int64
	err := t.queryRow(ctx, sqlCountIndividuals, toUnix(since)).Scan(&n)
	return n, mapError(err, "count users")
}

func (t federationTx) CountIssues(ctx context.Context) (int64, error) {
	var n int64
	err := t.queryRow(ctx, sqlCountAllIssues).Scan(&n)
	return n, mapError(err, "count issues")
}

func (t federationTx) CountComments(ctx context.Context) (int64, error) {
	var n int64
	err := t.queryRow(ctx, sqlCountAllComments).Scan(&n)
	return n, mapError(err, "count comments")
}
