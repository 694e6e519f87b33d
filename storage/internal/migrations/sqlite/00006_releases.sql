-- +goose Up
CREATE TABLE release (
    id                 INTEGER PRIMARY KEY AUTOINCREMENT,
    repo_id            INTEGER NOT NULL REFERENCES repository (id) ON DELETE CASCADE,
    author_id          INTEGER NOT NULL,
    tag_name           TEXT    NOT NULL,
    lower_tag_name     TEXT    NOT NULL,
    target             TEXT    NOT NULL,
    name               TEXT    NOT NULL DEFAULT '',
    body               TEXT    NOT NULL DEFAULT '',
    is_draft           INTEGER NOT NULL DEFAULT 0,
    is_prerelease      INTEGER NOT NULL DEFAULT 0,
    hide_archive_links INTEGER NOT NULL DEFAULT 0,
    created_unix       INTEGER NOT NULL,
    UNIQUE (repo_id, lower_tag_name)
);

CREATE TABLE attachment (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    uuid           TEXT    NOT NULL UNIQUE,
    repo_id        INTEGER NOT NULL REFERENCES repository (id) ON DELETE CASCADE,
    release_id     INTEGER NOT NULL REFERENCES release (id) ON DELETE CASCADE,
    uploader_id    INTEGER NOT NULL,
    name           TEXT    NOT NULL,
    size           INTEGER NOT NULL DEFAULT 0,
    download_count INTEGER NOT NULL DEFAULT 0,
    external_url   TEXT    NOT NULL DEFAULT '',
    created_unix   INTEGER NOT NULL
);
CREATE INDEX attachment_release ON attachment (release_id);

-- +goose Down
DROP TABLE attachment;
DROP TABLE release;
