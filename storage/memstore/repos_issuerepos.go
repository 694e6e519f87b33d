package memstore

import (
	"context"

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
	return idsWhere(t.st.teamRepos, func(k teamRepo, _ struct{}) (forge.ID, bool) {
		return k.repo, k.team == teamID && t.st.readyRepo(k.repo) && t.st.teamHasRepo(k)
	}), nil
}
