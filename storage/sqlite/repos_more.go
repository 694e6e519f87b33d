package sqlite

import (
	"context"
	"encoding/json"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

var (
	sqlSetTransfer = prepared(`INSERT INTO repo_transfer (repo_id, doer_id, recipient_id, created_unix) VALUES (?,?,?,?)
		ON CONFLICT (repo_id) DO UPDATE SET doer_id = excluded.doer_id, recipient_id = excluded.recipient_id,
		created_unix = excluded.created_unix`)
	sqlTransfer       = prepared(`SELECT doer_id, recipient_id, created_unix FROM repo_transfer WHERE repo_id = ?`)
	sqlDeleteTransfer = prepared(`DELETE FROM repo_transfer WHERE repo_id = ?`)
	sqlRecountForks   = prepared(`UPDATE repository SET num_forks = (SELECT count(*) FROM repository f WHERE f.fork_id = ?) WHERE id = ?`)

	sqlCreateTagProtection = prepared(`INSERT INTO protected_tag (repo_id, name_pattern, usernames, teams, created_unix,
		updated_unix) VALUES (?,?,?,?,?,?) RETURNING id`)
	sqlTagProtection = prepared(`SELECT id, repo_id, name_pattern, usernames, teams, created_unix, updated_unix
		FROM protected_tag WHERE repo_id = ? AND id = ?`)
	sqlListTagProtections = prepared(`SELECT id, repo_id, name_pattern, usernames, teams, created_unix, updated_unix
		FROM protected_tag WHERE repo_id = ? ORDER BY id`)
	sqlUpdateTagProtection = prepared(`UPDATE protected_tag SET name_pattern = ?, usernames = ?, teams = ?, updated_unix = ?
		WHERE id = ? AND repo_id = ?`)
	sqlDeleteTagProtection = prepared(`DELETE FROM protected_tag WHERE repo_id = ? AND id = ?`)
)

func (t *tx) SetTransfer(ctx context.Context, tr *repos.Transfer) error {
	_, err := t.exec(ctx, sqlSetTransfer, tr.RepoID, tr.Doer.ID, tr.Recipient.ID, toUnix(tr.Created))
	return mapError(err, "repository transfer")
}

func (t *tx) Transfer(ctx context.Context, repoID forge.ID) (*repos.Transfer, error) {
	tr := &repos.Transfer{RepoID: repoID, Doer: &forge.User{}, Recipient: &forge.User{}}
	var created int64
	if err := t.queryRow(ctx, sqlTransfer, repoID).Scan(&tr.Doer.ID, &tr.Recipient.ID, &created); err != nil {
		return nil, mapError(err, "repository transfer")
	}
	tr.Created = fromUnix(created)
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

func tagProtectionArgs(p *repos.TagProtection) (string, string) {
	users, teams := p.WhitelistUsernames, p.WhitelistTeams
	if users == nil {
		users = []string{}
	}
	if teams == nil {
		teams = []string{}
	}
	u, _ := json.Marshal(users)
	tm, _ := json.Marshal(teams)
	return string(u), string(tm)
}

func (t *tx) CreateTagProtection(ctx context.Context, p *repos.TagProtection) error {
	u, tm := tagProtectionArgs(p)
	return mapError(t.queryRow(ctx, sqlCreateTagProtection, p.RepoID, p.NamePattern, u, tm, toUnix(p.Created),
		toUnix(p.Updated)).Scan(&p.ID), "tag protection")
}

func (t *tx) scanTagProtections(ctx context.Context, query string, args ...any) ([]*repos.TagProtection, error) {
	rows, err := t.query(ctx, query, args...)
	if err != nil {
		return nil, mapError(err, "tag protection")
	}
	defer rows.Close()
	list := []*repos.TagProtection{}
	for rows.Next() {
		p := &repos.TagProtection{}
		var users, teams string
		var created, updated int64
		if err := rows.Scan(&p.ID, &p.RepoID, &p.NamePattern, &users, &teams, &created, &updated); err != nil {
			return nil, mapError(err, "tag protection")
		}
		if err := json.Unmarshal([]byte(users), &p.WhitelistUsernames); err != nil {
			return nil, err
		}
		if err := json.Unmarshal([]byte(teams), &p.WhitelistTeams); err != nil {
			return nil, err
		}
		p.Created, p.Updated = fromUnix(created), fromUnix(updated)
		list = append(list, p)
	}
	return list, mapError(rows.Err(), "tag protection")
}

func (t *tx) TagProtection(ctx context.Context, repoID, id forge.ID) (*repos.TagProtection, error) {
	list, err := t.scanTagProtections(ctx, sqlTagProtection, repoID, id)
	if err != nil {
		return nil, err
	}
	if len(list) == 0 {
		return nil, forge.Errorf(forge.ErrNotFound, "tag protection does not exist [id: %d]", id)
	}
	return list[0], nil
}

func (t *tx) ListTagProtections(ctx context.Context, repoID forge.ID) ([]*repos.TagProtection, error) {
	return t.scanTagProtections(ctx, sqlListTagProtections, repoID)
}

func (t *tx) UpdateTagProtection(ctx context.Context, p *repos.TagProtection) error {
	u, tm := tagProtectionArgs(p)
	res, err := t.exec(ctx, sqlUpdateTagProtection, p.NamePattern, u, tm, toUnix(p.Updated), p.ID, p.RepoID)
	return affectedOne(res, err, "tag protection")
}

func (t *tx) DeleteTagProtection(ctx context.Context, repoID, id forge.ID) error {
	res, err := t.exec(ctx, sqlDeleteTagProtection, repoID, id)
	if err := affectedOne(res, err, "tag protection"); isNotFound(err) {
		return forge.Errorf(forge.ErrNotFound, "tag protection does not exist [id: %d]", id)
	} else if err != nil {
		return err
	}
	return nil
}
