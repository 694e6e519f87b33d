package sqlstore

import (
	"context"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
)

var (
	sqlCreateSource = prepared(`INSERT INTO login_source (type, name, is_active, created_unix, updated_unix)
		VALUES (?,?,?,?,?) RETURNING id`)
	sqlSourceByID = prepared(`SELECT id, type, name, is_active, created_unix, updated_unix
		FROM login_source WHERE id = ?`)
	sqlListSources = prepared(`SELECT id, type, name, is_active, created_unix, updated_unix
		FROM login_source ORDER BY id`)
	sqlTwoFactor = prepared(`SELECT uid, secret, scratch_hash, last_used_passcode, created_unix, updated_unix
		FROM two_factor WHERE uid = ?`)
	sqlPutTwoFactor = prepared(`INSERT INTO two_factor (uid, secret, scratch_hash, last_used_passcode,
		created_unix, updated_unix) VALUES (?,?,?,?,?,?)
		ON CONFLICT (uid) DO UPDATE SET secret = excluded.secret, scratch_hash = excluded.scratch_hash,
		last_used_passcode = excluded.last_used_passcode, updated_unix = excluded.updated_unix`)
	sqlDeleteTwoFactor = prepared(`DELETE FROM two_factor WHERE uid = ?`)
)

func (t *tx) CreateLoginSource(ctx context.Context, s *auth.LoginSource) error {
	err := t.queryRow(ctx, sqlCreateSource, string(s.Type), s.Name, s.IsActive, toUnix(s.Created), toUnix(s.Updated)).Scan(&s.ID)
	return mapError(err, "create login source")
}

func sourceDest() (*auth.LoginSource, []any, func()) {
	s := &auth.LoginSource{}
	var created, updated int64
	return s, []any{&s.ID, &s.Type, &s.Name, &s.IsActive, &created, &updated}, func() {
		s.Created, s.Updated = fromUnix(created), fromUnix(updated)
	}
}

func (t *tx) LoginSourceByID(ctx context.Context, id forge.ID) (*auth.LoginSource, error) {
	s, dest, done := sourceDest()
	if err := t.queryRow(ctx, sqlSourceByID, id).Scan(dest...); err != nil {
		return nil, mapError(err, "login source")
	}
	done()
	return s, nil
}

func (t *tx) ListLoginSources(ctx context.Context) ([]*auth.LoginSource, error) {
	return queryAll(ctx, t, fromDest(sourceDest), "login sources", sqlListSources)
}

func (t *tx) TwoFactor(ctx context.Context, userID forge.ID) (*auth.TwoFactor, error) {
	tf := &auth.TwoFactor{}
	var created, updated int64
	err := t.queryRow(ctx, sqlTwoFactor, userID).Scan(&tf.UserID, &tf.Secret, &tf.ScratchHash,
		&tf.LastUsedPasscode, &created, &updated)
	if err != nil {
		return nil, mapError(err, "two-factor")
	}
	tf.Created, tf.Updated = fromUnix(created), fromUnix(updated)
	return tf, nil
}

func (t *tx) PutTwoFactor(ctx context.Context, tf *auth.TwoFactor) error {
	_, err := t.exec(ctx, sqlPutTwoFactor, tf.UserID, tf.Secret, tf.ScratchHash, tf.LastUsedPasscode,
		toUnix(tf.Created), toUnix(tf.Updated))
	return mapError(err, "two-factor")
}

func (t *tx) DeleteTwoFactor(ctx context.Context, userID forge.ID) error {
	res, err := t.exec(ctx, sqlDeleteTwoFactor, userID)
	return affectedOne(res, err, "two-factor")
}
