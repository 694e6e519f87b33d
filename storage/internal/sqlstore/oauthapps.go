package sqlstore

import (
	"context"
	"encoding/json"

	"github.com/hearthforge/hearth/auth/oauthapps"
	"github.com/hearthforge/hearth/forge"
)

// OAuthApps returns the store package auth/oauthapps consumes.
func (db *DB) OAuthApps() oauthapps.Store {
	return storeOf(db, func(t *tx) oauthapps.Tx { return oauthAppTx{t} })
}

// oauthAppTx is the transaction as oauthapps.Tx.
type oauthAppTx struct{ *tx }

var _ oauthapps.Tx = oauthAppTx{}

const oauthAppCols = "id, uid, name, client_id, client_secret_hash, redirect_uris, confidential_client, created_unix, updated_unix"

var (
	sqlCreateOAuthApp = prepared(`INSERT INTO oauth2_application (uid, name, client_id, client_secret_hash, redirect_uris,
		confidential_client, created_unix, updated_unix) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`)
	sqlUpdateOAuthApp = prepared(`UPDATE oauth2_application SET name = ?, redirect_uris = ?, confidential_client = ?,
		client_secret_hash = ?, updated_unix = ? WHERE id = ?`)
	sqlOAuthAppByID       = prepared("SELECT " + oauthAppCols + " FROM oauth2_application WHERE id = ?")
	sqlOAuthAppByClientID = prepared("SELECT " + oauthAppCols + " FROM oauth2_application WHERE client_id = ?")
	sqlCountOAuthApps     = prepared("SELECT count(*) FROM oauth2_application WHERE uid = ?")
	sqlListOAuthApps      = prepared("SELECT " + oauthAppCols + " FROM oauth2_application WHERE uid = ? ORDER BY id LIMIT ? OFFSET ?")
	sqlDeleteOAuthApp     = prepared("DELETE FROM oauth2_application WHERE id = ?")
)

// boolInt is b as the 0 or 1 of an INTEGER column.
func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// redirectList is the stored form of a list of redirect URIs: a JSON
// array of strings.
func redirectList(uris []string) string {
	if uris == nil {
		uris = []string{}
	}
	b, _ := json.Marshal(uris) // strings: cannot fail
	return string(b)
}

func (t oauthAppTx) CreateApp(ctx context.Context, a *oauthapps.App) error {
	err := t.queryRow(ctx, sqlCreateOAuthApp, a.UserID, a.Name, a.ClientID, a.SecretHash, redirectList(a.RedirectURIs),
		boolInt(a.Confidential), toUnix(a.Created), toUnix(a.Updated)).Scan(&a.ID)
	return mapError(err, "oauth2 application")
}

func (t oauthAppTx) UpdateApp(ctx context.Context, a *oauthapps.App) error {
	res, err := t.exec(ctx, sqlUpdateOAuthApp, a.Name, redirectList(a.RedirectURIs), boolInt(a.Confidential), a.SecretHash,
		toUnix(a.Updated), a.ID)
	return affectedOne(res, err, "oauth2 application")
}

func (t oauthAppTx) AppByID(ctx context.Context, id forge.ID) (*oauthapps.App, error) {
	return t.one(ctx, sqlOAuthAppByID, id)
}

func (t oauthAppTx) AppByClientID(ctx context.Context, clientID string) (*oauthapps.App, error) {
	return t.one(ctx, sqlOAuthAppByClientID, clientID)
}

func (t oauthAppTx) ListApps(ctx context.Context, userID forge.ID, o forge.ListOptions) ([]*oauthapps.App, int64, error) {
	var n int64
	if err := t.queryRow(ctx, sqlCountOAuthApps, userID).Scan(&n); err != nil {
		return nil, 0, mapError(err, "oauth2 application")
	}
	list, err := queryAll(ctx, t, scanOAuthApp, "oauth2 application", sqlListOAuthApps, userID, limitAll(o.Limit), o.Offset())
	return list, n, err
}

func (t oauthAppTx) DeleteApp(ctx context.Context, id forge.ID) error {
	res, err := t.exec(ctx, sqlDeleteOAuthApp, id)
	return affectedOne(res, err, "oauth2 application")
}

// one returns the application query selects: forge.ErrNotFound if none.
func (t oauthAppTx) one(ctx context.Context, query string, arg any) (*oauthapps.App, error) {
	list, err := queryAll(ctx, t, scanOAuthApp, "oauth2 application", query, arg)
	if err != nil {
		return nil, err
	}
	if len(list) == 0 {
		return nil, forge.Errorf(forge.ErrNotFound, "oauth2 application: not found")
	}
	return list[0], nil
}

// scanOAuthApp reads a row of oauthAppCols.
func scanOAuthApp(r rowScanner) (*oauthapps.App, error) {
	a := &oauthapps.App{}
	var uris string
	var confidential, created, updated int64
	if err := r.Scan(&a.ID, &a.UserID, &a.Name, &a.ClientID, &a.SecretHash, &uris, &confidential, &created, &updated); err != nil {
		return nil, err
	}
	if err := json.Unmarshal([]byte(uris), &a.RedirectURIs); err != nil {
		return nil, forge.Errorf(forge.ErrInvalid, "oauth2 application %d: redirect_uris: %v", a.ID, err)
	}
	a.Confidential, a.Created, a.Updated = confidential != 0, fromUnix(created), fromUnix(updated)
	return a, nil
}
