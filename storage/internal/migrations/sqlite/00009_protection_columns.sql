-- +goose Up
-- Branch and tag protection rules get explicit columns and a child table
-- for their lists (they were JSON whose field names were Go's).
CREATE TABLE protected_branch_new (
    id                                INTEGER PRIMARY KEY AUTOINCREMENT,
    repo_id                           INTEGER NOT NULL REFERENCES repository (id) ON DELETE CASCADE,
    rule_name                         TEXT    NOT NULL,
    enable_push                       INTEGER NOT NULL DEFAULT 0,
    enable_push_whitelist             INTEGER NOT NULL DEFAULT 0,
    push_whitelist_deploy_keys        INTEGER NOT NULL DEFAULT 0,
    enable_merge_whitelist            INTEGER NOT NULL DEFAULT 0,
    enable_status_check               INTEGER NOT NULL DEFAULT 0,
    required_approvals                INTEGER NOT NULL DEFAULT 0,
    enable_approvals_whitelist        INTEGER NOT NULL DEFAULT 0,
    block_on_rejected_reviews         INTEGER NOT NULL DEFAULT 0,
    block_on_official_review_requests INTEGER NOT NULL DEFAULT 0,
    block_on_outdated_branch          INTEGER NOT NULL DEFAULT 0,
    dismiss_stale_approvals           INTEGER NOT NULL DEFAULT 0,
    ignore_stale_approvals            INTEGER NOT NULL DEFAULT 0,
    require_signed_commits            INTEGER NOT NULL DEFAULT 0,
    protected_file_patterns           TEXT    NOT NULL DEFAULT '',
    unprotected_file_patterns         TEXT    NOT NULL DEFAULT '',
    apply_to_admins                   INTEGER NOT NULL DEFAULT 0,
    created_unix                      INTEGER NOT NULL,
    updated_unix                      INTEGER NOT NULL,
    UNIQUE (repo_id, rule_name)
);
INSERT INTO protected_branch_new SELECT id, repo_id, rule_name,
    coalesce(json_extract(settings, '$.EnablePush'), 0),
    coalesce(json_extract(settings, '$.EnablePushWhitelist'), 0),
    coalesce(json_extract(settings, '$.PushWhitelistDeployKeys'), 0),
    coalesce(json_extract(settings, '$.EnableMergeWhitelist'), 0),
    coalesce(json_extract(settings, '$.EnableStatusCheck'), 0),
    coalesce(json_extract(settings, '$.RequiredApprovals'), 0),
    coalesce(json_extract(settings, '$.EnableApprovalsWhitelist'), 0),
    coalesce(json_extract(settings, '$.BlockOnRejectedReviews'), 0),
    coalesce(json_extract(settings, '$.BlockOnOfficialReviewRequests'), 0),
    coalesce(json_extract(settings, '$.BlockOnOutdatedBranch'), 0),
    coalesce(json_extract(settings, '$.DismissStaleApprovals'), 0),
    coalesce(json_extract(settings, '$.IgnoreStaleApprovals'), 0),
    coalesce(json_extract(settings, '$.RequireSignedCommits'), 0),
    coalesce(json_extract(settings, '$.ProtectedFilePatterns'), ''),
    coalesce(json_extract(settings, '$.UnprotectedFilePatterns'), ''),
    coalesce(json_extract(settings, '$.ApplyToAdmins'), 0),
    created_unix, updated_unix
FROM protected_branch;

-- list: push_users, push_teams, merge_users, merge_teams, status_contexts,
-- approvals_users, approvals_teams; pos keeps the order.
CREATE TABLE protected_branch_entry (
    protection_id INTEGER NOT NULL REFERENCES protected_branch_new (id) ON DELETE CASCADE,
    list          TEXT    NOT NULL,
    pos           INTEGER NOT NULL,
    value         TEXT    NOT NULL,
    PRIMARY KEY (protection_id, list, pos)
);
INSERT INTO protected_branch_entry (protection_id, list, pos, value)
    SELECT p.id, l.list, j.key, j.value
    FROM protected_branch p
    JOIN (SELECT 'push_users' AS list, '$.PushWhitelistUsernames' AS path
          UNION ALL SELECT 'push_teams', '$.PushWhitelistTeams'
          UNION ALL SELECT 'merge_users', '$.MergeWhitelistUsernames'
          UNION ALL SELECT 'merge_teams', '$.MergeWhitelistTeams'
          UNION ALL SELECT 'status_contexts', '$.StatusCheckContexts'
          UNION ALL SELECT 'approvals_users', '$.ApprovalsWhitelistUsernames'
          UNION ALL SELECT 'approvals_teams', '$.ApprovalsWhitelistTeams') l
    JOIN json_each(p.settings, l.path) j
    WHERE json_type(p.settings, l.path) = 'array';

DROP TABLE protected_branch;
ALTER TABLE protected_branch_new RENAME TO protected_branch;

-- list: users, teams.
CREATE TABLE protected_tag_entry (
    protection_id INTEGER NOT NULL REFERENCES protected_tag (id) ON DELETE CASCADE,
    list          TEXT    NOT NULL,
    pos           INTEGER NOT NULL,
    value         TEXT    NOT NULL,
    PRIMARY KEY (protection_id, list, pos)
);
INSERT INTO protected_tag_entry (protection_id, list, pos, value)
    SELECT t.id, 'users', j.key, j.value FROM protected_tag t, json_each(t.usernames) j;
INSERT INTO protected_tag_entry (protection_id, list, pos, value)
    SELECT t.id, 'teams', j.key, j.value FROM protected_tag t, json_each(t.teams) j;
ALTER TABLE protected_tag DROP COLUMN usernames;
ALTER TABLE protected_tag DROP COLUMN teams;

-- +goose Down
ALTER TABLE protected_tag ADD COLUMN usernames TEXT NOT NULL DEFAULT '[]';
ALTER TABLE protected_tag ADD COLUMN teams TEXT NOT NULL DEFAULT '[]';
UPDATE protected_tag SET
    usernames = coalesce((SELECT json_group_array(value) FROM (SELECT value FROM protected_tag_entry e
        WHERE e.protection_id = protected_tag.id AND e.list = 'users' ORDER BY pos)), '[]'),
    teams = coalesce((SELECT json_group_array(value) FROM (SELECT value FROM protected_tag_entry e
        WHERE e.protection_id = protected_tag.id AND e.list = 'teams' ORDER BY pos)), '[]');
DROP TABLE protected_tag_entry;
CREATE TABLE protected_branch_old (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    repo_id      INTEGER NOT NULL REFERENCES repository (id) ON DELETE CASCADE,
    rule_name    TEXT    NOT NULL,
    settings     TEXT    NOT NULL,
    created_unix INTEGER NOT NULL,
    updated_unix INTEGER NOT NULL,
    UNIQUE (repo_id, rule_name)
);
INSERT INTO protected_branch_old SELECT id, repo_id, rule_name, json_object(
    'EnablePush', json(CASE enable_push WHEN 1 THEN 'true' ELSE 'false' END),
    'RequiredApprovals', required_approvals,
    'ProtectedFilePatterns', protected_file_patterns,
    'UnprotectedFilePatterns', unprotected_file_patterns), created_unix, updated_unix FROM protected_branch;
DROP TABLE protected_branch_entry;
DROP TABLE protected_branch;
ALTER TABLE protected_branch_old RENAME TO protected_branch;
