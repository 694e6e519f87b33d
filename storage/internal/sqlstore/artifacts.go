package sqlstore

import (
	"context"
	"time"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/actions/artifacts"
)

// Artifacts returns the store package forge/actions/artifacts consumes.
func (db *DB) Artifacts() artifacts.Store {
	return storeOf(db, func(t *tx) artifacts.Tx { return artifactTx{t} })
}

// artifactTx is a transaction seen as an artifacts.Tx.
type artifactTx struct{ *tx }

var _ artifacts.Tx = artifactTx{}

const artifactCols = `id, repo_id, run_id, name, blob_key, file_size, file_compressed_size, status, created_unix, expired_unix`

var (
	sqlAddArtifact = prepared(`INSERT INTO action_artifact (repo_id, run_id, name, blob_key, file_size,
		file_compressed_size, status, created_unix, expired_unix) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`)
	sqlGetArtifact    = prepared(`SELECT ` + artifactCols + ` FROM action_artifact WHERE repo_id = ? AND id = ?`)
	sqlCountArtifacts = prepared(`SELECT count(*) FROM action_artifact WHERE repo_id = ? AND (? = 0 OR run_id = ?)`)
	sqlListArtifacts  = prepared(`SELECT ` + artifactCols + ` FROM action_artifact WHERE repo_id = ? AND (? = 0 OR run_id = ?)
		ORDER BY id DESC LIMIT ? OFFSET ?`)
	sqlExpireArtifact = prepared(`UPDATE action_artifact SET status = 'expired', blob_key = '' WHERE id = ?`)
	sqlDelArtifact    = prepared(`DELETE FROM action_artifact WHERE id = ?`)
	sqlDueArtifacts   = prepared(`SELECT ` + artifactCols + ` FROM action_artifact WHERE status != 'expired'
		AND expired_unix <= ? ORDER BY expired_unix, id LIMIT ?`)
)

func scanArtifact(r interface{ Scan(...any) error }) (*artifacts.Artifact, error) {
	a := &artifacts.Artifact{}
	var status string
	var created, expires int64
	if err := r.Scan(&a.ID, &a.RepoID, &a.RunID, &a.Name, &a.BlobKey, &a.Size, &a.CompressedSize, &status,
		&created, &expires); err != nil {
		return nil, err
	}
	a.Status, a.Created, a.Expires = artifacts.Status(status), fromUnix(created), fromUnix(expires)
	return a, nil
}

func (t artifactTx) CreateArtifact(ctx context.Context, a *artifacts.Artifact) error {
	err := t.guarded(ctx, func() error {
		return t.queryRow(ctx, sqlAddArtifact, a.RepoID, a.RunID, a.Name, a.BlobKey, a.Size, a.CompressedSize,
			string(a.Status), toUnix(a.Created), toUnix(a.Expires)).Scan(&a.ID)
	})
	return mapError(err, "create artifact")
}

func (t artifactTx) Artifact(ctx context.Context, repo, id forge.ID) (*artifacts.Artifact, error) {
	a, err := scanArtifact(t.queryRow(ctx, sqlGetArtifact, repo, id))
	return a, mapError(err, "artifact")
}

func (t artifactTx) ListArtifacts(ctx context.Context, repo, run forge.ID, o forge.ListOptions) ([]*artifacts.Artifact, int64, error) {
	return pageRows(ctx, t.tx, "list artifacts", sqlCountArtifacts, sqlListArtifacts, []any{repo, run, run}, o, scanArtifact)
}

func (t artifactTx) ExpireArtifact(ctx context.Context, id forge.ID) error {
	res, err := t.exec(ctx, sqlExpireArtifact, id)
	return affectedOne(res, err, "expire artifact")
}

func (t artifactTx) DeleteArtifact(ctx context.Context, id forge.ID) error {
	res, err := t.exec(ctx, sqlDelArtifact, id)
	return affectedOne(res, err, "delete artifact")
}

func (t artifactTx) DueArtifacts(ctx context.Context, now time.Time, limit int) ([]*artifacts.Artifact, error) {
	return queryAll(ctx, t, scanArtifact, "due artifacts", sqlDueArtifacts, toUnix(now), limitAll(limit))
}
