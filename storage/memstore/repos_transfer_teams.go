package memstore

import (
	"context"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

// transfer is the row as the SQL backends return it: only the ids of its
// doer and recipient set, the teams that still exist in order.
// A deleted team is dropped as SQLite's cascade drops it.
func (tr transferRow) transfer(repoID forge.ID, teams map[forge.ID]forge.Team) *repos.Transfer {
	var ids []forge.ID
	for _, id := range tr.teams {
		if _, ok := teams[id]; ok {
			ids = append(ids, id)
		}
	}
	return &repos.Transfer{RepoID: repoID, Doer: &forge.User{ID: tr.doer}, Recipient: &forge.User{ID: tr.recipient},
		Created: tr.created, TeamIDs: ids}
}

// TeamOrgs implements repos.Tx.
func (t *tx) TeamOrgs(ctx context.Context, teamIDs []forge.ID) (map[forge.ID]forge.ID, error) {
	if err := t.read(ctx); err != nil {
		return nil, err
	}
	out := map[forge.ID]forge.ID{}
	for _, id := range teamIDs {
		if tm, ok := t.st.teams[id]; ok {
			out[id] = tm.OrgID
		}
	}
	return out, nil
}
