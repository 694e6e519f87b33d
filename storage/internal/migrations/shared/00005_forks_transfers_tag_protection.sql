-- +goose Up
ALTER TABLE repository ADD COLUMN fork_id INTEGER NOT NULL DEFAULT 0;
CREATE INDEX repository_fork ON repository (fork_id) WHERE fork_id > 0;

CREATE TABLE repo_transfer (
    repo_id      INTEGER PRIMARY KEY REFERENCES repository (id) ON DELETE CASCADE,
    doer_id      INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    recipient_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_unix INTEGER NOT NULL
);

CREATE TABLE protected_tag (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    repo_id      INTEGER NOT NULL REFERENCES repository (id) ON DELETE CASCADE,
    name_pattern TEXT    NOT NULL,
    usernames    TEXT    NOT NULL DEFAULT '[]',
    teams        TEXT    NOT NULL DEFAULT '[]',
    created_unix INTEGER NOT NULL,
    updated_unix INTEGER NOT NULL
);

-- +goose Down
DROP TABLE protected_tag;
DROP TABLE repo_transfer;
DROP INDEX repository_fork;
ALTER TABLE repository DROP COLUMN fork_id;
