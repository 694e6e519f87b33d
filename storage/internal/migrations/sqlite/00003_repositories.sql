-- +goose Up
CREATE TABLE repository (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    owner_id       INTEGER NOT NULL REFERENCES users (id),
    name           TEXT    NOT NULL,
    lower_name     TEXT    NOT NULL,
    description    TEXT    NOT NULL DEFAULT '',
    website        TEXT    NOT NULL DEFAULT '',
    is_private     INTEGER NOT NULL DEFAULT 0,
    is_template    INTEGER NOT NULL DEFAULT 0,
    is_archived    INTEGER NOT NULL DEFAULT 0,
    is_empty       INTEGER NOT NULL DEFAULT 1,
    archived_unix  INTEGER NOT NULL DEFAULT 0,
    default_branch TEXT    NOT NULL,
    object_format  TEXT    NOT NULL DEFAULT 'sha1',
    size           INTEGER NOT NULL DEFAULT 0,
    num_stars      INTEGER NOT NULL DEFAULT 0,
    num_watches    INTEGER NOT NULL DEFAULT 0,
    num_forks      INTEGER NOT NULL DEFAULT 0,
    -- units, trackers and pull-request settings: read and written whole
    settings       TEXT    NOT NULL DEFAULT '{}',
    topics         TEXT    NOT NULL DEFAULT '[]',
    created_unix   INTEGER NOT NULL,
    updated_unix   INTEGER NOT NULL,
    UNIQUE (owner_id, lower_name)
);

CREATE TABLE collaboration (
    repo_id INTEGER NOT NULL REFERENCES repository (id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    mode    INTEGER NOT NULL,
    PRIMARY KEY (repo_id, user_id)
);
CREATE INDEX collaboration_user ON collaboration (user_id);

CREATE TABLE watch (
    repo_id      INTEGER NOT NULL REFERENCES repository (id) ON DELETE CASCADE,
    user_id      INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    mode         INTEGER NOT NULL,
    created_unix INTEGER NOT NULL,
    PRIMARY KEY (repo_id, user_id)
);

CREATE TABLE star (
    repo_id      INTEGER NOT NULL REFERENCES repository (id) ON DELETE CASCADE,
    user_id      INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_unix INTEGER NOT NULL,
    PRIMARY KEY (repo_id, user_id)
);

CREATE TABLE protected_branch (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    repo_id      INTEGER NOT NULL REFERENCES repository (id) ON DELETE CASCADE,
    rule_name    TEXT    NOT NULL,
    settings     TEXT    NOT NULL,
    created_unix INTEGER NOT NULL,
    updated_unix INTEGER NOT NULL,
    UNIQUE (repo_id, rule_name)
);

-- +goose Down
DROP TABLE protected_branch;
DROP TABLE star;
DROP TABLE watch;
DROP TABLE collaboration;
DROP TABLE repository;
