package sqlstore

import (
	"context"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

var _ repos.TeamRepoReader = (*tx)(nil)

var sqlTeamRepoIDs = prepared(`SELECT r.id FROM ` + teamRepoJoin + `
	WHERE x.team_id = ? AND r.status = ` + repoReadySQL + ` ORDER BY r.id`)

// TeamRepoIDs implements repos.TeamRepoReader: the team's ready
// repositories of its organisation, in id order.
func (t *tx) TeamRepoIDs(ctx context.Context, teamID forge.ID) ([]forge.ID, error) {
	return queryAll(ctx, t, scanID, "team repositories", sqlTeamRepoIDs, teamID)
}
