package memstore

import (
	"context"
	"slices"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

var _ repos.TeamRepoReader = (*tx)(nil)

// TeamRepoIDs implements repos.TeamRepoReader: the team's ready
// repositories of its organisation, in id order.
func (t *tx) TeamRepoIDs(ctx context.Context, teamID forge.ID) ([]forge.ID, error) {
	if err := t.read(ctx); err != nil {
		return nil, err
	}
	ids := []forge.ID{}
	for k := range t.st.teamRepos {
		if k.team == teamID && t.st.readyRepo(k.repo) && t.st.teamHasRepo(k) {
			ids = append(ids, k.repo)
		}
	}
	slices.Sort(ids)
	return ids, nil
}
