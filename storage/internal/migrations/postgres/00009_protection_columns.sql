-- +goose Up
-- PostgreSQL: no PostgreSQL database predates this backend, so the data
-- copies of the SQLite migration are left out; the schema is the same.
-- Branch and tag protection rules get explicit columns and a child table
-- for their lists (they were JSON whose field names were Go's).
ALTER TABLE protected_branch ADD COLUMN enable_push BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE protected_branch ADD COLUMN enable_push_whitelist BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE protected_branch ADD COLUMN push_whitelist_deploy_keys BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE protected_branch ADD COLUMN enable_merge_whitelist BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE protected_branch ADD COLUMN enable_status_check BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE protected_branch ADD COLUMN required_approvals BIGINT NOT NULL DEFAULT 0;
ALTER TABLE protected_branch ADD COLUMN enable_approvals_whitelist BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE protected_branch ADD COLUMN block_on_rejected_reviews BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE protected_branch ADD COLUMN block_on_official_review_requests BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE protected_branch ADD COLUMN block_on_outdated_branch BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE protected_branch ADD COLUMN dismiss_stale_approvals BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE protected_branch ADD COLUMN ignore_stale_approvals BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE protected_branch ADD COLUMN require_signed_commits BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE protected_branch ADD COLUMN protected_file_patterns TEXT NOT NULL DEFAULT '';
ALTER TABLE protected_branch ADD COLUMN unprotected_file_patterns TEXT NOT NULL DEFAULT '';
ALTER TABLE protected_branch ADD COLUMN apply_to_admins BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE protected_branch DROP COLUMN settings;

-- list: push_users, push_teams, merge_users, merge_teams, status_contexts,
-- approvals_users, approvals_teams; pos keeps the order.
CREATE TABLE protected_branch_entry (
    protection_id BIGINT NOT NULL REFERENCES protected_branch (id) ON DELETE CASCADE,
    list          TEXT    NOT NULL,
    pos           BIGINT NOT NULL,
    value         TEXT    NOT NULL,
    PRIMARY KEY (protection_id, list, pos)
);


-- list: users, teams.
CREATE TABLE protected_tag_entry (
    protection_id BIGINT NOT NULL REFERENCES protected_tag (id) ON DELETE CASCADE,
    list          TEXT    NOT NULL,
    pos           BIGINT NOT NULL,
    value         TEXT    NOT NULL,
    PRIMARY KEY (protection_id, list, pos)
);
ALTER TABLE protected_tag DROP COLUMN usernames;
ALTER TABLE protected_tag DROP COLUMN teams;

-- +goose Down
ALTER TABLE protected_tag ADD COLUMN usernames TEXT NOT NULL DEFAULT '[]';
ALTER TABLE protected_tag ADD COLUMN teams TEXT NOT NULL DEFAULT '[]';
DROP TABLE protected_tag_entry;
DROP TABLE protected_branch_entry;
ALTER TABLE protected_branch ADD COLUMN settings TEXT NOT NULL DEFAULT '{}';
ALTER TABLE protected_branch DROP COLUMN enable_push;
ALTER TABLE protected_branch DROP COLUMN enable_push_whitelist;
ALTER TABLE protected_branch DROP COLUMN push_whitelist_deploy_keys;
ALTER TABLE protected_branch DROP COLUMN enable_merge_whitelist;
ALTER TABLE protected_branch DROP COLUMN enable_status_check;
ALTER TABLE protected_branch DROP COLUMN required_approvals;
ALTER TABLE protected_branch DROP COLUMN enable_approvals_whitelist;
ALTER TABLE protected_branch DROP COLUMN block_on_rejected_reviews;
ALTER TABLE protected_branch DROP COLUMN block_on_official_review_requests;
ALTER TABLE protected_branch DROP COLUMN block_on_outdated_branch;
ALTER TABLE protected_branch DROP COLUMN dismiss_stale_approvals;
ALTER TABLE protected_branch DROP COLUMN ignore_stale_approvals;
ALTER TABLE protected_branch DROP COLUMN require_signed_commits;
ALTER TABLE protected_branch DROP COLUMN protected_file_patterns;
ALTER TABLE protected_branch DROP COLUMN unprotected_file_patterns;
ALTER TABLE protected_branch DROP COLUMN apply_to_admins;
