package sqlstore

import (
	"context"
	"strings"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/sshkeys"
)

// SSHKeys returns the store package forge/sshkeys consumes.
func (db *DB) SSHKeys() sshkeys.Store {
	return storeOf(db, func(t *tx) sshkeys.Tx { return sshKeyTx{t} })
}

// sshKeyTx is the transaction as sshkeys.Tx.
type sshKeyTx struct{ *tx }

var _ sshkeys.Tx = sshKeyTx{}

const (
	keyCols    = "id, coalesce(owner_id, 0), name, fingerprint, content, mode, type, created_unix, updated_unix"
	deployCols = "d.id, d.key_id, d.repo_id, d.name, k.fingerprint, k.content, d.mode, d.created_unix, d.updated_unix"
)

var (
	sqlCreateKey = prepared(`INSERT INTO public_key (owner_id, name, fingerprint, content, mode, type, created_unix, updated_unix)
		VALUES (nullif(CAST(? AS BIGINT), 0), ?, ?, ?, ?, ?, ?, ?) RETURNING id`)
	sqlKeyByID          = prepared("SELECT " + keyCols + " FROM public_key WHERE id = ?")
	sqlKeyByFingerprint = prepared("SELECT " + keyCols + " FROM public_key WHERE fingerprint = ?")
	sqlDeleteKey        = prepared("DELETE FROM public_key WHERE id = ?")
	sqlCreateDeployKey  = prepared(`INSERT INTO deploy_key (key_id, repo_id, name, mode, created_unix, updated_unix)
		VALUES (?, ?, ?, ?, ?, ?) RETURNING id`)
	sqlDeployKeyByID   = prepared("SELECT " + deployCols + " FROM deploy_key d JOIN public_key k ON k.id = d.key_id WHERE d.id = ?")
	sqlDeleteDeployKey = prepared("DELETE FROM deploy_key WHERE id = ?")
)

func (t sshKeyTx) CreateKey(ctx context.Context, k *sshkeys.Key) error {
	var id forge.ID
	err := t.queryRow(ctx, sqlCreateKey, k.OwnerID, k.Name, k.Fingerprint, k.Content, int(k.Mode), string(k.Type),
		toUnix(k.Created), toUnix(k.Updated)).Scan(&id)
	if err != nil {
		return mapError(err, "public key")
	}
	k.ID = id
	return nil
}

func (t sshKeyTx) KeyByID(ctx context.Context, id forge.ID) (*sshkeys.Key, error) {
	return t.oneKey(ctx, sqlKeyByID, id)
}

func (t sshKeyTx) KeyByFingerprint(ctx context.Context, fp string) (*sshkeys.Key, error) {
	return t.oneKey(ctx, sqlKeyByFingerprint, fp)
}

func (t sshKeyTx) oneKey(ctx context.Context, query string, arg any) (*sshkeys.Key, error) {
	list, err := t.scanKeys(ctx, query, arg)
	if err != nil {
		return nil, err
	}
	if len(list) == 0 {
		return nil, forge.Errorf(forge.ErrNotFound, "public key: not found")
	}
	return list[0], nil
}

func (t sshKeyTx) DeleteKey(ctx context.Context, id forge.ID) error {
	return t.deleteOne(ctx, sqlDeleteKey, id, "public key")
}

func (t sshKeyTx) deleteOne(ctx context.Context, query string, id forge.ID, what string) error {
	res, err := t.exec(ctx, query, id)
	if err != nil {
		return mapError(err, what)
	}
	if n, err := res.RowsAffected(); err != nil {
		return mapError(err, what)
	} else if n == 0 {
		return forge.Errorf(forge.ErrNotFound, "%s: not found", what)
	}
	return nil
}

func (t sshKeyTx) ListKeys(ctx context.Context, f sshkeys.KeyFilter, o forge.ListOptions) ([]*sshkeys.Key, int64, error) {
	where, args := []string{"1 = 1"}, []any{}
	if f.OwnerID != 0 {
		where, args = append(where, "owner_id = ?"), append(args, f.OwnerID)
	}
	if f.Fingerprint != "" {
		where, args = append(where, "fingerprint = ?"), append(args, f.Fingerprint)
	}
	if f.Name != "" {
		where, args = append(where, "name = ?"), append(args, f.Name)
	}
	if f.Type != "" {
		where, args = append(where, "type = ?"), append(args, string(f.Type))
	}
	cond := strings.Join(where, " AND ")
	var total int64
	if err := t.queryRow(ctx, "SELECT count(*) FROM public_key WHERE "+cond, args...).Scan(&total); err != nil {
		return nil, 0, mapError(err, "public key")
	}
	if o.Limit == 0 {
		return []*sshkeys.Key{}, total, nil
	}
	list, err := t.scanKeys(ctx, "SELECT "+keyCols+" FROM public_key WHERE "+cond+" ORDER BY id LIMIT ? OFFSET ?",
		append(args, limitAll(o.Limit), o.Offset())...)
	return list, total, err
}

func (t sshKeyTx) scanKeys(ctx context.Context, query string, args ...any) ([]*sshkeys.Key, error) {
	rows, err := t.query(ctx, query, args...)
	if err != nil {
		return nil, mapError(err, "public key")
	}
	defer rows.Close()
	list := []*sshkeys.Key{}
	for rows.Next() {
		k := &sshkeys.Key{}
		var mode int
		var typ string
		var created, updated int64
		if err := rows.Scan(&k.ID, &k.OwnerID, &k.Name, &k.Fingerprint, &k.Content, &mode, &typ, &created, &updated); err != nil {
			return nil, mapError(err, "public key")
		}
		k.Mode, k.Type, k.Created, k.Updated = forge.AccessMode(mode), sshkeys.Type(typ), fromUnix(created), fromUnix(updated)
		list = append(list, k)
	}
	return list, mapError(rows.Err(), "public key")
}

func (t sshKeyTx) CreateDeployKey(ctx context.Context, d *sshkeys.DeployKey) error {
	var id forge.ID
	err := t.queryRow(ctx, sqlCreateDeployKey, d.KeyID, d.RepoID, d.Name, int(d.Mode), toUnix(d.Created), toUnix(d.Updated)).Scan(&id)
	if err != nil {
		return mapError(err, "deploy key")
	}
	d.ID = id
	return nil
}

func (t sshKeyTx) DeployKeyByID(ctx context.Context, id forge.ID) (*sshkeys.DeployKey, error) {
	list, err := t.scanDeployKeys(ctx, sqlDeployKeyByID, id)
	if err != nil {
		return nil, err
	}
	if len(list) == 0 {
		return nil, forge.Errorf(forge.ErrNotFound, "deploy key: not found")
	}
	return list[0], nil
}

func (t sshKeyTx) DeleteDeployKey(ctx context.Context, id forge.ID) error {
	return t.deleteOne(ctx, sqlDeleteDeployKey, id, "deploy key")
}

func (t sshKeyTx) ListDeployKeys(ctx context.Context, f sshkeys.DeployFilter, o forge.ListOptions) ([]*sshkeys.DeployKey, int64, error) {
	where, args := []string{"1 = 1"}, []any{}
	if f.RepoID != 0 {
		where, args = append(where, "d.repo_id = ?"), append(args, f.RepoID)
	}
	if f.KeyID != 0 {
		where, args = append(where, "d.key_id = ?"), append(args, f.KeyID)
	}
	if f.Fingerprint != "" {
		where, args = append(where, "k.fingerprint = ?"), append(args, f.Fingerprint)
	}
	if f.Name != "" {
		where, args = append(where, "d.name = ?"), append(args, f.Name)
	}
	cond := strings.Join(where, " AND ")
	from := " FROM deploy_key d JOIN public_key k ON k.id = d.key_id WHERE "
	var total int64
	if err := t.queryRow(ctx, "SELECT count(*)"+from+cond, args...).Scan(&total); err != nil {
		return nil, 0, mapError(err, "deploy key")
	}
	if o.Limit == 0 {
		return []*sshkeys.DeployKey{}, total, nil
	}
	list, err := t.scanDeployKeys(ctx, "SELECT "+deployCols+from+cond+" ORDER BY d.id LIMIT ? OFFSET ?",
		append(args, limitAll(o.Limit), o.Offset())...)
	return list, total, err
}

func (t sshKeyTx) scanDeployKeys(ctx context.Context, query string, args ...any) ([]*sshkeys.DeployKey, error) {
	rows, err := t.query(ctx, query, args...)
	if err != nil {
		return nil, mapError(err, "deploy key")
	}
	defer rows.Close()
	list := []*sshkeys.DeployKey{}
	for rows.Next() {
		d := &sshkeys.DeployKey{}
		var mode int
		var created, updated int64
		if err := rows.Scan(&d.ID, &d.KeyID, &d.RepoID, &d.Name, &d.Fingerprint, &d.Content, &mode, &created, &updated); err != nil {
			return nil, mapError(err, "deploy key")
		}
		d.Mode, d.Created, d.Updated = forge.AccessMode(mode), fromUnix(created), fromUnix(updated)
		list = append(list, d)
	}
	return list, mapError(rows.Err(), "deploy key")
}
