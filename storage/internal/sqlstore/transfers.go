package sqlstore

import (
	"context"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

var (
	sqlSetTransfer = prepared(`INSERT INTO repo_transfer (repo_id, doer_id, recipient_id, created_unix) VALUES (?,?,?,?)
		ON CONFLICT (repo_id) DO UPDATE SET doer_id = excluded.doer_id, recipient_id = excluded.recipient_id,
		created_unix = excluded.created_unix`)
	sqlTransfer           = prepared(`SELECT doer_id, recipient_id, created_unix FROM repo_transfer WHERE repo_id = ?`)
	sqlDeleteTransfer     = prepared(`DELETE FROM repo_transfer WHERE repo_id = ?`)
	sqlClearTransferTeams = prepared(`DELETE FROM repo_transfer_team WHERE repo_id = ?`)
	sqlAddTransferTeam    = prepared(`INSERT INTO repo_transfer_team (repo_id, pos, team_id) VALUES (?,?,?)`)
	sqlTransferTeams      = prepared(`SELECT repo_id, team_id FROM repo_transfer_team
		WHERE repo_id IN (SELECT CAST(value AS BIGINT) FROM json_each(?)) ORDER BY repo_id, pos`)
	sqlTeamOrgs     = prepared(`SELECT id, org_id FROM team WHERE id IN (SELECT CAST(value AS BIGINT) FROM json_each(?))`)
	sqlRecountForks = prepared(`UPDATE repository SET num_forks = (SELECT count(*) FROM repository f WHERE f.fork_id = ?) WHERE id = ?`)
)

func (t *tx) SetTransfer(ctx context.Context, tr *repos.Transfer) error {
	if _, err := t.exec(ctx, sqlSetTransfer, tr.RepoID, tr.Doer.ID, tr.Recipient.ID, toUnix(tr.Created)); err != nil {
		return mapError(err, "repository transfer")
	}
	if _, err := t.exec(ctx, sqlClearTransferTeams, tr.RepoID); err != nil {
		return mapError(err, "repository transfer")
	}
	for i, id := range tr.TeamIDs {
		if _, err := t.exec(ctx, sqlAddTransferTeam, tr.RepoID, i, id); err != nil {
			return mapError(err, "repository transfer")
		}
	}
	return nil
}

// transferTeams fills the TeamIDs of the transfers of m in one query.
func (t *tx) transferTeams(ctx context.Context, m map[forge.ID]*repos.Transfer) error {
	if len(m) == 0 {
		return nil
	}
	ids := make([]forge.ID, 0, len(m))
	for id := range m {
		ids = append(ids, id)
	}
	rows, err := t.query(ctx, sqlTransferTeams, idList(ids))
	if err != nil {
		return mapError(err, "repository transfer teams")
	}
	defer rows.Close()
	for rows.Next() {
		var repo, team forge.ID
		if err := rows.Scan(&repo, &team); err != nil {
			return mapError(err, "repository transfer teams")
		}
		m[repo].TeamIDs = append(m[repo].TeamIDs, team)
	}
	return mapError(rows.Err(), "repository transfer teams")
}

// TeamOrgs implements repos.Tx.
func (t *tx) TeamOrgs(ctx context.Context, teamIDs []forge.ID) (map[forge.ID]forge.ID, error) {
	out := map[forge.ID]forge.ID{}
	if len(teamIDs) == 0 {
		return out, nil
	}
	rows, err := t.query(ctx, sqlTeamOrgs, idList(teamIDs))
	if err != nil {
		return nil, mapError(err, "teams")
	}
	defer rows.Close()
	for rows.Next() {
		var id, org forge.ID
		if err := rows.Scan(&id, &org); err != nil {
			return nil, mapError(err, "teams")
		}
		out[id] = org
	}
	return out, mapError(rows.Err(), "teams")
}

func (t *tx) Transfer(ctx context.Context, repoID forge.ID) (*repos.Transfer, error) {
	tr := &repos.Transfer{RepoID: repoID, Doer: &forge.User{}, Recipient: &forge.User{}}
	var created int64
	if err := t.queryRow(ctx, sqlTransfer, repoID).Scan(&tr.Doer.ID, &tr.Recipient.ID, &created); err != nil {
		return nil, mapError(err, "repository transfer")
	}
	tr.Created = fromUnix(created)
	if err := t.transferTeams(ctx, map[forge.ID]*repos.Transfer{repoID: tr}); err != nil {
		return nil, err
	}
	return tr, nil
}

func (t *tx) DeleteTransfer(ctx context.Context, repoID forge.ID) error {
	_, err := t.exec(ctx, sqlDeleteTransfer, repoID)
	return mapError(err, "repository transfer")
}

func (t *tx) RecountForks(ctx context.Context, repoID forge.ID) error {
	_, err := t.exec(ctx, sqlRecountForks, repoID, repoID)
	return mapError(err, "forks")
}
