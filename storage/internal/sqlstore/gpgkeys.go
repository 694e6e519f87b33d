package sqlstore

import (
	"context"
	"encoding/json"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/gpgkeys"
)

// GPGKeys returns the store package forge/gpgkeys consumes.
func (db *DB) GPGKeys() gpgkeys.Store {
	return storeOf(db, func(t *tx) gpgkeys.Tx { return gpgKeyTx{t} })
}

// gpgKeyTx is the transaction as gpgkeys.Tx.
type gpgKeyTx struct{ *tx }

var _ gpgkeys.Tx = gpgKeyTx{}

const gpgKeyCols = `id, owner_id, key_id, primary_key_id, content, armored, created_unix, expired_unix, added_unix,
	emails, verified, can_sign, can_encrypt_comms, can_encrypt_storage, can_certify`

var (
	sqlGPGKeyIDUsed = prepared(`SELECT count(*) FROM gpg_key WHERE key_id = ?`)
	sqlAddGPGKey    = prepared(`INSERT INTO gpg_key (owner_id, key_id, primary_key_id, content, armored, created_unix,
		expired_unix, added_unix, emails, verified, can_sign, can_encrypt_comms, can_encrypt_storage, can_certify)
		VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?) RETURNING id`)
	sqlGPGKeyByID      = prepared(`SELECT ` + gpgKeyCols + ` FROM gpg_key WHERE owner_id = ? AND id = ?`)
	sqlGPGKeyByKeyID   = prepared(`SELECT ` + gpgKeyCols + ` FROM gpg_key WHERE owner_id = ? AND key_id = ? AND primary_key_id = ''`)
	sqlGPGSubKeys      = prepared(`SELECT ` + gpgKeyCols + ` FROM gpg_key WHERE primary_key_id IN (SELECT value FROM json_each(?)) ORDER BY id`)
	sqlCountGPGKeys    = prepared(`SELECT count(*) FROM gpg_key WHERE owner_id = ? AND primary_key_id = ''`)
	sqlListGPGKeys     = prepared(`SELECT ` + gpgKeyCols + ` FROM gpg_key WHERE owner_id = ? AND primary_key_id = '' ORDER BY id LIMIT ? OFFSET ?`)
	sqlVerifyGPGKey    = prepared(`UPDATE gpg_key SET verified = 1 WHERE id = ?`)
	sqlDeleteGPGKey    = prepared(`DELETE FROM gpg_key WHERE id = ?`)
	sqlDeleteGPGSubKey = prepared(`DELETE FROM gpg_key WHERE primary_key_id = ? AND primary_key_id <> ''`)
	sqlGPGKeyKind      = prepared(`SELECT key_id, primary_key_id FROM gpg_key WHERE id = ?`)
)

func (t gpgKeyTx) KeyIDUsed(ctx context.Context, keyID string) (bool, error) {
	var n int64
	if err := t.queryRow(ctx, sqlGPGKeyIDUsed, keyID).Scan(&n); err != nil {
		return false, mapError(err, "gpg key")
	}
	return n > 0, nil
}

func (t gpgKeyTx) CreateKey(ctx context.Context, k *gpgkeys.Key) error {
	if err := t.insertGPGKey(ctx, k); err != nil {
		return err
	}
	for _, s := range k.SubKeys {
		s.OwnerID, s.PrimaryKeyID = k.OwnerID, k.KeyID
		if err := t.insertGPGKey(ctx, s); err != nil {
			return err
		}
	}
	return nil
}

func (t gpgKeyTx) insertGPGKey(ctx context.Context, k *gpgkeys.Key) error {
	emails, err := json.Marshal(gpgEmailsJSON(k.Emails))
	if err != nil {
		return err
	}
	armored := k.Armored
	if k.PrimaryKeyID != "" {
		armored = ""
	}
	var id forge.ID
	err = t.queryRow(ctx, sqlAddGPGKey, k.OwnerID, k.KeyID, k.PrimaryKeyID, k.Content, armored, toUnix(k.Created),
		toUnix(k.Expires), toUnix(k.Added), string(emails), gpgFlag(k.Verified), gpgFlag(k.CanSign), gpgFlag(k.CanEncryptComms),
		gpgFlag(k.CanEncryptStorage), gpgFlag(k.CanCertify)).Scan(&id)
	if err != nil {
		return mapError(err, "gpg key")
	}
	k.ID = id
	return nil
}

func (t gpgKeyTx) KeyByID(ctx context.Context, ownerID, id forge.ID) (*gpgkeys.Key, error) {
	return t.oneGPGKey(ctx, sqlGPGKeyByID, ownerID, id)
}

func (t gpgKeyTx) KeyByKeyID(ctx context.Context, ownerID forge.ID, keyID string) (*gpgkeys.Key, error) {
	return t.oneGPGKey(ctx, sqlGPGKeyByKeyID, ownerID, keyID)
}

func (t gpgKeyTx) oneGPGKey(ctx context.Context, query string, args ...any) (*gpgkeys.Key, error) {
	list, err := queryAll(ctx, t, scanGPGKey, "gpg key", query, args...)
	if err != nil {
		return nil, err
	}
	if len(list) == 0 {
		return nil, forge.Errorf(forge.ErrNotFound, "gpg key: not found")
	}
	return list[0], t.withSubKeys(ctx, list)
}

func (t gpgKeyTx) ListKeys(ctx context.Context, ownerID forge.ID, o forge.ListOptions) ([]*gpgkeys.Key, int64, error) {
	list, total, err := countedRows(ctx, t.tx, scanGPGKey, "gpg key", sqlCountGPGKeys, []any{ownerID},
		sqlListGPGKeys, ownerID, limitAll(o.Limit), o.Offset())
	if err != nil {
		return nil, 0, err
	}
	return list, total, t.withSubKeys(ctx, list)
}

// withSubKeys loads the subkeys of the primary keys of list.
func (t gpgKeyTx) withSubKeys(ctx context.Context, list []*gpgkeys.Key) error {
	byKeyID := map[string]*gpgkeys.Key{}
	var ids []string
	for _, k := range list {
		if k.PrimaryKeyID == "" {
			byKeyID[k.KeyID] = k
			ids = append(ids, k.KeyID)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	idsJSON, _ := json.Marshal(ids) // strings: cannot fail
	subs, err := queryAll(ctx, t, scanGPGKey, "gpg key", sqlGPGSubKeys, string(idsJSON))
	if err != nil {
		return err
	}
	for _, s := range subs {
		if p := byKeyID[s.PrimaryKeyID]; p != nil {
			p.SubKeys = append(p.SubKeys, s)
		}
	}
	return nil
}

func (t gpgKeyTx) SetVerified(ctx context.Context, id forge.ID) error {
	res, err := t.exec(ctx, sqlVerifyGPGKey, id)
	return t.gpgAffected(res, err)
}

func (t gpgKeyTx) DeleteKey(ctx context.Context, id forge.ID) error {
	var keyID, primary string
	if err := t.queryRow(ctx, sqlGPGKeyKind, id).Scan(&keyID, &primary); err != nil {
		return mapError(err, "gpg key")
	}
	if primary == "" {
		if _, err := t.exec(ctx, sqlDeleteGPGSubKey, keyID); err != nil {
			return mapError(err, "gpg key")
		}
	}
	res, err := t.exec(ctx, sqlDeleteGPGKey, id)
	return t.gpgAffected(res, err)
}

func (t gpgKeyTx) gpgAffected(res interface{ RowsAffected() (int64, error) }, err error) error {
	if err != nil {
		return mapError(err, "gpg key")
	}
	if n, err := res.RowsAffected(); err != nil {
		return mapError(err, "gpg key")
	} else if n == 0 {
		return forge.Errorf(forge.ErrNotFound, "gpg key: not found")
	}
	return nil
}

// gpgEmail is an e-mail address as the emails column keeps it.
type gpgEmail struct {
	Email    string `json:"email"`
	Verified bool   `json:"verified"`
}

func gpgEmailsJSON(list []gpgkeys.Email) []gpgEmail {
	out := make([]gpgEmail, len(list))
	for i, e := range list {
		out[i] = gpgEmail(e)
	}
	return out
}

// gpgFlag is a boolean as the 0/1 INTEGER columns keep it.
func gpgFlag(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

func scanGPGKey(r rowScanner) (*gpgkeys.Key, error) {
	k := &gpgkeys.Key{}
	var created, expires, added, verified, sign, comms, storage, certify int64
	var emails string
	if err := r.Scan(&k.ID, &k.OwnerID, &k.KeyID, &k.PrimaryKeyID, &k.Content, &k.Armored, &created, &expires, &added,
		&emails, &verified, &sign, &comms, &storage, &certify); err != nil {
		return nil, err
	}
	k.Created, k.Expires, k.Added = fromUnix(created), fromUnix(expires), fromUnix(added)
	k.Verified, k.CanSign, k.CanEncryptComms, k.CanEncryptStorage, k.CanCertify = verified != 0, sign != 0, comms != 0, storage != 0, certify != 0
	var list []gpgEmail
	if err := json.Unmarshal([]byte(emails), &list); err != nil {
		return nil, err
	}
	k.Emails = make([]gpgkeys.Email, len(list))
	for i, e := range list {
		k.Emails[i] = gpgkeys.Email(e)
	}
	return k, nil
}
