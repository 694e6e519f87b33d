package sqlstore

import (
	"context"

	"github.com/hearthforge/hearth/forge"
)

// The reads of organisations and teams the repository permission needs,
// and the team rows a repository's creation and transfer write (repos.Tx).
// A repository's deletion removes its team_repo rows by the foreign key's
// cascade.

var (
	sqlOrgMemberships = prepared(`SELECT org_id FROM org_user
		WHERE uid = ? AND org_id IN (SELECT CAST(value AS BIGINT) FROM json_each(?))`)
	// One row per team and unit (unit NULL for a team without units).
	sqlTeamGrants = prepared(`SELECT tr.repo_id, tm.id, tm.authorize, tu2.unit, tu2.access_mode
		FROM team_repo tr
		JOIN team_user tu ON tu.team_id = tr.team_id AND tu.uid = ?
		JOIN team tm ON tm.id = tr.team_id
		JOIN repository r ON r.id = tr.repo_id AND r.owner_id = tm.org_id
		LEFT JOIN team_unit tu2 ON tu2.team_id = tm.id
		WHERE tr.repo_id IN (SELECT CAST(value AS BIGINT) FROM json_each(?))
		ORDER BY tr.repo_id, tm.id`)
	sqlOrgTeams = prepared(`SELECT tm.id, tm.org_id, tm.name, tm.description, tm.authorize,
			tm.includes_all_repositories, tm.can_create_org_repo, tu2.unit, tu2.access_mode
		FROM team tm LEFT JOIN team_unit tu2 ON tu2.team_id = tm.id
		WHERE tm.org_id = ? AND (? = 0 OR EXISTS (SELECT 1 FROM team_user u WHERE u.team_id = tm.id AND u.uid = ?))
		ORDER BY tm.id`)
	sqlAddRepoTeams = prepared(`INSERT INTO team_repo (team_id, repo_id)
		SELECT CAST(value AS BIGINT), CAST(? AS BIGINT) FROM json_each(?) WHERE true ON CONFLICT DO NOTHING`)
	sqlDeleteRepoTeams = prepared(`DELETE FROM team_repo WHERE repo_id = ?`)
)

func (t *tx) OrgMemberships(ctx context.Context, userID forge.ID, orgIDs []forge.ID) (map[forge.ID]bool, error) {
	out := map[forge.ID]bool{}
	if len(orgIDs) == 0 {
		return out, nil
	}
	rows, err := t.query(ctx, sqlOrgMemberships, userID, idList(orgIDs))
	if err != nil {
		return nil, mapError(err, "organisation members")
	}
	defer rows.Close()
	for rows.Next() {
		var id forge.ID
		if err := rows.Scan(&id); err != nil {
			return nil, mapError(err, "organisation members")
		}
		out[id] = true
	}
	return out, mapError(rows.Err(), "organisation members")
}

func (t *tx) TeamGrants(ctx context.Context, userID forge.ID, repoIDs []forge.ID) (map[forge.ID][]forge.TeamGrant, error) {
	out := map[forge.ID][]forge.TeamGrant{}
	if len(repoIDs) == 0 {
		return out, nil
	}
	rows, err := t.query(ctx, sqlTeamGrants, userID, idList(repoIDs))
	if err != nil {
		return nil, mapError(err, "team grants")
	}
	defer rows.Close()
	for rows.Next() {
		var repoID, teamID forge.ID
		var mode int
		var unit *string
		var unitMode *int
		if err := rows.Scan(&repoID, &teamID, &mode, &unit, &unitMode); err != nil {
			return nil, mapError(err, "team grants")
		}
		list := out[repoID]
		if n := len(list); n == 0 || list[n-1].TeamID != teamID {
			list = append(list, forge.TeamGrant{TeamID: teamID, Mode: forge.AccessMode(mode), Units: map[forge.Unit]forge.AccessMode{}})
		}
		if unit != nil && unitMode != nil {
			list[len(list)-1].Units[forge.Unit(*unit)] = forge.AccessMode(*unitMode)
		}
		out[repoID] = list
	}
	return out, mapError(rows.Err(), "team grants")
}

func (t *tx) OrgTeams(ctx context.Context, orgID, userID forge.ID) ([]*forge.Team, error) {
	out := []*forge.Team{}
	rows, err := t.query(ctx, sqlOrgTeams, orgID, userID, userID)
	if err != nil {
		return nil, mapError(err, "teams")
	}
	defer rows.Close()
	for rows.Next() {
		var tm forge.Team
		var mode int
		var unit *string
		var unitMode *int
		if err := rows.Scan(&tm.ID, &tm.OrgID, &tm.Name, &tm.Description, &mode,
			&tm.IncludesAllRepos, &tm.CanCreateOrgRepo, &unit, &unitMode); err != nil {
			return nil, mapError(err, "teams")
		}
		if n := len(out); n == 0 || out[n-1].ID != tm.ID {
			tm.Mode, tm.Units = forge.AccessMode(mode), map[forge.Unit]forge.AccessMode{}
			out = append(out, &tm)
		}
		if unit != nil && unitMode != nil {
			out[len(out)-1].Units[forge.Unit(*unit)] = forge.AccessMode(*unitMode)
		}
	}
	return out, mapError(rows.Err(), "teams")
}

func (t *tx) AddRepoTeams(ctx context.Context, repoID forge.ID, teamIDs []forge.ID) error {
	if len(teamIDs) == 0 {
		return nil
	}
	_, err := t.exec(ctx, sqlAddRepoTeams, repoID, idList(teamIDs))
	return mapError(err, "repository teams")
}

func (t *tx) DeleteRepoTeams(ctx context.Context, repoID forge.ID) error {
	_, err := t.exec(ctx, sqlDeleteRepoTeams, repoID)
	return mapError(err, "team repositories")
}
