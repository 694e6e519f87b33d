-- +goose Up
-- Protection whitelists name users by id, as Forgejo's do: a right stays
-- with its user through renames and goes with the account (ON DELETE
-- CASCADE), and a new account that takes a freed name gets nothing.
-- Stored names become the ids of the users that have them now; names no
-- user has are dropped.
-- list: push, merge, approvals.
CREATE TABLE protected_branch_user (
    protection_id INTEGER NOT NULL REFERENCES protected_branch (id) ON DELETE CASCADE,
    list          TEXT    NOT NULL,
    pos           INTEGER NOT NULL,
    user_id       INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    PRIMARY KEY (protection_id, list, pos),
    UNIQUE (protection_id, list, user_id)
);
CREATE INDEX protected_branch_user_user ON protected_branch_user (user_id);
INSERT OR IGNORE INTO protected_branch_user (protection_id, list, pos, user_id)
    SELECT e.protection_id, substr(e.list, 1, length(e.list) - length('_users')), e.pos, u.id
    FROM protected_branch_entry e
    JOIN users u ON u.lower_name = lower(e.value) OR u.name = e.value
    WHERE e.list IN ('push_users', 'merge_users', 'approvals_users')
    ORDER BY e.protection_id, e.list, e.pos;
DELETE FROM protected_branch_entry WHERE list IN ('push_users', 'merge_users', 'approvals_users');

CREATE TABLE protected_tag_user (
    protection_id INTEGER NOT NULL REFERENCES protected_tag (id) ON DELETE CASCADE,
    pos           INTEGER NOT NULL,
    user_id       INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    PRIMARY KEY (protection_id, pos),
    UNIQUE (protection_id, user_id)
);
CREATE INDEX protected_tag_user_user ON protected_tag_user (user_id);
INSERT OR IGNORE INTO protected_tag_user (protection_id, pos, user_id)
    SELECT e.protection_id, e.pos, u.id
    FROM protected_tag_entry e
    JOIN users u ON u.lower_name = lower(e.value) OR u.name = e.value
    WHERE e.list = 'users'
    ORDER BY e.protection_id, e.pos;
DELETE FROM protected_tag_entry WHERE list = 'users';

-- +goose Down
INSERT INTO protected_branch_entry (protection_id, list, pos, value)
    SELECT b.protection_id, b.list || '_users', b.pos, u.name
    FROM protected_branch_user b JOIN users u ON u.id = b.user_id;
INSERT INTO protected_tag_entry (protection_id, list, pos, value)
    SELECT t.protection_id, 'users', t.pos, u.name
    FROM protected_tag_user t JOIN users u ON u.id = t.user_id;
DROP TABLE protected_tag_user;
DROP TABLE protected_branch_user;
