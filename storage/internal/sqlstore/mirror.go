package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/mirror"
)

// Mirrors returns the store package mirror consumes.
func (db *DB) Mirrors() mirror.Store {
	return storeOf(db, func(t *tx) mirror.Tx { return mirrorTx{t} })
}

// mirrorTx is a transaction seen as a mirror.Tx.
type mirrorTx struct{ *tx }

var _ mirror.Tx = mirrorTx{}

const mirPullCols = `id, repo_id, remote_address, sealed_creds, interval_ns, enable_prune, lfs, lfs_endpoint,
	updated_unix, next_update_unix, last_error, failures`

const mirPushCols = `id, repo_id, remote_name, remote_address, sealed_creds, public_key, sync_on_commit, interval_ns,
	branch_filter, created_unix, last_update_unix, next_update_unix, last_error, failures`

var (
	sqlMirPullByRepo = prepared(`SELECT ` + mirPullCols + ` FROM mirror WHERE repo_id = ?`)
	sqlMirPullByID   = prepared(`SELECT ` + mirPullCols + ` FROM mirror WHERE id = ?`)
	sqlMirCreatePull = prepared(`INSERT INTO mirror (repo_id, remote_address, sealed_creds, interval_ns, enable_prune, lfs,
		lfs_endpoint, updated_unix, next_update_unix, last_error, failures) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`)
	sqlMirUpdatePull = prepared(`UPDATE mirror SET remote_address = ?, sealed_creds = ?, interval_ns = ?, enable_prune = ?,
		lfs = ?, lfs_endpoint = ?, updated_unix = ?, next_update_unix = ?, last_error = ?, failures = ? WHERE id = ?`)
	sqlMirDeletePull = prepared(`DELETE FROM mirror WHERE repo_id = ? RETURNING id`)
	sqlMirPushList   = prepared(`SELECT ` + mirPushCols + ` FROM push_mirror WHERE repo_id = ? ORDER BY id LIMIT ? OFFSET ?`)
	sqlMirPushCount  = prepared(`SELECT count(*) FROM push_mirror WHERE repo_id = ?`)
	sqlMirPushByName = prepared(`SELECT ` + mirPushCols + ` FROM push_mirror WHERE repo_id = ? AND remote_name = ?`)
	sqlMirPushByID   = prepared(`SELECT ` + mirPushCols + ` FROM push_mirror WHERE id = ?`)
	sqlMirCreatePush = prepared(`INSERT INTO push_mirror (repo_id, remote_name, remote_address, sealed_creds, public_key,
		sync_on_commit, interval_ns, branch_filter, created_unix, last_update_unix, next_update_unix, last_error, failures)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`)
	sqlMirUpdatePush = prepared(`UPDATE push_mirror SET remote_address = ?, sealed_creds = ?, public_key = ?,
		sync_on_commit = ?, interval_ns = ?, branch_filter = ?, last_update_unix = ?, next_update_unix = ?,
		last_error = ?, failures = ? WHERE id = ?`)
	sqlMirDeletePush = prepared(`DELETE FROM push_mirror WHERE repo_id = ? AND remote_name = ? RETURNING id`)
	sqlMirDueMirrors = prepared(`SELECT kind, id, next_update_unix FROM (
		SELECT 'pull' AS kind, m.id AS id, m.next_update_unix AS next_update_unix FROM mirror m
			WHERE m.next_update_unix > 0 AND m.next_update_unix <= ?1
		UNION ALL
		SELECT 'push', p.id, p.next_update_unix FROM push_mirror p JOIN repository r ON r.id = p.repo_id
			WHERE p.next_update_unix > 0 AND p.next_update_unix <= ?1 AND NOT r.is_archived
	) d WHERE NOT EXISTS (SELECT 1 FROM mirror_lease l WHERE l.kind = d.kind AND l.mirror_id = d.id AND l.expires_unix > ?2)
	ORDER BY next_update_unix, kind, id LIMIT ?3`)
	sqlMirClaimLease = prepared(`INSERT INTO mirror_lease (kind, mirror_id, holder, expires_unix) VALUES (?1, ?2, ?3, ?4)
		ON CONFLICT (kind, mirror_id) DO UPDATE SET holder = excluded.holder, expires_unix = excluded.expires_unix
		WHERE mirror_lease.holder = excluded.holder OR mirror_lease.expires_unix <= ?5`)
	// sqlMirRenewLease extends a live lease of the same holder.
	sqlMirRenewLease = prepared(`UPDATE mirror_lease SET expires_unix = ?4
		WHERE kind = ?1 AND mirror_id = ?2 AND holder = ?3 AND expires_unix > ?5`)
	sqlMirReleaseLease  = prepared(`DELETE FROM mirror_lease WHERE kind = ? AND mirror_id = ? AND holder = ?`)
	sqlMirReleaseHolder = prepared(`DELETE FROM mirror_lease WHERE holder = ?`)
	sqlMirDropLease     = prepared(`DELETE FROM mirror_lease WHERE kind = ? AND mirror_id = ?`)
)

type mirPullScan struct {
	m                     mirror.PullMirror
	interval              int64
	updated, next, failed int64
}

func (s *mirPullScan) dest() []any {
	m := &s.m
	return []any{&m.ID, &m.RepoID, &m.RemoteAddress, &m.SealedCreds, &s.interval, &m.EnablePrune, &m.LFS,
		&m.LFSEndpoint, &s.updated, &s.next, &m.LastError, &s.failed}
}

func (s *mirPullScan) mirror() *mirror.PullMirror {
	m := s.m
	m.Interval, m.Updated, m.NextUpdate, m.Failures = time.Duration(s.interval), fromUnix(s.updated), fromUnix(s.next), int(s.failed)
	return &m
}

type mirPushScan struct {
	m                   mirror.PushMirror
	interval, failed    int64
	created, last, next int64
}

func (s *mirPushScan) dest() []any {
	m := &s.m
	return []any{&m.ID, &m.RepoID, &m.RemoteName, &m.RemoteAddress, &m.SealedCreds, &m.PublicKey, &m.SyncOnCommit,
		&s.interval, &m.BranchFilter, &s.created, &s.last, &s.next, &m.LastError, &s.failed}
}

func (s *mirPushScan) mirror() *mirror.PushMirror {
	m := s.m
	m.Interval, m.Failures = time.Duration(s.interval), int(s.failed)
	m.Created, m.LastUpdate, m.NextUpdate = fromUnix(s.created), fromUnix(s.last), fromUnix(s.next)
	return &m
}

func (t mirrorTx) pull(ctx context.Context, q string, arg any) (*mirror.PullMirror, error) {
	var s mirPullScan
	if err := t.queryRow(ctx, q, arg).Scan(s.dest()...); err != nil {
		return nil, mapError(err, "pull mirror")
	}
	return s.mirror(), nil
}

func (t mirrorTx) PullMirrorByRepo(ctx context.Context, repoID forge.ID) (*mirror.PullMirror, error) {
	return t.pull(ctx, sqlMirPullByRepo, repoID)
}

func (t mirrorTx) PullMirrorByID(ctx context.Context, id forge.ID) (*mirror.PullMirror, error) {
	return t.pull(ctx, sqlMirPullByID, id)
}

var (
	sqlMirPullsByRepos = prepared(`SELECT ` + mirPullCols + ` FROM mirror WHERE repo_id IN (SELECT CAST(value AS BIGINT) FROM json_each(?))`)
)

func (t mirrorTx) PullMirrorsByRepo(ctx context.Context, repoIDs []forge.ID) (map[forge.ID]*mirror.PullMirror, error) {
	out := map[forge.ID]*mirror.PullMirror{}
	if len(repoIDs) == 0 {
		return out, nil
	}
	// Registered statements (a query built per length was parsed again
	// on every call): one repository, the hot path of a repository view,
	// or a JSON list of them.
	if len(repoIDs) == 1 {
		if e, ok := t.db.pullMirrors.get(t.tx, repoIDs[0]); ok {
			if e.ok {
				m := e.m
				out[m.RepoID] = &m
			}
			return out, nil
		}
	}
	var rows *sql.Rows
	var err error
	if len(repoIDs) == 1 {
		rows, err = t.query(ctx, sqlMirPullByRepo, repoIDs[0])
	} else {
		rows, err = t.query(ctx, sqlMirPullsByRepos, idList(repoIDs))
	}
	if err != nil {
		return nil, mapError(err, "pull mirrors")
	}
	defer rows.Close()
	for rows.Next() {
		var s mirPullScan
		if err := rows.Scan(s.dest()...); err != nil {
			return nil, mapError(err, "pull mirrors")
		}
		m := s.mirror()
		out[m.RepoID] = m
	}
	if err := rows.Err(); err != nil {
		return nil, mapError(err, "pull mirrors")
	}
	if len(repoIDs) == 1 {
		// A repository view asks for its repository's mirror on every
		// request: kept until the next write (viewcache.go), a copy.
		var e pullMirrorEntry
		if m := out[repoIDs[0]]; m != nil {
			e = pullMirrorEntry{m: *m, ok: true}
		}
		t.db.pullMirrors.put(t.tx, repoIDs[0], e)
	}
	return out, nil
}

// pullMirrorEntry is a repository's pull mirror in DB.pullMirrors; ok is
// false when the repository is no pull mirror.
type pullMirrorEntry struct {
	m  mirror.PullMirror
	ok bool
}

func (t mirrorTx) CreatePullMirror(ctx context.Context, m *mirror.PullMirror) error {
	return t.guarded(ctx, func() error {
		return mapError(t.queryRow(ctx, sqlMirCreatePull, m.RepoID, m.RemoteAddress, m.SealedCreds, int64(m.Interval),
			m.EnablePrune, m.LFS, m.LFSEndpoint, toUnix(m.Updated), toUnix(m.NextUpdate), m.LastError, m.Failures).Scan(&m.ID),
			"pull mirror")
	})
}

func (t mirrorTx) UpdatePullMirror(ctx context.Context, m *mirror.PullMirror) error {
	res, err := t.exec(ctx, sqlMirUpdatePull, m.RemoteAddress, m.SealedCreds, int64(m.Interval), m.EnablePrune, m.LFS,
		m.LFSEndpoint, toUnix(m.Updated), toUnix(m.NextUpdate), m.LastError, m.Failures, m.ID)
	return affectedOne(res, err, "pull mirror")
}

func (t mirrorTx) DeletePullMirror(ctx context.Context, repoID forge.ID) error {
	var id forge.ID
	if err := t.queryRow(ctx, sqlMirDeletePull, repoID).Scan(&id); err != nil {
		return mapError(err, "pull mirror")
	}
	_, err := t.exec(ctx, sqlMirDropLease, string(mirror.KindPull), id)
	return mapError(err, "mirror lease")
}

func (t mirrorTx) PushMirrors(ctx context.Context, repoID forge.ID, o forge.ListOptions) ([]*mirror.PushMirror, int64, error) {
	var n int64
	if err := t.queryRow(ctx, sqlMirPushCount, repoID).Scan(&n); err != nil {
		return nil, 0, mapError(err, "push mirrors")
	}
	rows, err := t.query(ctx, sqlMirPushList, repoID, limitAll(o.Limit), o.Offset())
	if err != nil {
		return nil, 0, mapError(err, "push mirrors")
	}
	defer rows.Close()
	out := []*mirror.PushMirror{}
	for rows.Next() {
		var s mirPushScan
		if err := rows.Scan(s.dest()...); err != nil {
			return nil, 0, mapError(err, "push mirrors")
		}
		out = append(out, s.mirror())
	}
	return out, n, mapError(rows.Err(), "push mirrors")
}

func (t mirrorTx) push(ctx context.Context, q string, args ...any) (*mirror.PushMirror, error) {
	var s mirPushScan
	if err := t.queryRow(ctx, q, args...).Scan(s.dest()...); err != nil {
		return nil, mapError(err, "push mirror")
	}
	return s.mirror(), nil
}

func (t mirrorTx) PushMirrorByName(ctx context.Context, repoID forge.ID, remoteName string) (*mirror.PushMirror, error) {
	return t.push(ctx, sqlMirPushByName, repoID, remoteName)
}

func (t mirrorTx) PushMirrorByID(ctx context.Context, id forge.ID) (*mirror.PushMirror, error) {
	return t.push(ctx, sqlMirPushByID, id)
}

func (t mirrorTx) CreatePushMirror(ctx context.Context, m *mirror.PushMirror) error {
	return t.guarded(ctx, func() error {
		return mapError(t.queryRow(ctx, sqlMirCreatePush, m.RepoID, m.RemoteName, m.RemoteAddress, m.SealedCreds, m.PublicKey,
			m.SyncOnCommit, int64(m.Interval), m.BranchFilter, toUnix(m.Created), toUnix(m.LastUpdate), toUnix(m.NextUpdate),
			m.LastError, m.Failures).Scan(&m.ID), "push mirror")
	})
}

func (t mirrorTx) UpdatePushMirror(ctx context.Context, m *mirror.PushMirror) error {
	res, err := t.exec(ctx, sqlMirUpdatePush, m.RemoteAddress, m.SealedCreds, m.PublicKey, m.SyncOnCommit,
		int64(m.Interval), m.BranchFilter, toUnix(m.LastUpdate), toUnix(m.NextUpdate), m.LastError, m.Failures, m.ID)
	return affectedOne(res, err, "push mirror")
}

func (t mirrorTx) DeletePushMirror(ctx context.Context, repoID forge.ID, remoteName string) error {
	var id forge.ID
	err := t.queryRow(ctx, sqlMirDeletePush, repoID, remoteName).Scan(&id)
	if isNotFound(mapError(err, "push mirror")) {
		return nil
	}
	if err != nil {
		return mapError(err, "push mirror")
	}
	_, err = t.exec(ctx, sqlMirDropLease, string(mirror.KindPush), id)
	return mapError(err, "mirror lease")
}

func (t mirrorTx) DueMirrors(ctx context.Context, before, now time.Time, limit int) ([]mirror.Due, error) {
	rows, err := t.query(ctx, sqlMirDueMirrors, before.Unix(), now.Unix(), limitAll(limit))
	if err != nil {
		return nil, mapError(err, "due mirrors")
	}
	defer rows.Close()
	var out []mirror.Due
	for rows.Next() {
		var kind string
		var d mirror.Due
		var at int64
		if err := rows.Scan(&kind, &d.Key.ID, &at); err != nil {
			return nil, mapError(err, "due mirrors")
		}
		d.Key.Kind, d.At = mirror.Kind(kind), fromUnix(at)
		out = append(out, d)
	}
	return out, mapError(rows.Err(), "due mirrors")
}

// ClaimLease first takes the mirror's row lock where the engine has row
// locks, skipping a row another transaction holds (lockMirror): servers
// claiming the same due list at once then take different mirrors, each
// claim waiting for none, rather than meeting on the lease row, where the
// later of two claims would fail serialization and be rerun.
func (t mirrorTx) ClaimLease(ctx context.Context, l mirror.Lease, now time.Time) (bool, error) {
	// A renewal of a live lease of the same holder is one write of the
	// lease row: it never gives way to the mirror row's lock (another
	// server's claim, a mirror-sync marking the mirror due), which would
	// end a healthy sync as if its lease were lost.
	res, err := t.exec(ctx, sqlMirRenewLease, string(l.Key.Kind), l.Key.ID, l.Holder, toUnix(l.Expires), now.Unix())
	if err != nil {
		return false, mapError(err, "mirror lease")
	}
	if n, err := res.RowsAffected(); err != nil || n == 1 {
		return n == 1, mapError(err, "mirror lease")
	}
	if ok, err := t.lockMirror(ctx, l.Key); !ok || err != nil {
		return false, err
	}
	res, err = t.exec(ctx, sqlMirClaimLease, string(l.Key.Kind), l.Key.ID, l.Holder, toUnix(l.Expires), now.Unix())
	if err != nil {
		return false, mapError(err, "mirror lease")
	}
	n, err := res.RowsAffected()
	return n == 1, mapError(err, "mirror lease")
}

func (t mirrorTx) ReleaseLease(ctx context.Context, k mirror.Key, holder string) error {
	_, err := t.exec(ctx, sqlMirReleaseLease, string(k.Kind), k.ID, holder)
	return mapError(err, "mirror lease")
}

func (t mirrorTx) ReleaseLeases(ctx context.Context, holder string) (int, error) {
	res, err := t.exec(ctx, sqlMirReleaseHolder, holder)
	if err != nil {
		return 0, mapError(err, "mirror lease")
	}
	n, err := res.RowsAffected()
	return int(n), mapError(err, "mirror lease")
}

// lockMirror locks the row of the mirror of k for the transaction with
// the dialect's SkipLocked (PostgreSQL: FOR UPDATE SKIP LOCKED), and
// reports false when another transaction holds it: another server is
// claiming that mirror, or writing it, right now, and this claim gives way
// (the mirror stays due for a later load if it was not claimed). A key
// without a mirror row locks nothing and may be leased as before. On an
// engine without row locks (SQLite, whose one writer serializes the
// claims) it does nothing and reports true.
func (t mirrorTx) lockMirror(ctx context.Context, k mirror.Key) (bool, error) {
	if t.db.d.SkipLocked == "" {
		return true, nil
	}
	var table string
	switch k.Kind {
	case mirror.KindPull:
		table = "mirror"
	case mirror.KindPush:
		table = "push_mirror"
	default:
		return true, nil
	}
	var id forge.ID
	err := t.queryRow(ctx, "SELECT id FROM "+table+" WHERE id = ?"+t.db.d.SkipLocked, k.ID).Scan(&id)
	if !errors.Is(err, sql.ErrNoRows) {
		return err == nil, mapError(err, "mirror lease")
	}
	var exists bool
	err = t.queryRow(ctx, "SELECT EXISTS (SELECT 1 FROM "+table+" WHERE id = ?)", k.ID).Scan(&exists)
	return !exists, mapError(err, "mirror lease")
}
