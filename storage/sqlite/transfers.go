package sqlite

import (
	"context"

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
