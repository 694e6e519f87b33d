-- +goose Up
CREATE TABLE users (
    id                        INTEGER PRIMARY KEY AUTOINCREMENT,
    name                      TEXT    NOT NULL,
    lower_name                TEXT    NOT NULL UNIQUE,
    full_name                 TEXT    NOT NULL DEFAULT '',
    email                     TEXT    NOT NULL,
    lower_email               TEXT    NOT NULL UNIQUE,
    hide_email                INTEGER NOT NULL DEFAULT 0,
    location                  TEXT    NOT NULL DEFAULT '',
    website                   TEXT    NOT NULL DEFAULT '',
    description               TEXT    NOT NULL DEFAULT '',
    pronouns                  TEXT    NOT NULL DEFAULT '',
    language                  TEXT    NOT NULL DEFAULT '',
    visibility                TEXT    NOT NULL DEFAULT 'public',
    is_admin                  INTEGER NOT NULL DEFAULT 0,
    is_active                 INTEGER NOT NULL DEFAULT 1,
    prohibit_login            INTEGER NOT NULL DEFAULT 0,
    restricted                INTEGER NOT NULL DEFAULT 0,
    must_change_password      INTEGER NOT NULL DEFAULT 0,
    login_source              INTEGER NOT NULL DEFAULT 0,
    login_name                TEXT    NOT NULL DEFAULT '',
    allow_git_hook            INTEGER NOT NULL DEFAULT 0,
    allow_import_local        INTEGER NOT NULL DEFAULT 0,
    allow_create_organization INTEGER NOT NULL DEFAULT 1,
    max_repo_creation         INTEGER NOT NULL DEFAULT -1,
    password_hash             TEXT    NOT NULL DEFAULT '',
    created_unix              INTEGER NOT NULL,
    updated_unix              INTEGER NOT NULL,
    last_login_unix           INTEGER NOT NULL DEFAULT 0,
    -- version grows on every update of the row; see storage/sqlite usercache.go
    version                   INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX users_admin ON users (is_admin) WHERE is_admin = 1;

CREATE TABLE access_token (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    uid              INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name             TEXT    NOT NULL,
    token_hash       TEXT    NOT NULL UNIQUE,
    token_last_eight TEXT    NOT NULL,
    scope            TEXT    NOT NULL,
    created_unix     INTEGER NOT NULL,
    updated_unix     INTEGER NOT NULL,
    UNIQUE (uid, name)
);

-- +goose Down
DROP TABLE access_token;
DROP TABLE users;
