-- +goose Up
CREATE TABLE commit_status (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    repo_id      INTEGER NOT NULL REFERENCES repository (id) ON DELETE CASCADE,
    sha          TEXT    NOT NULL,
    state        TEXT    NOT NULL,
    target_url   TEXT    NOT NULL DEFAULT '',
    description  TEXT    NOT NULL DEFAULT '',
    context      TEXT    NOT NULL DEFAULT '',
    creator_id   INTEGER NOT NULL,
    created_unix INTEGER NOT NULL,
    updated_unix INTEGER NOT NULL
);
CREATE INDEX commit_status_sha ON commit_status (repo_id, sha, id);

-- +goose Down
DROP TABLE commit_status;
