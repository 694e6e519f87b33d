package memstore

import (
	"cmp"
	"context"
	"slices"
	"time"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/actions/artifacts"
)

// Artifacts returns the store package forge/actions/artifacts consumes.
func (s *Store) Artifacts() artifacts.Store {
	return storeOf(s, func(t *tx) artifacts.Tx { return artifactTx{t} })
}

// artifactTx is a transaction seen as an artifacts.Tx.
type artifactTx struct{ *tx }

var _ artifacts.Tx = artifactTx{}

func (t artifactTx) CreateArtifact(ctx context.Context, a *artifacts.Artifact) error {
	if err := writeRef(ctx, t, t.st.repos, a.RepoID, "create artifact"); err != nil {
		return err
	}
	if err := conflictIf(t.st.artifacts, func(cur artifacts.Artifact) bool { return cur.RunID == a.RunID && cur.Name == a.Name }, "create artifact"); err != nil {
		return err
	}
	row := *a
	row.ID, row.Created, row.Expires = t.st.nextID("action_artifact"), ts(row.Created), ts(row.Expires)
	t.st.artifacts[row.ID] = row
	a.ID = row.ID
	return nil
}

func (t artifactTx) Artifact(ctx context.Context, repo, id forge.ID) (*artifacts.Artifact, error) {
	if err := t.read(ctx); err != nil {
		return nil, err
	}
	cur, ok := t.st.artifacts[id]
	if !ok || cur.RepoID != repo {
		return nil, notFound("artifact")
	}
	return &cur, nil
}

func (t artifactTx) ListArtifacts(ctx context.Context, repo, run forge.ID, o forge.ListOptions) ([]*artifacts.Artifact, int64, error) {
	return pageRows(ctx, t, t.st.artifacts, func(cur artifacts.Artifact) bool { return cur.RepoID == repo && (run == 0 || cur.RunID == run) }, func(a, b *artifacts.Artifact) int { return cmp.Compare(b.ID, a.ID) }, o)
}

func (t artifactTx) ExpireArtifact(ctx context.Context, id forge.ID) error {
	return updateRow(ctx, t, t.st.artifacts, id, "expire artifact", func(cur artifacts.Artifact) artifacts.Artifact {
		cur.Status, cur.BlobKey = artifacts.StatusExpired, ""
		return cur
	})
}

func (t artifactTx) DeleteArtifact(ctx context.Context, id forge.ID) error {
	return deleteRow(ctx, t, t.st.artifacts, id, "delete artifact", nil)
}

func (t artifactTx) DueArtifacts(ctx context.Context, now time.Time, limit int) ([]*artifacts.Artifact, error) {
	if err := t.read(ctx); err != nil {
		return nil, err
	}
	due := []*artifacts.Artifact{}
	for _, cur := range t.st.artifacts {
		if cur.Status != artifacts.StatusExpired && !cur.Expires.After(now) {
			due = append(due, &cur)
		}
	}
	slices.SortFunc(due, func(a, b *artifacts.Artifact) int {
		return cmp.Or(a.Expires.Compare(b.Expires), cmp.Compare(a.ID, b.ID))
	})
	if limit >= 0 && len(due) > limit {
		due = due[:limit]
	}
	return due, nil
}
