-- +goose Up
-- Quota (package quota): rules, their subjects, groups, the rules of each
-- group, memberships of accounts (users and organisations), and the usage
-- counters. Forgejo stores a rule's subjects as a JSON list of ordinals;
-- here they are rows of quota_rule_subject in their given order (a rule
-- may list a subject twice: Forgejo then counts it twice).
CREATE TABLE quota_rule (
    name  TEXT    NOT NULL PRIMARY KEY,
    lim   INTEGER NOT NULL
);
CREATE TABLE quota_rule_subject (
    rule_name TEXT    NOT NULL REFERENCES quota_rule (name) ON DELETE CASCADE,
    position  INTEGER NOT NULL,
    subject   TEXT    NOT NULL,
    PRIMARY KEY (rule_name, position)
) WITHOUT ROWID;
CREATE TABLE quota_group (
    name TEXT NOT NULL PRIMARY KEY
);
CREATE TABLE quota_group_rule (
    group_name TEXT NOT NULL REFERENCES quota_group (name) ON DELETE CASCADE,
    rule_name  TEXT NOT NULL REFERENCES quota_rule (name) ON DELETE CASCADE,
    PRIMARY KEY (group_name, rule_name)
) WITHOUT ROWID;
CREATE INDEX quota_group_rule_rule ON quota_group_rule (rule_name);
CREATE TABLE quota_group_member (
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    group_name TEXT    NOT NULL REFERENCES quota_group (name) ON DELETE CASCADE,
    PRIMARY KEY (user_id, group_name)
) WITHOUT ROWID;
CREATE INDEX quota_group_member_group ON quota_group_member (group_name);

-- Usage counters. A repository's (attachments, LFS, artifacts, linked
-- packages) belong to whoever owns it now, so transfers and visibility
-- changes write no counter; an account's own hold what no repository
-- holds (unlinked packages). The git size of a repository is its size
-- column.
CREATE TABLE quota_repo_usage (
    repo_id INTEGER NOT NULL REFERENCES repository (id) ON DELETE CASCADE,
    bucket  TEXT    NOT NULL,
    bytes   INTEGER NOT NULL,
    PRIMARY KEY (repo_id, bucket)
) WITHOUT ROWID;
CREATE TABLE quota_owner_usage (
    owner_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    bucket   TEXT    NOT NULL,
    bytes    INTEGER NOT NULL,
    PRIMARY KEY (owner_id, bucket)
) WITHOUT ROWID;

-- The attachment counters follow the attachment rows in the statement
-- that writes them, cascades included. Deletes only UPDATE: when the
-- repository itself is being deleted its counters go with it.
-- +goose StatementBegin
CREATE TRIGGER quota_issue_attachment_insert AFTER INSERT ON issue_attachment BEGIN
    INSERT INTO quota_repo_usage (repo_id, bucket, bytes)
    VALUES (NEW.repo_id, 'size:assets:attachments:issues', NEW.size)
    ON CONFLICT (repo_id, bucket) DO UPDATE SET bytes = bytes + excluded.bytes;
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER quota_issue_attachment_delete AFTER DELETE ON issue_attachment BEGIN
    UPDATE quota_repo_usage SET bytes = bytes - OLD.size
    WHERE repo_id = OLD.repo_id AND bucket = 'size:assets:attachments:issues';
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER quota_issue_attachment_update AFTER UPDATE OF size, repo_id ON issue_attachment BEGIN
    UPDATE quota_repo_usage SET bytes = bytes - OLD.size
    WHERE repo_id = OLD.repo_id AND bucket = 'size:assets:attachments:issues';
    INSERT INTO quota_repo_usage (repo_id, bucket, bytes)
    VALUES (NEW.repo_id, 'size:assets:attachments:issues', NEW.size)
    ON CONFLICT (repo_id, bucket) DO UPDATE SET bytes = bytes + excluded.bytes;
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER quota_attachment_insert AFTER INSERT ON attachment BEGIN
    INSERT INTO quota_repo_usage (repo_id, bucket, bytes)
    VALUES (NEW.repo_id, 'size:assets:attachments:releases', NEW.size)
    ON CONFLICT (repo_id, bucket) DO UPDATE SET bytes = bytes + excluded.bytes;
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER quota_attachment_delete AFTER DELETE ON attachment BEGIN
    UPDATE quota_repo_usage SET bytes = bytes - OLD.size
    WHERE repo_id = OLD.repo_id AND bucket = 'size:assets:attachments:releases';
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER quota_attachment_update AFTER UPDATE OF size, repo_id ON attachment BEGIN
    UPDATE quota_repo_usage SET bytes = bytes - OLD.size
    WHERE repo_id = OLD.repo_id AND bucket = 'size:assets:attachments:releases';
    INSERT INTO quota_repo_usage (repo_id, bucket, bytes)
    VALUES (NEW.repo_id, 'size:assets:attachments:releases', NEW.size)
    ON CONFLICT (repo_id, bucket) DO UPDATE SET bytes = bytes + excluded.bytes;
END;
-- +goose StatementEnd

-- Existing attachments, counted once.
INSERT INTO quota_repo_usage (repo_id, bucket, bytes)
SELECT repo_id, 'size:assets:attachments:issues', SUM(size) FROM issue_attachment GROUP BY repo_id;
INSERT INTO quota_repo_usage (repo_id, bucket, bytes)
SELECT repo_id, 'size:assets:attachments:releases', SUM(size) FROM attachment GROUP BY repo_id;

-- +goose Down
DROP TRIGGER quota_attachment_update;
DROP TRIGGER quota_attachment_delete;
DROP TRIGGER quota_attachment_insert;
DROP TRIGGER quota_issue_attachment_update;
DROP TRIGGER quota_issue_attachment_delete;
DROP TRIGGER quota_issue_attachment_insert;
DROP TABLE quota_owner_usage;
DROP TABLE quota_repo_usage;
DROP TABLE quota_group_member;
DROP TABLE quota_group_rule;
DROP TABLE quota_group;
DROP TABLE quota_rule_subject;
DROP TABLE quota_rule;
