package sqlstore

import (
	"context"
	"encoding/json"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

// The batch reads take their ids as one JSON array parameter (json_each),
// so that each is one prepared statement whatever the number of ids.
var (
	sqlUsersByID   = prepared("SELECT " + userCols + " FROM users u WHERE u.id IN (SELECT CAST(value AS BIGINT) FROM json_each(?))")
	sqlReposByID   = prepared("SELECT " + repoCols + " FROM repository r WHERE r.id IN (SELECT CAST(value AS BIGINT) FROM json_each(?))")
	sqlCollabModes = prepared(`SELECT repo_id, mode FROM collaboration
		WHERE user_id = ? AND repo_id IN (SELECT CAST(value AS BIGINT) FROM json_each(?))`)
	sqlTransfers = prepared(`SELECT repo_id, doer_id, recipient_id, created_unix FROM repo_transfer
		WHERE repo_id IN (SELECT CAST(value AS BIGINT) FROM json_each(?))`)
)

// idList is ids as the JSON array json_each reads.
func idList(ids []forge.ID) string {
	if ids == nil {
		ids = []forge.ID{}
	}
	b, _ := json.Marshal(ids) // integers: cannot fail
	return string(b)
}

func (t *tx) UsersByID(ctx context.Context, ids []forge.ID) (map[forge.ID]*forge.User, error) {
	out := make(map[forge.ID]*forge.User, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	rows, err := t.query(ctx, sqlUsersByID, idList(ids))
	if err != nil {
		return nil, mapError(err, "users")
	}
	defer rows.Close()
	for rows.Next() {
		u, dest, done := userDest()
		if err := rows.Scan(dest...); err != nil {
			return nil, mapError(err, "users")
		}
		done()
		out[u.ID] = u
	}
	return out, mapError(rows.Err(), "users")
}

func (t *tx) ReposByID(ctx context.Context, ids []forge.ID) (map[forge.ID]*forge.Repository, error) {
	out := make(map[forge.ID]*forge.Repository, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	rows, err := t.query(ctx, sqlReposByID, idList(ids))
	if err != nil {
		return nil, mapError(err, "repositories")
	}
	defer rows.Close()
	for rows.Next() {
		r, dest, done := repoDest()
		if err := rows.Scan(dest...); err != nil {
			return nil, mapError(err, "repositories")
		}
		if err := done(); err != nil {
			return nil, err
		}
		out[r.ID] = r
	}
	return out, mapError(rows.Err(), "repositories")
}

func (t *tx) CollaboratorModes(ctx context.Context, userID forge.ID, repoIDs []forge.ID) (map[forge.ID]forge.AccessMode, error) {
	out := map[forge.ID]forge.AccessMode{}
	if len(repoIDs) == 0 {
		return out, nil
	}
	rows, err := t.query(ctx, sqlCollabModes, userID, idList(repoIDs))
	if err != nil {
		return nil, mapError(err, "collaborators")
	}
	defer rows.Close()
	for rows.Next() {
		var id forge.ID
		var m int
		if err := rows.Scan(&id, &m); err != nil {
			return nil, mapError(err, "collaborators")
		}
		out[id] = forge.AccessMode(m)
	}
	return out, mapError(rows.Err(), "collaborators")
}

func (t *tx) Transfers(ctx context.Context, repoIDs []forge.ID) (map[forge.ID]*repos.Transfer, error) {
	out := map[forge.ID]*repos.Transfer{}
	if len(repoIDs) == 0 {
		return out, nil
	}
	rows, err := t.query(ctx, sqlTransfers, idList(repoIDs))
	if err != nil {
		return nil, mapError(err, "repository transfers")
	}
	defer rows.Close()
	for rows.Next() {
		tr := &repos.Transfer{Doer: &forge.User{}, Recipient: &forge.User{}}
		var created int64
		if err := rows.Scan(&tr.RepoID, &tr.Doer.ID, &tr.Recipient.ID, &created); err != nil {
			return nil, mapError(err, "repository transfers")
		}
		tr.Created = fromUnix(created)
		out[tr.RepoID] = tr
	}
	if err := rows.Err(); err != nil {
		return nil, mapError(err, "repository transfers")
	}
	rows.Close()
	if err := t.transferTeams(ctx, out); err != nil {
		return nil, err
	}
	return out, nil
}
