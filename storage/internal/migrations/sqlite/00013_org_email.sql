-- +goose NO TRANSACTION
-- +goose Up
-- An organisation's e-mail is optional, neither unique nor looked up: only
-- people's e-mails are unique (a partial index). SQLite cannot drop the
-- inline UNIQUE of lower_email, so the users table is rebuilt (the
-- procedure of https://www.sqlite.org/lang_altertable.html#otheralter):
-- with foreign keys off, so that dropping the old table cascades to no
-- token, repository or membership, in one transaction that checks every
-- foreign key before it commits. The AUTOINCREMENT sequence carries over:
-- ids of deleted accounts are never given again.
PRAGMA foreign_keys = OFF;
BEGIN IMMEDIATE;
CREATE TABLE users_new (
    id                            INTEGER PRIMARY KEY AUTOINCREMENT,
    name                          TEXT    NOT NULL,
    lower_name                    TEXT    NOT NULL UNIQUE,
    full_name                     TEXT    NOT NULL DEFAULT '',
    email                         TEXT    NOT NULL,
    lower_email                   TEXT    NOT NULL,
    hide_email                    INTEGER NOT NULL DEFAULT 0,
    location                      TEXT    NOT NULL DEFAULT '',
    website                       TEXT    NOT NULL DEFAULT '',
    description                   TEXT    NOT NULL DEFAULT '',
    pronouns                      TEXT    NOT NULL DEFAULT '',
    language                      TEXT    NOT NULL DEFAULT '',
    visibility                    TEXT    NOT NULL DEFAULT 'public',
    is_admin                      INTEGER NOT NULL DEFAULT 0,
    is_active                     INTEGER NOT NULL DEFAULT 1,
    prohibit_login                INTEGER NOT NULL DEFAULT 0,
    restricted                    INTEGER NOT NULL DEFAULT 0,
    must_change_password          INTEGER NOT NULL DEFAULT 0,
    login_source                  INTEGER NOT NULL DEFAULT 0,
    login_name                    TEXT    NOT NULL DEFAULT '',
    allow_git_hook                INTEGER NOT NULL DEFAULT 0,
    allow_import_local            INTEGER NOT NULL DEFAULT 0,
    allow_create_organization     INTEGER NOT NULL DEFAULT 1,
    max_repo_creation             INTEGER NOT NULL DEFAULT -1,
    password_hash                 TEXT    NOT NULL DEFAULT '',
    created_unix                  INTEGER NOT NULL,
    updated_unix                  INTEGER NOT NULL,
    last_login_unix               INTEGER NOT NULL DEFAULT 0,
    -- version grows on every update of the row; see storage/sqlite usercache.go
    version                       INTEGER NOT NULL DEFAULT 1,
    -- 0 for people, 1 for organisations (Forgejo's values).
    type                          INTEGER NOT NULL DEFAULT 0,
    avatar                        TEXT    NOT NULL DEFAULT '',
    repo_admin_change_team_access INTEGER NOT NULL DEFAULT 0
);
INSERT INTO users_new (id, name, lower_name, full_name, email, lower_email, hide_email, location, website,
    description, pronouns, language, visibility, is_admin, is_active, prohibit_login, restricted,
    must_change_password, login_source, login_name, allow_git_hook, allow_import_local,
    allow_create_organization, max_repo_creation, password_hash, created_unix, updated_unix,
    last_login_unix, version, type, avatar, repo_admin_change_team_access)
SELECT id, name, lower_name, full_name, email, lower_email, hide_email, location, website,
    description, pronouns, language, visibility, is_admin, is_active, prohibit_login, restricted,
    must_change_password, login_source, login_name, allow_git_hook, allow_import_local,
    allow_create_organization, max_repo_creation, password_hash, created_unix, updated_unix,
    last_login_unix, version, type, avatar, repo_admin_change_team_access
FROM users;
DELETE FROM sqlite_sequence WHERE name = 'users_new';
INSERT INTO sqlite_sequence (name, seq) SELECT 'users_new', seq FROM sqlite_sequence WHERE name = 'users';
DROP TABLE users;
ALTER TABLE users_new RENAME TO users;
CREATE INDEX users_admin ON users (is_admin) WHERE is_admin = 1;
CREATE UNIQUE INDEX users_lower_email ON users (lower_email) WHERE type = 0;
-- Fails (CHECK) if any row refers to a missing user.
CREATE TEMP TABLE foreign_key_violations (n INTEGER NOT NULL CHECK (n = 0));
INSERT INTO foreign_key_violations SELECT count(*) FROM pragma_foreign_key_check;
DROP TABLE foreign_key_violations;
COMMIT;
PRAGMA foreign_keys = ON;

-- +goose Down
-- Every e-mail unique again: organisations, whose e-mails nothing looks
-- up, get a lookup key no e-mail can have.
BEGIN IMMEDIATE;
DROP INDEX users_lower_email;
UPDATE users SET lower_email = 'organization-' || id || '@invalid', version = version + 1 WHERE type = 1;
CREATE UNIQUE INDEX users_lower_email ON users (lower_email);
COMMIT;
