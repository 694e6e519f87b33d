package sqlstore

import (
	"context"
	"strings"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

// Branch and tag protection rules: explicit columns, their lists of names
// in protected_branch_entry / protected_tag_entry rows (list, position,
// value), and their user whitelists as user ids in protected_branch_user
// / protected_tag_user rows (which go with the user: ON DELETE CASCADE).
// Not-found errors carry no business message: the domain words them.

var branchProtectionFields = []string{"repo_id", "rule_name", "enable_push", "enable_push_whitelist",
	"push_whitelist_deploy_keys", "enable_merge_whitelist", "enable_status_check", "required_approvals",
	"enable_approvals_whitelist", "block_on_rejected_reviews", "block_on_official_review_requests",
	"block_on_outdated_branch", "dismiss_stale_approvals", "ignore_stale_approvals", "require_signed_commits",
	"protected_file_patterns", "unprotected_file_patterns", "apply_to_admins", "created_unix", "updated_unix"}

var (
	sqlCreateProtection = prepared("INSERT INTO protected_branch (" + strings.Join(branchProtectionFields, ", ") +
		") VALUES (" + strings.Repeat("?,", len(branchProtectionFields)-1) + "?) RETURNING id")
	sqlProtection = prepared("SELECT id, " + strings.Join(branchProtectionFields, ", ") +
		" FROM protected_branch WHERE repo_id = ? AND rule_name = ?")
	sqlListProtections = prepared("SELECT id, " + strings.Join(branchProtectionFields, ", ") +
		" FROM protected_branch WHERE repo_id = ? ORDER BY id")
	sqlUpdateProtection = prepared("UPDATE protected_branch SET " + strings.Join(branchProtectionFields, " = ?, ") +
		" = ? WHERE id = ?")
	sqlDeleteProtection    = prepared(`DELETE FROM protected_branch WHERE repo_id = ? AND rule_name = ?`)
	sqlBranchEntries       = prepared(`SELECT list, value FROM protected_branch_entry WHERE protection_id = ? ORDER BY list, pos`)
	sqlDeleteBranchEntries = prepared(`DELETE FROM protected_branch_entry WHERE protection_id = ?`)
	sqlAddBranchEntry      = prepared(`INSERT INTO protected_branch_entry (protection_id, list, pos, value) VALUES (?,?,?,?)`)

	sqlCreateTagProtection = prepared(`INSERT INTO protected_tag (repo_id, name_pattern, created_unix, updated_unix)
		VALUES (?,?,?,?) RETURNING id`)
	sqlTagProtection = prepared(`SELECT id, repo_id, name_pattern, created_unix, updated_unix
		FROM protected_tag WHERE repo_id = ? AND id = ?`)
	sqlListTagProtections = prepared(`SELECT id, repo_id, name_pattern, created_unix, updated_unix
		FROM protected_tag WHERE repo_id = ? ORDER BY id`)
	sqlUpdateTagProtection = prepared(`UPDATE protected_tag SET name_pattern = ?, updated_unix = ? WHERE id = ? AND repo_id = ?`)
	sqlDeleteTagProtection = prepared(`DELETE FROM protected_tag WHERE repo_id = ? AND id = ?`)
	sqlTagEntries          = prepared(`SELECT list, value FROM protected_tag_entry WHERE protection_id = ? ORDER BY list, pos`)
	sqlDeleteTagEntries    = prepared(`DELETE FROM protected_tag_entry WHERE protection_id = ?`)
	sqlAddTagEntry         = prepared(`INSERT INTO protected_tag_entry (protection_id, list, pos, value) VALUES (?,?,?,?)`)

	sqlBranchUsers       = prepared(`SELECT list, user_id FROM protected_branch_user WHERE protection_id = ? ORDER BY list, pos`)
	sqlDeleteBranchUsers = prepared(`DELETE FROM protected_branch_user WHERE protection_id = ?`)
	sqlAddBranchUser     = prepared(`INSERT INTO protected_branch_user (protection_id, list, pos, user_id) VALUES (?,?,?,?) ON CONFLICT DO NOTHING`)
	sqlTagUsers          = prepared(`SELECT 'users', user_id FROM protected_tag_user WHERE protection_id = ? ORDER BY pos`)
	sqlDeleteTagUsers    = prepared(`DELETE FROM protected_tag_user WHERE protection_id = ?`)
	sqlAddTagUser        = prepared(`INSERT INTO protected_tag_user (protection_id, pos, user_id) VALUES (?,?,?) ON CONFLICT DO NOTHING`)
)

// branchLists names the lists of a branch protection rule.
func branchLists(p *repos.BranchProtection) map[string]*[]string {
	return map[string]*[]string{
		"push_teams": &p.PushWhitelistTeams, "merge_teams": &p.MergeWhitelistTeams,
		"status_contexts": &p.StatusCheckContexts, "approvals_teams": &p.ApprovalsWhitelistTeams,
	}
}

// branchUsers names the user whitelists of a branch protection rule.
func branchUsers(p *repos.BranchProtection) map[string]*[]forge.ID {
	return map[string]*[]forge.ID{
		"push": &p.PushWhitelistUserIDs, "merge": &p.MergeWhitelistUserIDs, "approvals": &p.ApprovalsWhitelistUserIDs,
	}
}

// writeUsers replaces the user whitelist rows of one rule (add takes
// protection id, list, position and user id, or without the list when
// tag is set). A repeated id is stored once.
func (t *tx) writeUsers(ctx context.Context, del, add string, id forge.ID, tag bool, lists map[string]*[]forge.ID) error {
	if _, err := t.exec(ctx, del, id); err != nil {
		return mapError(err, "protection whitelist")
	}
	for name, list := range lists {
		for i, uid := range *list {
			args := []any{id, name, i, uid}
			if tag {
				args = []any{id, i, uid}
			}
			if _, err := t.exec(ctx, add, args...); err != nil {
				return mapError(err, "protection whitelist")
			}
		}
	}
	return nil
}

// readUsers fills the user whitelists of one rule; lists without rows
// stay as they are.
func (t *tx) readUsers(ctx context.Context, query string, id forge.ID, lists map[string]*[]forge.ID) error {
	rows, err := t.query(ctx, query, id)
	if err != nil {
		return mapError(err, "protection whitelist")
	}
	defer rows.Close()
	for rows.Next() {
		var name string
		var uid forge.ID
		if err := rows.Scan(&name, &uid); err != nil {
			return mapError(err, "protection whitelist")
		}
		if l := lists[name]; l != nil {
			*l = append(*l, uid)
		}
	}
	return mapError(rows.Err(), "protection whitelist")
}

func branchProtectionArgs(p *repos.BranchProtection) []any {
	return []any{p.RepoID, p.RuleName, p.EnablePush, p.EnablePushWhitelist, p.PushWhitelistDeployKeys,
		p.EnableMergeWhitelist, p.EnableStatusCheck, p.RequiredApprovals, p.EnableApprovalsWhitelist,
		p.BlockOnRejectedReviews, p.BlockOnOfficialReviewRequests, p.BlockOnOutdatedBranch, p.DismissStaleApprovals,
		p.IgnoreStaleApprovals, p.RequireSignedCommits, p.ProtectedFilePatterns, p.UnprotectedFilePatterns,
		p.ApplyToAdmins, toUnix(p.Created), toUnix(p.Updated)}
}

// writeEntries replaces the list rows of one rule.
func (t *tx) writeEntries(ctx context.Context, del, add string, id forge.ID, lists map[string]*[]string) error {
	if _, err := t.exec(ctx, del, id); err != nil {
		return mapError(err, "protection lists")
	}
	for name, list := range lists {
		for i, v := range *list {
			if _, err := t.exec(ctx, add, id, name, i, v); err != nil {
				return mapError(err, "protection lists")
			}
		}
	}
	return nil
}

// readEntries fills the lists of one rule; lists without rows stay as
// they are.
func (t *tx) readEntries(ctx context.Context, query string, id forge.ID, lists map[string]*[]string) error {
	rows, err := t.query(ctx, query, id)
	if err != nil {
		return mapError(err, "protection lists")
	}
	defer rows.Close()
	for rows.Next() {
		var name, v string
		if err := rows.Scan(&name, &v); err != nil {
			return mapError(err, "protection lists")
		}
		if l := lists[name]; l != nil {
			*l = append(*l, v)
		}
	}
	return mapError(rows.Err(), "protection lists")
}

func (t *tx) CreateProtection(ctx context.Context, p *repos.BranchProtection) error {
	if err := mapError(t.queryRow(ctx, sqlCreateProtection, branchProtectionArgs(p)...).Scan(&p.ID), "branch protection"); err != nil {
		return err
	}
	return t.writeBranchLists(ctx, p)
}

// writeBranchLists replaces the lists and user whitelists of a rule.
func (t *tx) writeBranchLists(ctx context.Context, p *repos.BranchProtection) error {
	if err := t.writeEntries(ctx, sqlDeleteBranchEntries, sqlAddBranchEntry, p.ID, branchLists(p)); err != nil {
		return err
	}
	return t.writeUsers(ctx, sqlDeleteBranchUsers, sqlAddBranchUser, p.ID, false, branchUsers(p))
}

func (t *tx) scanProtections(ctx context.Context, query string, args ...any) ([]*repos.BranchProtection, error) {
	rows, err := t.query(ctx, query, args...)
	if err != nil {
		return nil, mapError(err, "branch protection")
	}
	list := []*repos.BranchProtection{}
	for rows.Next() {
		p := &repos.BranchProtection{}
		var created, updated int64
		if err := rows.Scan(&p.ID, &p.RepoID, &p.RuleName, &p.EnablePush, &p.EnablePushWhitelist,
			&p.PushWhitelistDeployKeys, &p.EnableMergeWhitelist, &p.EnableStatusCheck, &p.RequiredApprovals,
			&p.EnableApprovalsWhitelist, &p.BlockOnRejectedReviews, &p.BlockOnOfficialReviewRequests,
			&p.BlockOnOutdatedBranch, &p.DismissStaleApprovals, &p.IgnoreStaleApprovals, &p.RequireSignedCommits,
			&p.ProtectedFilePatterns, &p.UnprotectedFilePatterns, &p.ApplyToAdmins, &created, &updated); err != nil {
			rows.Close()
			return nil, mapError(err, "branch protection")
		}
		p.Created, p.Updated = fromUnix(created), fromUnix(updated)
		list = append(list, p)
	}
	err = rows.Err()
	rows.Close()
	if err != nil {
		return nil, mapError(err, "branch protection")
	}
	for _, p := range list {
		if err := t.readEntries(ctx, sqlBranchEntries, p.ID, branchLists(p)); err != nil {
			return nil, err
		}
		if err := t.readUsers(ctx, sqlBranchUsers, p.ID, branchUsers(p)); err != nil {
			return nil, err
		}
	}
	return list, nil
}

func (t *tx) Protection(ctx context.Context, repoID forge.ID, rule string) (*repos.BranchProtection, error) {
	list, err := t.scanProtections(ctx, sqlProtection, repoID, rule)
	if err != nil {
		return nil, err
	}
	if len(list) == 0 {
		return nil, forge.Errorf(forge.ErrNotFound, "branch protection: not found")
	}
	return list[0], nil
}

func (t *tx) ListProtections(ctx context.Context, repoID forge.ID) ([]*repos.BranchProtection, error) {
	return t.scanProtections(ctx, sqlListProtections, repoID)
}

func (t *tx) UpdateProtection(ctx context.Context, p *repos.BranchProtection) error {
	res, err := t.exec(ctx, sqlUpdateProtection, append(branchProtectionArgs(p), p.ID)...)
	if err := affectedOne(res, err, "branch protection"); err != nil {
		return err
	}
	return t.writeBranchLists(ctx, p)
}

func (t *tx) DeleteProtection(ctx context.Context, repoID forge.ID, rule string) error {
	res, err := t.exec(ctx, sqlDeleteProtection, repoID, rule)
	if err := affectedOne(res, err, "branch protection"); err != nil {
		return err
	}
	return nil
}

func tagLists(p *repos.TagProtection) map[string]*[]string {
	return map[string]*[]string{"teams": &p.WhitelistTeams}
}

func tagUsers(p *repos.TagProtection) map[string]*[]forge.ID {
	return map[string]*[]forge.ID{"users": &p.WhitelistUserIDs}
}

// writeTagLists replaces the lists and user whitelist of a tag rule.
func (t *tx) writeTagLists(ctx context.Context, p *repos.TagProtection) error {
	if err := t.writeEntries(ctx, sqlDeleteTagEntries, sqlAddTagEntry, p.ID, tagLists(p)); err != nil {
		return err
	}
	return t.writeUsers(ctx, sqlDeleteTagUsers, sqlAddTagUser, p.ID, true, tagUsers(p))
}

func (t *tx) CreateTagProtection(ctx context.Context, p *repos.TagProtection) error {
	if err := mapError(t.queryRow(ctx, sqlCreateTagProtection, p.RepoID, p.NamePattern, toUnix(p.Created),
		toUnix(p.Updated)).Scan(&p.ID), "tag protection"); err != nil {
		return err
	}
	return t.writeTagLists(ctx, p)
}

func (t *tx) scanTagProtections(ctx context.Context, query string, args ...any) ([]*repos.TagProtection, error) {
	rows, err := t.query(ctx, query, args...)
	if err != nil {
		return nil, mapError(err, "tag protection")
	}
	list := []*repos.TagProtection{}
	for rows.Next() {
		p := &repos.TagProtection{WhitelistUserIDs: []forge.ID{}, WhitelistTeams: []string{}}
		var created, updated int64
		if err := rows.Scan(&p.ID, &p.RepoID, &p.NamePattern, &created, &updated); err != nil {
			rows.Close()
			return nil, mapError(err, "tag protection")
		}
		p.Created, p.Updated = fromUnix(created), fromUnix(updated)
		list = append(list, p)
	}
	err = rows.Err()
	rows.Close()
	if err != nil {
		return nil, mapError(err, "tag protection")
	}
	for _, p := range list {
		if err := t.readEntries(ctx, sqlTagEntries, p.ID, tagLists(p)); err != nil {
			return nil, err
		}
		if err := t.readUsers(ctx, sqlTagUsers, p.ID, tagUsers(p)); err != nil {
			return nil, err
		}
	}
	return list, nil
}

func (t *tx) TagProtection(ctx context.Context, repoID, id forge.ID) (*repos.TagProtection, error) {
	list, err := t.scanTagProtections(ctx, sqlTagProtection, repoID, id)
	if err != nil {
		return nil, err
	}
	if len(list) == 0 {
		return nil, forge.Errorf(forge.ErrNotFound, "tag protection: not found")
	}
	return list[0], nil
}

func (t *tx) ListTagProtections(ctx context.Context, repoID forge.ID) ([]*repos.TagProtection, error) {
	return t.scanTagProtections(ctx, sqlListTagProtections, repoID)
}

func (t *tx) UpdateTagProtection(ctx context.Context, p *repos.TagProtection) error {
	res, err := t.exec(ctx, sqlUpdateTagProtection, p.NamePattern, toUnix(p.Updated), p.ID, p.RepoID)
	if err := affectedOne(res, err, "tag protection"); err != nil {
		return err
	}
	return t.writeTagLists(ctx, p)
}

func (t *tx) DeleteTagProtection(ctx context.Context, repoID, id forge.ID) error {
	res, err := t.exec(ctx, sqlDeleteTagProtection, repoID, id)
	if err := affectedOne(res, err, "tag protection"); err != nil {
		return err
	}
	return nil
}
