-- +goose Up
-- Forgejo Actions. A row belongs to a repository (repo_id set, owner_id 0),
-- a user or organisation (owner_id set, repo_id 0), or, for runners and
-- registration tokens, the instance (both 0). The ids are not foreign keys
-- because 0 is no row; triggers remove what belonged to a deleted
-- repository or account.

-- data is the value sealed with AES-GCM under the server key.
CREATE TABLE secret (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    owner_id     INTEGER NOT NULL DEFAULT 0,
    repo_id      INTEGER NOT NULL DEFAULT 0,
    name         TEXT    NOT NULL,
    data         TEXT    NOT NULL,
    created_unix INTEGER NOT NULL DEFAULT 0,
    UNIQUE (owner_id, repo_id, name)
);

CREATE TABLE action_variable (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    owner_id     INTEGER NOT NULL DEFAULT 0,
    repo_id      INTEGER NOT NULL DEFAULT 0,
    name         TEXT    NOT NULL,
    data         TEXT    NOT NULL DEFAULT '',
    created_unix INTEGER NOT NULL DEFAULT 0,
    UNIQUE (owner_id, repo_id, name)
);

CREATE TABLE action_runner_token (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    owner_id     INTEGER NOT NULL DEFAULT 0,
    repo_id      INTEGER NOT NULL DEFAULT 0,
    token        TEXT    NOT NULL UNIQUE,
    is_active    INTEGER NOT NULL DEFAULT 0,
    created_unix INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX action_runner_token_scope ON action_runner_token (owner_id, repo_id, id);

-- token_hash is the hex SHA-256 of the runner's token; labels are the
-- runner's labels, one per row of action_runner_label.
CREATE TABLE action_runner (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    uuid         TEXT    NOT NULL UNIQUE,
    owner_id     INTEGER NOT NULL DEFAULT 0,
    repo_id      INTEGER NOT NULL DEFAULT 0,
    name         TEXT    NOT NULL,
    description  TEXT    NOT NULL DEFAULT '',
    ephemeral    INTEGER NOT NULL DEFAULT 0,
    token_hash   TEXT    NOT NULL,
    version      TEXT    NOT NULL DEFAULT '',
    created_unix INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX action_runner_scope ON action_runner (owner_id, repo_id);

CREATE TABLE action_runner_label (
    runner_id INTEGER NOT NULL REFERENCES action_runner (id) ON DELETE CASCADE,
    position  INTEGER NOT NULL,
    label     TEXT    NOT NULL,
    PRIMARY KEY (runner_id, position)
);

CREATE TABLE action_run (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    repo_id         INTEGER NOT NULL REFERENCES repository (id) ON DELETE CASCADE,
    owner_id        INTEGER NOT NULL DEFAULT 0,
    "index"         INTEGER NOT NULL,
    title           TEXT    NOT NULL DEFAULT '',
    workflow_id     TEXT    NOT NULL DEFAULT '',
    ref             TEXT    NOT NULL DEFAULT '',
    commit_sha      TEXT    NOT NULL DEFAULT '',
    event           TEXT    NOT NULL DEFAULT '',
    trigger_user_id INTEGER NOT NULL DEFAULT 0,
    status          TEXT    NOT NULL DEFAULT '',
    created_unix    INTEGER NOT NULL DEFAULT 0,
    updated_unix    INTEGER NOT NULL DEFAULT 0,
    UNIQUE (repo_id, "index")
);

-- +goose StatementBegin
CREATE TRIGGER actions_repository_deleted AFTER DELETE ON repository
BEGIN
    DELETE FROM secret WHERE repo_id = old.id;
    DELETE FROM action_variable WHERE repo_id = old.id;
    DELETE FROM action_runner_token WHERE repo_id = old.id;
    DELETE FROM action_runner WHERE repo_id = old.id;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER actions_account_deleted AFTER DELETE ON users
BEGIN
    DELETE FROM secret WHERE owner_id = old.id;
    DELETE FROM action_variable WHERE owner_id = old.id;
    DELETE FROM action_runner_token WHERE owner_id = old.id;
    DELETE FROM action_runner WHERE owner_id = old.id;
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER actions_account_deleted;
DROP TRIGGER actions_repository_deleted;
DROP TABLE action_run;
DROP TABLE action_runner_label;
DROP TABLE action_runner;
DROP TABLE action_runner_token;
DROP TABLE action_variable;
DROP TABLE secret;
