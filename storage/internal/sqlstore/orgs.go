package sqlstore

import (
	"context"
	"strings"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/orgs"
)

// Orgs returns the store package forge/orgs consumes.
func (db *DB) Orgs() orgs.Store { return storeOf(db, func(t *tx) orgs.Tx { return t }) }

var _ orgs.Tx = (*tx)(nil)

// CreateOrg implements orgs.Tx: an account of type organisation, with no
// password. org.Type is set.
func (t *tx) CreateOrg(ctx context.Context, org *forge.User) error {
	org.Type = forge.UserTypeOrganization
	defaultVisibility(org)
	err := t.queryRow(ctx, sqlCreateOrg, org.Name, strings.ToLower(org.Name), org.FullName, org.Email,
		strings.ToLower(org.Email), org.HideEmail, org.Location, org.Website, org.Description, org.Pronouns,
		org.Language, string(org.Visibility), org.IsAdmin, org.IsActive, org.ProhibitLogin, org.Restricted,
		org.MustChangePassword, org.LoginSource, org.LoginName, org.AllowGitHook, org.AllowImportLocal,
		org.AllowCreateOrganization, org.MaxRepoCreation, toUnix(org.Created), toUnix(org.Updated),
		toUnix(org.LastLogin), org.Avatar, org.RepoAdminChangeTeamAccess).Scan(&org.ID)
	return mapError(err, "create organization")
}

// UpdateOrg implements orgs.Tx: every column but the type and the password.
func (t *tx) UpdateOrg(ctx context.Context, org *forge.User) error {
	defaultVisibility(org)
	res, err := t.exec(ctx, sqlUpdateOrg, org.Name, strings.ToLower(org.Name), org.FullName, org.Email,
		strings.ToLower(org.Email), org.HideEmail, org.Location, org.Website, org.Description, org.Pronouns,
		org.Language, string(org.Visibility), org.IsAdmin, org.IsActive, org.ProhibitLogin, org.Restricted,
		org.MustChangePassword, org.LoginSource, org.LoginName, org.AllowGitHook, org.AllowImportLocal,
		org.AllowCreateOrganization, org.MaxRepoCreation, toUnix(org.Created), toUnix(org.Updated),
		toUnix(org.LastLogin), org.Avatar, org.RepoAdminChangeTeamAccess, org.ID)
	return affectedOne(res, err, "update organization")
}

// DeleteOrg implements orgs.Tx. Teams, memberships and blocks go with the
// account (foreign keys); a repository the organisation still owns makes
// it forge.ErrPrecondition, as for DeleteUser.
func (t *tx) DeleteOrg(ctx context.Context, id forge.ID) error {
	res, err := t.exec(ctx, sqlDeleteOrg, id)
	if isForeignKeyViolation(err) {
		return &forge.Error{Kind: forge.ErrPrecondition, Message: "delete organization: rows still refer to it", Err: err}
	}
	return affectedOne(res, err, "delete organization")
}

// ListOrgs implements orgs.Tx, ordered by name ignoring case.
func (t *tx) ListOrgs(ctx context.Context, f orgs.OrgFilter, o forge.ListOptions) ([]*forge.User, int64, error) {
	where, args := []string{"u.type = ?"}, []any{forge.UserTypeOrganization}
	if len(f.Visibilities) > 0 {
		where = append(where, "u.visibility IN ("+placeholders(len(f.Visibilities))+")")
		for _, v := range f.Visibilities {
			args = append(args, string(v))
		}
	}
	if f.MemberID != 0 {
		cond := "EXISTS (SELECT 1 FROM org_user m WHERE m.org_id = u.id AND m.uid = ?"
		if f.PublicMember {
			cond += " AND m.is_public"
		}
		where, args = append(where, cond+")"), append(args, f.MemberID)
	}
	if f.ViewerMemberID != 0 {
		where = append(where, "EXISTS (SELECT 1 FROM org_user v WHERE v.org_id = u.id AND v.uid = ?)")
		args = append(args, f.ViewerMemberID)
	}
	from := " FROM users u WHERE " + strings.Join(where, " AND ")
	return t.userPage(ctx, "list organizations", "SELECT count(*)"+from,
		"SELECT "+userCols+from+" ORDER BY u.lower_name, u.id LIMIT ? OFFSET ?", args, o)
}

// userPage runs a count and a page of users (the list query ends with
// LIMIT ? OFFSET ?).
func (t *tx) userPage(ctx context.Context, what, countQ, listQ string, args []any, o forge.ListOptions) ([]*forge.User, int64, error) {
	return pageRows(ctx, t, what, countQ, listQ, args, o, fromDest(userDest))
}

// placeholders returns n comma-separated question marks.
func placeholders(n int) string {
	return strings.TrimSuffix(strings.Repeat("?,", n), ",")
}

// SetMember implements orgs.Tx: forge.ErrNotFound if the organisation or
// the user does not exist.
func (t *tx) SetMember(ctx context.Context, m forge.Membership) error {
	_, err := t.exec(ctx, sqlSetMember, m.OrgID, m.UserID, m.Public)
	return mapError(err, "organization member")
}

// Member implements orgs.Tx.
func (t *tx) Member(ctx context.Context, orgID, userID forge.ID) (forge.Membership, error) {
	m := forge.Membership{OrgID: orgID, UserID: userID}
	if err := t.queryRow(ctx, sqlMember, orgID, userID).Scan(&m.Public); err != nil {
		return forge.Membership{}, mapError(err, "organization member")
	}
	return m, nil
}

// DeleteMember implements orgs.Tx.
func (t *tx) DeleteMember(ctx context.Context, orgID, userID forge.ID) error {
	_, err := t.exec(ctx, sqlDeleteMember, orgID, userID)
	return mapError(err, "remove organization member")
}

// ListMembers implements orgs.Tx, ordered by name ignoring case.
func (t *tx) ListMembers(ctx context.Context, orgID forge.ID, publicOnly bool, o forge.ListOptions) ([]*forge.User, int64, error) {
	return t.userPage(ctx, "list organization members", sqlCountMembers, sqlListMembers,
		[]any{orgID, publicOnly}, o)
}

var (
	sqlCreateOrg = prepared(`INSERT INTO users (name, lower_name, full_name, email, lower_email,
		hide_email, location, website, description, pronouns, language, visibility, is_admin, is_active,
		prohibit_login, restricted, must_change_password, login_source, login_name, allow_git_hook,
		allow_import_local, allow_create_organization, max_repo_creation,
		created_unix, updated_unix, last_login_unix, avatar, repo_admin_change_team_access, type)
		VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,1) RETURNING id`)
	sqlUpdateOrg = prepared(`UPDATE users SET name = ?, lower_name = ?, full_name = ?, email = ?,
		lower_email = ?, hide_email = ?, location = ?, website = ?, description = ?, pronouns = ?,
		language = ?, visibility = ?, is_admin = ?, is_active = ?, prohibit_login = ?, restricted = ?,
		must_change_password = ?, login_source = ?, login_name = ?, allow_git_hook = ?,
		allow_import_local = ?, allow_create_organization = ?, max_repo_creation = ?,
		created_unix = ?, updated_unix = ?, last_login_unix = ?, avatar = ?,
		repo_admin_change_team_access = ?, version = version + 1 WHERE id = ? AND type = 1`)
	sqlDeleteOrg = prepared(`DELETE FROM users WHERE id = ? AND type = 1`)

	sqlSetMember = prepared(`INSERT INTO org_user (org_id, uid, is_public) VALUES (?,?,?)
		ON CONFLICT (org_id, uid) DO UPDATE SET is_public = excluded.is_public`)
	sqlMember       = prepared(`SELECT is_public FROM org_user WHERE org_id = ? AND uid = ?`)
	sqlDeleteMember = prepared(`DELETE FROM org_user WHERE org_id = ? AND uid = ?`)
	sqlCountMembers = prepared(`SELECT count(*) FROM org_user m WHERE m.org_id = ?1 AND (NOT CAST(?2 AS BOOLEAN) OR m.is_public)`)
	sqlListMembers  = prepared("SELECT " + userCols + ` FROM org_user m JOIN users u ON u.id = m.uid
		WHERE m.org_id = ?1 AND (NOT CAST(?2 AS BOOLEAN) OR m.is_public) ORDER BY u.lower_name, u.id LIMIT ?3 OFFSET ?4`)
)
