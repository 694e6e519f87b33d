package sqlstore

import (
	"context"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/quota"
)

var (
	sqlCreateRule        = prepared(`INSERT INTO quota_rule (name, lim) VALUES (?, ?)`)
	sqlCreateRuleSubject = prepared(`INSERT INTO quota_rule_subject (rule_name, position, subject) VALUES (?,?,?)`)
	sqlDeleteRuleSubject = prepared(`DELETE FROM quota_rule_subject WHERE rule_name = ?`)
	sqlUpdateRule        = prepared(`UPDATE quota_rule SET lim = ? WHERE name = ?`)
	sqlDeleteRule        = prepared(`DELETE FROM quota_rule WHERE name = ?`)
	ruleSelect           = `SELECT r.name, r.lim, coalesce((SELECT json_group_array(subject ORDER BY position)
		FROM quota_rule_subject WHERE rule_name = r.name), '[]') FROM quota_rule r`
	sqlRuleByName  = prepared(ruleSelect + ` WHERE r.name = ?`)
	sqlListRules   = prepared(ruleSelect + ` ORDER BY r.name`)
	sqlCreateGroup = prepared(`INSERT INTO quota_group (name) VALUES (?)`)
	sqlDeleteGroup = prepared(`DELETE FROM quota_group WHERE name = ?`)
	sqlAllGroups   = prepared(`SELECT g.name, coalesce(r.name, ''), coalesce(r.lim, 0),
		coalesce((SELECT json_group_array(subject ORDER BY position) FROM quota_rule_subject
			WHERE rule_name = r.name), '[]')
		FROM quota_group g LEFT JOIN quota_group_rule gr ON gr.group_name = g.name
		LEFT JOIN quota_rule r ON r.name = gr.rule_name
		WHERE CAST(? AS TEXT) IS NULL OR g.name = ? ORDER BY g.name, r.name`)
	sqlAddGroupRule      = prepared(`INSERT INTO quota_group_rule (group_name, rule_name) VALUES (?, ?)`)
	sqlRemoveGroupRule   = prepared(`DELETE FROM quota_group_rule WHERE group_name = ? AND rule_name = ?`)
	sqlAddGroupMember    = prepared(`INSERT INTO quota_group_member (group_name, user_id) VALUES (?, ?)`)
	sqlRemoveGroupMember = prepared(`DELETE FROM quota_group_member WHERE group_name = ? AND user_id = ?`)
	sqlRemoveMemberships = prepared(`DELETE FROM quota_group_member WHERE user_id = ?`)
	sqlGroupExists       = prepared(`SELECT EXISTS (SELECT 1 FROM quota_group WHERE name = ?)`)
	sqlGroupMembers      = prepared(`SELECT ` + userCols + ` FROM quota_group_member m JOIN users u ON u.id = m.user_id
		WHERE m.group_name = ? ORDER BY u.id`)
	attachmentUsage = `SELECT a.id, a.name, a.size, r.id, o.name, r.name, i."index", i.is_pull,
			coalesce(a.comment_id, 0), 0, ''
		FROM repository r JOIN users o ON o.id = r.owner_id JOIN issue_attachment a ON a.repo_id = r.id
		JOIN issue i ON i.id = a.issue_id WHERE r.owner_id = ?1
		UNION ALL
		SELECT a.id, a.name, a.size, r.id, o.name, r.name, 0, FALSE, 0, a.release_id, rel.tag_name
		FROM repository r JOIN users o ON o.id = r.owner_id JOIN attachment a ON a.repo_id = r.id
		JOIN release rel ON rel.id = a.release_id WHERE r.owner_id = ?1`
	sqlAttachmentUsage      = prepared(`SELECT * FROM (` + attachmentUsage + `) AS s ORDER BY 3 DESC, 1, 10 LIMIT ?2 OFFSET ?3`)
	sqlCountAttachmentUsage = prepared(`SELECT
		(SELECT count(*) FROM repository r JOIN issue_attachment a ON a.repo_id = r.id WHERE r.owner_id = ?1) +
		(SELECT count(*) FROM repository r JOIN attachment a ON a.repo_id = r.id WHERE r.owner_id = ?1)`)
	sqlRecountUsage = prepared(`SELECT
		(SELECT CAST(coalesce(sum(size), 0) AS BIGINT) FROM repository WHERE owner_id = ?1 AND NOT is_private),
		(SELECT CAST(coalesce(sum(size), 0) AS BIGINT) FROM repository WHERE owner_id = ?1 AND is_private),
		(SELECT CAST(coalesce(sum(a.size), 0) AS BIGINT) FROM repository r JOIN issue_attachment a ON a.repo_id = r.id WHERE r.owner_id = ?1),
		(SELECT CAST(coalesce(sum(a.size), 0) AS BIGINT) FROM repository r JOIN attachment a ON a.repo_id = r.id WHERE r.owner_id = ?1)`)
	sqlClearDerivedUsage = prepared(`DELETE FROM quota_repo_usage
		WHERE bucket IN ('size:assets:attachments:issues', 'size:assets:attachments:releases')
		AND repo_id IN (SELECT id FROM repository WHERE owner_id = ?)`)
	sqlRebuildIssueUsage = prepared(`INSERT INTO quota_repo_usage (repo_id, bucket, bytes)
		SELECT a.repo_id, 'size:assets:attachments:issues', sum(a.size) FROM issue_attachment a
		JOIN repository r ON r.id = a.repo_id WHERE r.owner_id = ? GROUP BY a.repo_id`)
	sqlRebuildReleaseUsage = prepared(`INSERT INTO quota_repo_usage (repo_id, bucket, bytes)
		SELECT a.repo_id, 'size:assets:attachments:releases', sum(a.size) FROM attachment a
		JOIN repository r ON r.id = a.repo_id WHERE r.owner_id = ? GROUP BY a.repo_id`)
	sqlUsageOwners = prepared(`SELECT owner_id FROM repository UNION SELECT owner_id FROM quota_owner_usage ORDER BY 1`)
)

func (t quotaTx) writeSubjects(ctx context.Context, r *quota.Rule) error {
	for i, s := range r.Subjects {
		if _, err := t.exec(ctx, sqlCreateRuleSubject, r.Name, i, string(s)); err != nil {
			return mapError(err, "quota rule")
		}
	}
	return nil
}

func (t quotaTx) CreateRule(ctx context.Context, r *quota.Rule) error {
	return t.guarded(ctx, func() error {
		if _, err := t.exec(ctx, sqlCreateRule, r.Name, r.Limit); err != nil {
			return mapError(err, "quota rule")
		}
		return t.writeSubjects(ctx, r)
	})
}

func (t quotaTx) RuleByName(ctx context.Context, name string) (*quota.Rule, error) {
	var n, subjects string
	var lim int64
	if err := t.queryRow(ctx, sqlRuleByName, name).Scan(&n, &lim, &subjects); err != nil {
		return nil, mapError(err, "quota rule")
	}
	r, err := ruleOf(n, lim, subjects)
	return &r, err
}

func (t quotaTx) UpdateRule(ctx context.Context, r *quota.Rule) error {
	res, err := t.exec(ctx, sqlUpdateRule, r.Limit, r.Name)
	if err := affectedOne(res, err, "quota rule"); err != nil {
		return err
	}
	if _, err := t.exec(ctx, sqlDeleteRuleSubject, r.Name); err != nil {
		return mapError(err, "quota rule")
	}
	return t.writeSubjects(ctx, r)
}

func (t quotaTx) DeleteRule(ctx context.Context, name string) error {
	res, err := t.exec(ctx, sqlDeleteRule, name)
	return affectedOne(res, err, "quota rule")
}

func (t quotaTx) ListRules(ctx context.Context) ([]quota.Rule, error) {
	rows, err := t.query(ctx, sqlListRules)
	if err != nil {
		return nil, mapError(err, "quota rules")
	}
	defer rows.Close()
	out := []quota.Rule{}
	for rows.Next() {
		var n, subjects string
		var lim int64
		if err := rows.Scan(&n, &lim, &subjects); err != nil {
			return nil, mapError(err, "quota rules")
		}
		r, err := ruleOf(n, lim, subjects)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, mapError(rows.Err(), "quota rules")
}

func (t quotaTx) CreateGroup(ctx context.Context, name string) error {
	return t.guarded(ctx, func() error {
		_, err := t.exec(ctx, sqlCreateGroup, name)
		return mapError(err, "quota group")
	})
}

func (t quotaTx) groups(ctx context.Context, name *string) ([]quota.Group, error) {
	return t.scanGroups(ctx, sqlAllGroups, name, name)
}

func (t quotaTx) GroupByName(ctx context.Context, name string) (*quota.Group, error) {
	gs, err := t.groups(ctx, &name)
	if err != nil {
		return nil, err
	}
	if len(gs) == 0 {
		return nil, forge.Errorf(forge.ErrNotFound, "quota group: not found")
	}
	return &gs[0], nil
}

func (t quotaTx) ListGroups(ctx context.Context) ([]quota.Group, error) { return t.groups(ctx, nil) }

func (t quotaTx) DeleteGroup(ctx context.Context, name string) error {
	res, err := t.exec(ctx, sqlDeleteGroup, name)
	return affectedOne(res, err, "quota group")
}

func (t quotaTx) AddGroupRule(ctx context.Context, group, rule string) error {
	return t.guarded(ctx, func() error {
		_, err := t.exec(ctx, sqlAddGroupRule, group, rule)
		return mapError(err, "quota group rule")
	})
}

func (t quotaTx) RemoveGroupRule(ctx context.Context, group, rule string) error {
	res, err := t.exec(ctx, sqlRemoveGroupRule, group, rule)
	return affectedOne(res, err, "quota group rule")
}

func (t quotaTx) AddGroupMember(ctx context.Context, group string, owner forge.ID) error {
	return t.guarded(ctx, func() error {
		_, err := t.exec(ctx, sqlAddGroupMember, group, owner)
		return mapError(err, "quota group member")
	})
}

func (t quotaTx) RemoveGroupMember(ctx context.Context, group string, owner forge.ID) error {
	res, err := t.exec(ctx, sqlRemoveGroupMember, group, owner)
	return affectedOne(res, err, "quota group member")
}

func (t quotaTx) RemoveMemberships(ctx context.Context, owner forge.ID) error {
	_, err := t.exec(ctx, sqlRemoveMemberships, owner)
	return mapError(err, "quota group members")
}

func (t quotaTx) GroupMembers(ctx context.Context, group string) ([]*forge.User, error) {
	var ok bool
	if err := t.queryRow(ctx, sqlGroupExists, group).Scan(&ok); err != nil {
		return nil, mapError(err, "quota group")
	}
	if !ok {
		return nil, forge.Errorf(forge.ErrNotFound, "quota group: not found")
	}
	return queryAll(ctx, t, fromDest(userDest), "quota group members", sqlGroupMembers, group)
}

func (t quotaTx) ListAttachmentUsage(ctx context.Context, owner forge.ID, o forge.ListOptions) ([]quota.AttachmentUsage, int64, error) {
	var total int64
	if err := t.queryRow(ctx, sqlCountAttachmentUsage, owner).Scan(&total); err != nil {
		return nil, 0, mapError(err, "attachment usage")
	}
	rows, err := t.query(ctx, sqlAttachmentUsage, owner, limitAll(o.Limit), o.Offset())
	if err != nil {
		return nil, 0, mapError(err, "attachment usage")
	}
	defer rows.Close()
	out := []quota.AttachmentUsage{}
	for rows.Next() {
		var a quota.AttachmentUsage
		if err := rows.Scan(&a.ID, &a.Name, &a.Size, &a.RepoID, &a.OwnerName, &a.RepoName, &a.Index, &a.IsPull,
			&a.CommentID, &a.ReleaseID, &a.TagName); err != nil {
			return nil, 0, mapError(err, "attachment usage")
		}
		out = append(out, a)
	}
	return out, total, mapError(rows.Err(), "attachment usage")
}

// RecountUsage implements quota.Tx: SUM queries over the source rows, as
// Forgejo's GetUsedForUser.
func (t quotaTx) RecountUsage(ctx context.Context, owner forge.ID) (quota.Used, error) {
	u, err := t.Usage(ctx, owner)
	if err != nil {
		return u, err
	}
	// Reservations count in the recount as in Usage (a write in progress
	// is no drift): taken out here, added back to the recounted buckets.
	held, err := t.reserved(ctx, owner)
	if err != nil {
		return u, err
	}
	for _, b := range quota.Buckets {
		_ = u.Add(b, -held.Get(b))
	}
	if err := t.queryRow(ctx, sqlRecountUsage, owner).Scan(&u.ReposPublic, &u.ReposPrivate,
		&u.AttachmentsIssues, &u.AttachmentsReleases); err != nil {
		return u, mapError(err, "recount usage")
	}
	var tx any = t
	if r, ok := tx.(quota.LFSUsageTx); ok {
		if u.LFS, err = r.RecountLFS(ctx, owner); err != nil {
			return u, err
		}
	}
	if r, ok := tx.(quota.ArtifactUsageTx); ok {
		if u.Artifacts, err = r.RecountArtifacts(ctx, owner); err != nil {
			return u, err
		}
	}
	if r, ok := tx.(quota.PackageUsageTx); ok {
		if u.Packages, err = r.RecountPackages(ctx, owner); err != nil {
			return u, err
		}
	}
	for _, b := range quota.Buckets {
		_ = u.Add(b, held.Get(b))
	}
	return u, nil
}

func (t quotaTx) RebuildUsage(ctx context.Context, owner forge.ID) error {
	for _, q := range []string{sqlClearDerivedUsage, sqlRebuildIssueUsage, sqlRebuildReleaseUsage} {
		if _, err := t.exec(ctx, q, owner); err != nil {
			return mapError(err, "rebuild usage")
		}
	}
	return nil
}

func (t quotaTx) UsageOwners(ctx context.Context) ([]forge.ID, error) {
	return queryAll(ctx, t, scanID, "usage owners", sqlUsageOwners)
}
