package sqlstore

import (
	"context"
	"strconv"
	"strings"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/orgs"
)

// teamCols are a team's columns, its units as "unit=mode" pairs separated
// by commas (unit keys hold neither), and its member and ready-repository
// counts, computed by the query.
var teamCols = `t.id, t.org_id, t.name, t.description, t.authorize, t.includes_all_repositories,
	t.can_create_org_repo,
	coalesce((SELECT string_agg(x.unit || '=' || CAST(x.access_mode AS TEXT), ',') FROM team_unit x WHERE x.team_id = t.id), ''),
	(SELECT count(*) FROM team_user x WHERE x.team_id = t.id),
	(SELECT count(*) FROM team_repo x JOIN repository r ON r.id = x.repo_id AND r.owner_id = t.org_id
		WHERE x.team_id = t.id AND r.status = ` + repoReadySQL + `)`

// teamRepoJoin is the team_repo rows (x) of teams (tm) that name a
// repository (r) of the team's organisation.
const teamRepoJoin = `team_repo x JOIN team tm ON tm.id = x.team_id
	JOIN repository r ON r.id = x.repo_id AND r.owner_id = tm.org_id`

// repoReadySQL is forge.RepoReady as an SQL literal.
var repoReadySQL = strconv.Itoa(int(forge.RepoReady))

// teamDest returns a team and the scan destinations matching teamCols.
func teamDest() (*forge.Team, []any, func() error) {
	tm := &forge.Team{}
	var units string
	return tm, []any{&tm.ID, &tm.OrgID, &tm.Name, &tm.Description, &tm.Mode, &tm.IncludesAllRepos,
			&tm.CanCreateOrgRepo, &units, &tm.NumMembers, &tm.NumRepos},
		func() error {
			tm.Units = map[forge.Unit]forge.AccessMode{}
			if units == "" {
				return nil
			}
			for _, pair := range strings.Split(units, ",") {
				unit, mode, _ := strings.Cut(pair, "=")
				m, err := strconv.Atoi(mode)
				if err != nil {
					return mapError(err, "team units")
				}
				tm.Units[forge.Unit(unit)] = forge.AccessMode(m)
			}
			return nil
		}
}

// writeUnits replaces a team's units.
func (t *tx) writeUnits(ctx context.Context, tm *forge.Team) error {
	if _, err := t.exec(ctx, sqlDeleteTeamUnits, tm.ID); err != nil {
		return mapError(err, "team units")
	}
	for unit, mode := range tm.Units {
		if _, err := t.exec(ctx, sqlAddTeamUnit, tm.ID, string(unit), mode); err != nil {
			return mapError(err, "team units")
		}
	}
	return nil
}

// CreateTeam implements orgs.Tx.
func (t *tx) CreateTeam(ctx context.Context, tm *forge.Team) error {
	err := t.queryRow(ctx, sqlCreateTeam, tm.OrgID, tm.Name, strings.ToLower(tm.Name), tm.Description, tm.Mode,
		tm.IncludesAllRepos, tm.CanCreateOrgRepo).Scan(&tm.ID)
	if err != nil {
		return mapError(err, "create team")
	}
	return t.writeUnits(ctx, tm)
}

func (t *tx) scanTeam(ctx context.Context, query string, args ...any) (*forge.Team, error) {
	tm, dest, done := teamDest()
	if err := t.queryRow(ctx, query, args...).Scan(dest...); err != nil {
		return nil, mapError(err, "team")
	}
	return tm, done()
}

// Team implements orgs.Tx.
func (t *tx) Team(ctx context.Context, id forge.ID) (*forge.Team, error) {
	return t.scanTeam(ctx, sqlTeam, id)
}

// TeamByName implements orgs.Tx.
func (t *tx) TeamByName(ctx context.Context, orgID forge.ID, name string) (*forge.Team, error) {
	return t.scanTeam(ctx, sqlTeamByName, orgID, strings.ToLower(name))
}

// UpdateTeam implements orgs.Tx: forge.ErrNotFound if the team does not
// exist. The organisation of a team never changes.
func (t *tx) UpdateTeam(ctx context.Context, tm *forge.Team) error {
	res, err := t.exec(ctx, sqlUpdateTeam, tm.Name, strings.ToLower(tm.Name), tm.Description, tm.Mode,
		tm.IncludesAllRepos, tm.CanCreateOrgRepo, tm.ID)
	if err := affectedOne(res, err, "update team"); err != nil {
		return err
	}
	return t.writeUnits(ctx, tm)
}

// DeleteTeam implements orgs.Tx: units, members and repositories go with
// the team (foreign keys).
func (t *tx) DeleteTeam(ctx context.Context, id forge.ID) error {
	res, err := t.exec(ctx, sqlDeleteTeam, id)
	return affectedOne(res, err, "delete team")
}

// ListTeams implements orgs.Tx, ordered by name ignoring case.
func (t *tx) ListTeams(ctx context.Context, f orgs.TeamFilter, o forge.ListOptions) ([]*forge.Team, int64, error) {
	where, args := []string{"1=1"}, []any{}
	if f.OrgID != 0 {
		where, args = append(where, "t.org_id = ?"), append(args, f.OrgID)
	}
	if f.MemberID != 0 {
		where = append(where, "EXISTS (SELECT 1 FROM team_user m WHERE m.team_id = t.id AND m.uid = ?)")
		args = append(args, f.MemberID)
	}
	if f.RepoID != 0 {
		where = append(where, `EXISTS (SELECT 1 FROM `+teamRepoJoin+` WHERE x.team_id = t.id AND x.repo_id = ?)`)
		args = append(args, f.RepoID)
	}
	if len(f.OrgVisibilities) > 0 {
		where = append(where, "(SELECT o.visibility FROM users o WHERE o.id = t.org_id) IN ("+placeholders(len(f.OrgVisibilities))+")")
		for _, v := range f.OrgVisibilities {
			args = append(args, string(v))
		}
	}
	if f.Keyword != "" {
		like := "%" + escapeLike(strings.ToLower(f.Keyword)) + "%"
		cond := `t.lower_name LIKE ? ESCAPE '\'`
		args = append(args, like)
		if f.IncludeDesc {
			cond = "(" + cond + ` OR lower(t.description) LIKE ? ESCAPE '\')`
			args = append(args, like)
		}
		where = append(where, cond)
	}
	from := " FROM team t WHERE " + strings.Join(where, " AND ")
	var total int64
	if err := t.queryRow(ctx, "SELECT count(*)"+from, args...).Scan(&total); err != nil {
		return nil, 0, mapError(err, "count teams")
	}
	o = o.Normalize()
	rows, err := t.query(ctx, "SELECT "+teamCols+from+" ORDER BY t.lower_name, t.id LIMIT ? OFFSET ?",
		append(args, o.Limit, o.Offset())...)
	if err != nil {
		return nil, 0, mapError(err, "list teams")
	}
	defer rows.Close()
	list := []*forge.Team{}
	for rows.Next() {
		tm, dest, done := teamDest()
		if err := rows.Scan(dest...); err != nil {
			return nil, 0, mapError(err, "list teams")
		}
		if err := done(); err != nil {
			return nil, 0, err
		}
		list = append(list, tm)
	}
	return list, total, mapError(rows.Err(), "list teams")
}

// AddTeamMember implements orgs.Tx: forge.ErrNotFound if the team or the
// user does not exist.
func (t *tx) AddTeamMember(ctx context.Context, teamID, userID forge.ID) error {
	_, err := t.exec(ctx, sqlAddTeamUser, teamID, userID)
	return mapError(err, "add team member")
}

// RemoveTeamMember implements orgs.Tx.
func (t *tx) RemoveTeamMember(ctx context.Context, teamID, userID forge.ID) error {
	res, err := t.exec(ctx, sqlRemoveTeamUser, teamID, userID)
	return affectedOne(res, err, "remove team member")
}

// IsTeamMember implements orgs.Tx.
func (t *tx) IsTeamMember(ctx context.Context, teamID, userID forge.ID) (bool, error) {
	var in bool
	err := t.queryRow(ctx, sqlIsTeamUser, teamID, userID).Scan(&in)
	return in, mapError(err, "team member")
}

// ListTeamMembers implements orgs.Tx, ordered by name ignoring case.
func (t *tx) ListTeamMembers(ctx context.Context, teamID forge.ID, o forge.ListOptions) ([]*forge.User, int64, error) {
	return t.userPage(ctx, "list team members", sqlCountTeamUsers, sqlListTeamUsers, []any{teamID}, o)
}

// AddTeamRepo implements orgs.Tx: forge.ErrNotFound if the team or the
// repository does not exist.
func (t *tx) AddTeamRepo(ctx context.Context, teamID, repoID forge.ID) error {
	_, err := t.exec(ctx, sqlAddTeamRepo, teamID, repoID)
	return mapError(err, "add team repository")
}

// RemoveTeamRepo implements orgs.Tx.
func (t *tx) RemoveTeamRepo(ctx context.Context, teamID, repoID forge.ID) error {
	res, err := t.exec(ctx, sqlRemoveTeamRepo, teamID, repoID)
	return affectedOne(res, err, "remove team repository")
}

// HasTeamRepo implements orgs.Tx.
func (t *tx) HasTeamRepo(ctx context.Context, teamID, repoID forge.ID) (bool, error) {
	var has bool
	err := t.queryRow(ctx, sqlHasTeamRepo, teamID, repoID).Scan(&has)
	return has, mapError(err, "team repository")
}

// ListTeamRepos implements orgs.Tx: ready repositories, ordered by name
// ignoring case.
func (t *tx) ListTeamRepos(ctx context.Context, teamID forge.ID, publicOnly bool, o forge.ListOptions) ([]*forge.Repository, int64, error) {
	var total int64
	if err := t.queryRow(ctx, sqlCountTeamRepos, teamID, publicOnly).Scan(&total); err != nil {
		return nil, 0, mapError(err, "count team repositories")
	}
	o = o.Normalize()
	rows, err := t.query(ctx, sqlListTeamRepos, teamID, publicOnly, o.Limit, o.Offset())
	if err != nil {
		return nil, 0, mapError(err, "list team repositories")
	}
	defer rows.Close()
	list := []*forge.Repository{}
	for rows.Next() {
		r, dest, done := repoDest()
		if err := rows.Scan(dest...); err != nil {
			return nil, 0, mapError(err, "list team repositories")
		}
		if err := done(); err != nil {
			return nil, 0, err
		}
		list = append(list, r)
	}
	return list, total, mapError(rows.Err(), "list team repositories")
}

// ListOwnerRepoIDs implements orgs.Tx, in id order.
func (t *tx) ListOwnerRepoIDs(ctx context.Context, ownerID forge.ID) ([]forge.ID, error) {
	return queryAll(ctx, t, scanID, "owner repositories", sqlOwnerRepoIDs, ownerID)
}

var (
	sqlCreateTeam = prepared(`INSERT INTO team (org_id, name, lower_name, description, authorize,
		includes_all_repositories, can_create_org_repo) VALUES (?,?,?,?,?,?,?) RETURNING id`)
	sqlTeam       = prepared("SELECT " + teamCols + " FROM team t WHERE t.id = ?")
	sqlTeamByName = prepared("SELECT " + teamCols + " FROM team t WHERE t.org_id = ? AND t.lower_name = ?")
	sqlUpdateTeam = prepared(`UPDATE team SET name = ?, lower_name = ?, description = ?, authorize = ?,
		includes_all_repositories = ?, can_create_org_repo = ? WHERE id = ?`)
	sqlDeleteTeam      = prepared(`DELETE FROM team WHERE id = ?`)
	sqlDeleteTeamUnits = prepared(`DELETE FROM team_unit WHERE team_id = ?`)
	sqlAddTeamUnit     = prepared(`INSERT INTO team_unit (team_id, unit, access_mode) VALUES (?,?,?)`)

	sqlAddTeamUser    = prepared(`INSERT INTO team_user (team_id, uid) VALUES (?,?) ON CONFLICT DO NOTHING`)
	sqlRemoveTeamUser = prepared(`DELETE FROM team_user WHERE team_id = ? AND uid = ?`)
	sqlIsTeamUser     = prepared(`SELECT EXISTS (SELECT 1 FROM team_user WHERE team_id = ? AND uid = ?)`)
	sqlCountTeamUsers = prepared(`SELECT count(*) FROM team_user WHERE team_id = ?`)
	sqlListTeamUsers  = prepared("SELECT " + userCols + ` FROM team_user m JOIN users u ON u.id = m.uid
		WHERE m.team_id = ? ORDER BY u.lower_name, u.id LIMIT ? OFFSET ?`)

	sqlAddTeamRepo    = prepared(`INSERT INTO team_repo (team_id, repo_id) VALUES (?,?) ON CONFLICT DO NOTHING`)
	sqlRemoveTeamRepo = prepared(`DELETE FROM team_repo WHERE team_id = ?1 AND repo_id = ?2
		AND EXISTS (SELECT 1 FROM ` + teamRepoJoin + ` WHERE x.team_id = ?1 AND x.repo_id = ?2)`)
	// A team's repositories are rows naming a repository of its
	// organisation: a row left for a repository that moved to another
	// owner gives nothing.
	sqlHasTeamRepo    = prepared(`SELECT EXISTS (SELECT 1 FROM ` + teamRepoJoin + ` WHERE x.team_id = ? AND x.repo_id = ?)`)
	sqlCountTeamRepos = prepared(`SELECT count(*) FROM ` + teamRepoJoin + `
		WHERE x.team_id = ? AND r.status = ` + repoReadySQL + ` AND NOT (CAST(? AS BOOLEAN) AND r.is_private)`)
	sqlListTeamRepos = prepared("SELECT " + repoCols + ` FROM ` + teamRepoJoin + `
		WHERE x.team_id = ? AND r.status = ` + repoReadySQL + ` AND NOT (CAST(? AS BOOLEAN) AND r.is_private) ORDER BY r.lower_name, r.id LIMIT ? OFFSET ?`)
	sqlOwnerRepoIDs = prepared(`SELECT id FROM repository WHERE owner_id = ? AND status = ` + repoReadySQL + ` ORDER BY id`)
)
