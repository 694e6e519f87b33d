package sqlstore

import (
	"context"
	"strings"
	"time"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/hooks"
)

// Hooks returns the store package forge/hooks consumes.
func (db *DB) Hooks() hooks.Store { return storeOf(db, func(t *tx) hooks.Tx { return hookTx{t} }) }

// hookTx is a transaction seen as a hooks.Tx: its own type, so that the
// names of hooks.Tx (Task, CreateTask…) never collide with another
// domain's on *tx.
type hookTx struct{ *tx }

var _ hooks.Tx = hookTx{}

const hookCols = `id, coalesce(repo_id, 0), coalesce(owner_id, 0), is_system, type, url, content_type, http_method,
	secret, events, branch_filter, authorization_header, is_active, created_unix, updated_unix`

var (
	sqlCreateHook = prepared(`INSERT INTO webhook (repo_id, owner_id, is_system, type, url, content_type, http_method,
		secret, events, branch_filter, authorization_header, is_active, created_unix, updated_unix)
		VALUES (nullif(?, 0), nullif(?, 0), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`)
	sqlUpdateHook = prepared(`UPDATE webhook SET is_system = ?, type = ?, url = ?, content_type = ?, http_method = ?,
		secret = ?, events = ?, branch_filter = ?, authorization_header = ?, is_active = ?, created_unix = ?,
		updated_unix = ? WHERE id = ?`)
	sqlHook       = prepared(`SELECT ` + hookCols + ` FROM webhook WHERE id = ?`)
	sqlDeleteHook = prepared(`DELETE FROM webhook WHERE id = ?`)
	sqlHookMeta   = prepared(`SELECT key, value FROM webhook_meta WHERE hook_id = ?`)
	sqlAddMeta    = prepared(`INSERT INTO webhook_meta (hook_id, key, value) VALUES (?, ?, ?)`)
	sqlClearMeta  = prepared(`DELETE FROM webhook_meta WHERE hook_id = ?`)
	sqlCreateTask = prepared(`INSERT INTO hook_task (hook_id, uuid, event, event_type, payload, attempts, is_delivered,
		is_succeed, next_attempt_unix, response_status, response_body, created_unix, delivered_unix)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`)
	sqlUpdateTask = prepared(`UPDATE hook_task SET hook_id = ?, uuid = ?, event = ?, event_type = ?, payload = ?,
		attempts = ?, is_delivered = ?, is_succeed = ?, next_attempt_unix = ?, response_status = ?, response_body = ?,
		created_unix = ?, delivered_unix = ? WHERE id = ?`)
	sqlTask       = prepared(`SELECT ` + taskCols + ` FROM hook_task WHERE id = ?`)
	sqlDueTasks   = prepared(`SELECT ` + taskCols + ` FROM hook_task WHERE NOT is_delivered AND next_attempt_unix <= ? ORDER BY next_attempt_unix, id LIMIT ?`)
	sqlListTasks  = prepared(`SELECT ` + taskCols + ` FROM hook_task WHERE hook_id = ? ORDER BY id DESC LIMIT ? OFFSET ?`)
	sqlCountTasks = prepared(`SELECT count(*) FROM hook_task WHERE hook_id = ?`)
)

const taskCols = `id, hook_id, uuid, event, event_type, payload, attempts, is_delivered, is_succeed, next_attempt_unix,
	response_status, response_body, created_unix, delivered_unix`

func (t hookTx) CreateHook(ctx context.Context, h *hooks.Hook) error {
	err := t.queryRow(ctx, sqlCreateHook, h.RepoID, h.OwnerID, h.IsSystem, string(h.Type), h.URL, string(h.ContentType),
		h.HTTPMethod, h.Secret, strings.Join(h.Events, ","), h.BranchFilter, h.AuthorizationHeader, h.Active,
		toUnix(h.Created), toUnix(h.Updated)).Scan(&h.ID)
	if err != nil {
		return mapError(err, "create hook")
	}
	return t.writeMeta(ctx, h)
}

func (t hookTx) writeMeta(ctx context.Context, h *hooks.Hook) error {
	if _, err := t.exec(ctx, sqlClearMeta, h.ID); err != nil {
		return mapError(err, "hook settings")
	}
	for k, v := range h.Meta {
		if _, err := t.exec(ctx, sqlAddMeta, h.ID, k, v); err != nil {
			return mapError(err, "hook settings")
		}
	}
	return nil
}

type hookScan struct {
	h              hooks.Hook
	typ, ct, evs   string
	created, updtd int64
}

func (s *hookScan) dest() []any {
	h := &s.h
	return []any{&h.ID, &h.RepoID, &h.OwnerID, &h.IsSystem, &s.typ, &h.URL, &s.ct, &h.HTTPMethod, &h.Secret, &s.evs,
		&h.BranchFilter, &h.AuthorizationHeader, &h.Active, &s.created, &s.updtd}
}

func (s *hookScan) hook() *hooks.Hook {
	h := s.h
	h.Type, h.ContentType = hooks.Type(s.typ), hooks.ContentType(s.ct)
	h.Events = strings.Split(s.evs, ",")
	h.Created, h.Updated = fromUnix(s.created), fromUnix(s.updtd)
	h.Meta = map[string]string{}
	return &h
}

func (t hookTx) meta(ctx context.Context, h *hooks.Hook) error {
	rows, err := t.query(ctx, sqlHookMeta, h.ID)
	if err != nil {
		return mapError(err, "hook settings")
	}
	defer rows.Close()
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			return mapError(err, "hook settings")
		}
		h.Meta[k] = v
	}
	return mapError(rows.Err(), "hook settings")
}

func (t hookTx) Hook(ctx context.Context, id forge.ID) (*hooks.Hook, error) {
	var s hookScan
	if err := t.queryRow(ctx, sqlHook, id).Scan(s.dest()...); err != nil {
		return nil, mapError(err, "hook")
	}
	h := s.hook()
	return h, t.meta(ctx, h)
}

func (t hookTx) UpdateHook(ctx context.Context, h *hooks.Hook) error {
	res, err := t.exec(ctx, sqlUpdateHook, h.IsSystem, string(h.Type), h.URL, string(h.ContentType), h.HTTPMethod,
		h.Secret, strings.Join(h.Events, ","), h.BranchFilter, h.AuthorizationHeader, h.Active, toUnix(h.Created),
		toUnix(h.Updated), h.ID)
	if err := affectedOne(res, err, "update hook"); err != nil {
		return err
	}
	return t.writeMeta(ctx, h)
}

// DeleteHook implements hooks.Tx; settings and tasks go with it (foreign
// keys).
func (t hookTx) DeleteHook(ctx context.Context, id forge.ID) error {
	res, err := t.exec(ctx, sqlDeleteHook, id)
	return affectedOne(res, err, "delete hook")
}

func (t hookTx) ListHooks(ctx context.Context, f hooks.Filter, o forge.ListOptions) ([]*hooks.Hook, int64, error) {
	var where string
	var args []any
	switch {
	case f.RepoID != 0 || f.OwnerID != 0:
		where, args = "coalesce(repo_id, 0) = ? AND coalesce(owner_id, 0) = ?", []any{f.RepoID, f.OwnerID}
	default:
		where, args = "repo_id IS NULL AND owner_id IS NULL AND is_system = ?", []any{f.System}
	}
	if f.ActiveOnly {
		where += " AND is_active"
	}
	var total int64
	if err := t.queryRow(ctx, "SELECT count(*) FROM webhook WHERE "+where, args...).Scan(&total); err != nil {
		return nil, 0, mapError(err, "list hooks")
	}
	q := "SELECT " + hookCols + " FROM webhook WHERE " + where + " ORDER BY id"
	if o.Limit >= 0 {
		// All (a negative limit) has no LIMIT: PostgreSQL refuses LIMIT -1.
		o = o.Normalize()
		q += " LIMIT ? OFFSET ?"
		args = append(args, o.Limit, o.Offset())
	}
	rows, err := t.query(ctx, q, args...)
	if err != nil {
		return nil, 0, mapError(err, "list hooks")
	}
	list := []*hooks.Hook{}
	for rows.Next() {
		var s hookScan
		if err := rows.Scan(s.dest()...); err != nil {
			rows.Close()
			return nil, 0, mapError(err, "list hooks")
		}
		list = append(list, s.hook())
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, 0, mapError(err, "list hooks")
	}
	for _, h := range list {
		if err := t.meta(ctx, h); err != nil {
			return nil, 0, err
		}
	}
	return list, total, nil
}

type taskScan struct {
	k                    hooks.Task
	next, created, deliv int64
}

func (s *taskScan) dest() []any {
	k := &s.k
	return []any{&k.ID, &k.HookID, &k.UUID, &k.Event, &k.EventType, &k.Payload, &k.Attempts, &k.Delivered, &k.Succeeded,
		&s.next, &k.ResponseStatus, &k.ResponseBody, &s.created, &s.deliv}
}

func (s *taskScan) task() *hooks.Task {
	k := s.k
	k.NextAttempt, k.Created, k.DeliveredAt = fromUnix(s.next), fromUnix(s.created), fromUnix(s.deliv)
	return &k
}

func (t hookTx) CreateTask(ctx context.Context, k *hooks.Task) error {
	err := t.queryRow(ctx, sqlCreateTask, k.HookID, k.UUID, k.Event, k.EventType, k.Payload, k.Attempts, k.Delivered,
		k.Succeeded, toUnix(k.NextAttempt), k.ResponseStatus, k.ResponseBody, toUnix(k.Created), toUnix(k.DeliveredAt)).Scan(&k.ID)
	return mapError(err, "create hook task")
}

func (t hookTx) Task(ctx context.Context, id forge.ID) (*hooks.Task, error) {
	var s taskScan
	if err := t.queryRow(ctx, sqlTask, id).Scan(s.dest()...); err != nil {
		return nil, mapError(err, "hook task")
	}
	return s.task(), nil
}

func (t hookTx) UpdateTask(ctx context.Context, k *hooks.Task) error {
	res, err := t.exec(ctx, sqlUpdateTask, k.HookID, k.UUID, k.Event, k.EventType, k.Payload, k.Attempts, k.Delivered,
		k.Succeeded, toUnix(k.NextAttempt), k.ResponseStatus, k.ResponseBody, toUnix(k.Created), toUnix(k.DeliveredAt), k.ID)
	return affectedOne(res, err, "update hook task")
}

func (t hookTx) tasks(ctx context.Context, q string, args ...any) ([]*hooks.Task, error) {
	rows, err := t.query(ctx, q, args...)
	if err != nil {
		return nil, mapError(err, "hook tasks")
	}
	defer rows.Close()
	list := []*hooks.Task{}
	for rows.Next() {
		var s taskScan
		if err := rows.Scan(s.dest()...); err != nil {
			return nil, mapError(err, "hook tasks")
		}
		list = append(list, s.task())
	}
	return list, mapError(rows.Err(), "hook tasks")
}

// DueTasks in a write transaction locks the rows it returns, skipping rows
// another server's transaction holds (Dialect.SkipLocked), so that servers
// claiming at once take different tasks.
func (t hookTx) DueTasks(ctx context.Context, now time.Time, limit int) ([]*hooks.Task, error) {
	q := sqlDueTasks
	if !t.readOnly {
		q += t.db.d.SkipLocked
	}
	return t.tasks(ctx, q, toUnix(now), limit)
}

func (t hookTx) ListTasks(ctx context.Context, hookID forge.ID, o forge.ListOptions) ([]*hooks.Task, int64, error) {
	var total int64
	if err := t.queryRow(ctx, sqlCountTasks, hookID).Scan(&total); err != nil {
		return nil, 0, mapError(err, "hook tasks")
	}
	o = o.Normalize()
	list, err := t.tasks(ctx, sqlListTasks, hookID, o.Limit, o.Offset())
	return list, total, err
}
