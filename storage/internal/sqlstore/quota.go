package sqlstore

import (
	"context"
	"encoding/json"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/quota"
)

// Quota returns the store package quota consumes.
func (db *DB) Quota() quota.Store { return storeOf(db, func(t *tx) quota.Tx { return quotaTx{t} }) }

// quotaTx is the transaction as quota.Tx. The quota.UsageTx methods are
// the shared tx's, so every domain Tx has them.
type quotaTx struct{ *tx }

var (
	_ quota.Tx      = quotaTx{}
	_ quota.UsageTx = (*tx)(nil)
)

var (
	sqlAddRepoUsage = prepared(`INSERT INTO quota_repo_usage (repo_id, bucket, bytes) VALUES (?,?,?)
		ON CONFLICT (repo_id, bucket) DO UPDATE SET bytes = quota_repo_usage.bytes + excluded.bytes`)
	sqlAddOwnerUsage = prepared(`INSERT INTO quota_owner_usage (owner_id, bucket, bytes) VALUES (?,?,?)
		ON CONFLICT (owner_id, bucket) DO UPDATE SET bytes = quota_owner_usage.bytes + excluded.bytes`)
	// sqlUsage reads an owner's usage in three index lookups: its
	// repositories' sizes by visibility, their counters, its own counters.
	sqlUsage = prepared(`SELECT CASE WHEN is_private THEN 'size:repos:private' ELSE 'size:repos:public' END, CAST(sum(size) AS BIGINT)
		FROM repository WHERE owner_id = ?1 GROUP BY is_private
		UNION ALL
		SELECT u.bucket, CAST(sum(u.bytes) AS BIGINT) FROM repository r JOIN quota_repo_usage u ON u.repo_id = r.id
		WHERE r.owner_id = ?1 GROUP BY u.bucket
		UNION ALL
		SELECT bucket, bytes FROM quota_owner_usage WHERE owner_id = ?1
		UNION ALL
		SELECT bucket, CAST(sum(bytes) AS BIGINT) FROM quota_reservation WHERE owner_id = ?1 GROUP BY bucket`)
	sqlReserved          = prepared(`SELECT bucket, CAST(sum(bytes) AS BIGINT) FROM quota_reservation WHERE owner_id = ? GROUP BY bucket`)
	sqlSweepReservations = prepared(`DELETE FROM quota_reservation WHERE owner_id = ? AND expires_unix <= ?`)
	sqlReserve           = prepared(`INSERT INTO quota_reservation (owner_id, repo_id, bucket, bytes, created_unix, expires_unix)
		VALUES (?,?,?,?,?,?) RETURNING id`)
	sqlReleaseReservation = prepared(`DELETE FROM quota_reservation WHERE id = ?`)
	sqlGroupsOf           = prepared(`SELECT g.group_name, coalesce(r.name, ''), coalesce(r.lim, 0),
		coalesce((SELECT json_group_array(subject ORDER BY position) FROM quota_rule_subject
			WHERE rule_name = r.name), '[]')
		FROM quota_group_member g LEFT JOIN quota_group_rule gr ON gr.group_name = g.group_name
		LEFT JOIN quota_rule r ON r.name = gr.rule_name
		WHERE g.user_id = ? ORDER BY g.group_name, r.name`)
	sqlGroupsNamed = prepared(`SELECT g.name, coalesce(r.name, ''), coalesce(r.lim, 0),
		coalesce((SELECT json_group_array(subject ORDER BY position) FROM quota_rule_subject
			WHERE rule_name = r.name), '[]')
		FROM quota_group g LEFT JOIN quota_group_rule gr ON gr.group_name = g.name
		LEFT JOIN quota_rule r ON r.name = gr.rule_name
		WHERE g.name IN (SELECT value FROM json_each(?)) ORDER BY g.name, r.name`)
	sqlRepoExists  = prepared(`SELECT EXISTS (SELECT 1 FROM repository WHERE id = ?)`)
	sqlOwnerExists = prepared(`SELECT EXISTS (SELECT 1 FROM users WHERE id = ?)`)
)

// AddUsage implements quota.UsageTx.
func (t *tx) AddUsage(ctx context.Context, owner quota.Owner, b quota.Bucket, delta int64) error {
	if !b.Valid() || b.Derived() {
		return forge.Errorf(forge.ErrInvalid, "add usage: bucket %q is not a counter", string(b))
	}
	query, exists, id := sqlAddOwnerUsage, sqlOwnerExists, owner.ID
	if owner.RepoID != 0 {
		query, exists, id = sqlAddRepoUsage, sqlRepoExists, owner.RepoID
	}
	var ok bool
	if err := t.queryRow(ctx, exists, id).Scan(&ok); err != nil {
		return mapError(err, "add usage")
	}
	if !ok {
		return forge.Errorf(forge.ErrNotFound, "add usage: missing referenced row")
	}
	_, err := t.exec(ctx, query, id, string(b), delta)
	return mapError(err, "add usage")
}

// Usage implements quota.UsageTx: sizes, counters and reservations.
func (t *tx) Usage(ctx context.Context, owner forge.ID) (quota.Used, error) {
	return t.sumUsage(ctx, sqlUsage, owner)
}

// reserved sums owner's reservations by bucket.
func (t *tx) reserved(ctx context.Context, owner forge.ID) (quota.Used, error) {
	return t.sumUsage(ctx, sqlReserved, owner)
}

// Reserve implements quota.ReservationTx.
func (t *tx) Reserve(ctx context.Context, r *quota.Reservation) error {
	if !r.Bucket.Valid() || r.Bytes < 0 {
		return forge.Errorf(forge.ErrInvalid, "reserve: bucket %q, %d bytes", string(r.Bucket), r.Bytes)
	}
	if _, err := t.exec(ctx, sqlSweepReservations, r.Owner.ID, r.Created.Unix()); err != nil {
		return mapError(err, "reserve")
	}
	var repo any
	if r.Owner.RepoID != 0 {
		repo = r.Owner.RepoID
	}
	return t.guarded(ctx, func() error {
		err := t.queryRow(ctx, sqlReserve, r.Owner.ID, repo, string(r.Bucket), r.Bytes,
			r.Created.Unix(), r.Expires.Unix()).Scan(&r.ID)
		return mapError(err, "reserve")
	})
}

// ReleaseReservation implements quota.ReservationTx.
func (t *tx) ReleaseReservation(ctx context.Context, id forge.ID) error {
	res, err := t.exec(ctx, sqlReleaseReservation, id)
	if err != nil {
		return mapError(err, "release reservation")
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return forge.Errorf(forge.ErrNotFound, "quota reservation does not exist [id: %d]", id)
	}
	return nil
}

// sumUsage reads rows of (bucket, bytes) into a Used.
func (t *tx) sumUsage(ctx context.Context, query string, owner forge.ID) (quota.Used, error) {
	var u quota.Used
	rows, err := t.query(ctx, query, owner)
	if err != nil {
		return u, mapError(err, "usage")
	}
	defer rows.Close()
	for rows.Next() {
		var b string
		var n int64
		if err := rows.Scan(&b, &n); err != nil {
			return u, mapError(err, "usage")
		}
		_ = u.Add(quota.Bucket(b), n) // unknown buckets (none are written) are ignored
	}
	return u, mapError(rows.Err(), "usage")
}

// scanGroups reads rows of (group, rule, limit, subjects JSON), ordered by
// group then rule; a group with no rule has one row with rule "".
func (t *tx) scanGroups(ctx context.Context, query string, args ...any) ([]quota.Group, error) {
	rows, err := t.query(ctx, query, args...)
	if err != nil {
		return nil, mapError(err, "quota groups")
	}
	defer rows.Close()
	out := []quota.Group{}
	for rows.Next() {
		var g, r, subjects string
		var lim int64
		if err := rows.Scan(&g, &r, &lim, &subjects); err != nil {
			return nil, mapError(err, "quota groups")
		}
		if len(out) == 0 || out[len(out)-1].Name != g {
			out = append(out, quota.Group{Name: g, Rules: []quota.Rule{}})
		}
		if r == "" {
			continue
		}
		rule, err := ruleOf(r, lim, subjects)
		if err != nil {
			return nil, err
		}
		last := &out[len(out)-1]
		last.Rules = append(last.Rules, rule)
	}
	return out, mapError(rows.Err(), "quota groups")
}

// ruleOf builds a rule from its row and its subjects as a JSON array.
func ruleOf(name string, lim int64, subjects string) (quota.Rule, error) {
	r := quota.Rule{Name: name, Limit: lim}
	var names []string
	if err := json.Unmarshal([]byte(subjects), &names); err != nil {
		return r, mapError(err, "quota rule subjects")
	}
	if len(names) > 0 {
		r.Subjects = make([]quota.Subject, len(names))
		for i, n := range names {
			r.Subjects[i] = quota.Subject(n)
		}
	}
	return r, nil
}

// QuotaGroupsOf implements quota.UsageTx.
func (t *tx) QuotaGroupsOf(ctx context.Context, owner forge.ID) ([]quota.Group, error) {
	return t.scanGroups(ctx, sqlGroupsOf, owner)
}

// QuotaGroupsNamed implements quota.UsageTx.
func (t *tx) QuotaGroupsNamed(ctx context.Context, names []string) ([]quota.Group, error) {
	if names == nil {
		names = []string{}
	}
	b, _ := json.Marshal(names) // strings: cannot fail
	return t.scanGroups(ctx, sqlGroupsNamed, string(b))
}
