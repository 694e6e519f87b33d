-- +goose Up
-- mirror: a repository's pull mirror (one per repository). remote_address
-- has no userinfo; credentials are sealed apart (sealed_creds, "" if none).
-- next_update_unix 0 means never on schedule.
CREATE TABLE mirror (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    repo_id          INTEGER NOT NULL UNIQUE REFERENCES repository (id) ON DELETE CASCADE,
    remote_address   TEXT    NOT NULL,
    sealed_creds     TEXT    NOT NULL DEFAULT '',
    interval_ns      INTEGER NOT NULL,
    enable_prune     INTEGER NOT NULL DEFAULT 1,
    lfs              INTEGER NOT NULL DEFAULT 0,
    lfs_endpoint     TEXT    NOT NULL DEFAULT '',
    updated_unix     INTEGER NOT NULL DEFAULT 0,
    next_update_unix INTEGER NOT NULL DEFAULT 0,
    last_error       TEXT    NOT NULL DEFAULT '',
    failures         INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX mirror_next_update ON mirror (next_update_unix) WHERE next_update_unix > 0;

-- push_mirror: a repository's push mirrors, by generated remote name.
CREATE TABLE push_mirror (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    repo_id          INTEGER NOT NULL REFERENCES repository (id) ON DELETE CASCADE,
    remote_name      TEXT    NOT NULL,
    remote_address   TEXT    NOT NULL,
    sealed_creds     TEXT    NOT NULL DEFAULT '',
    public_key       TEXT    NOT NULL DEFAULT '',
    sync_on_commit   INTEGER NOT NULL DEFAULT 0,
    interval_ns      INTEGER NOT NULL,
    branch_filter    TEXT    NOT NULL DEFAULT '',
    created_unix     INTEGER NOT NULL,
    last_update_unix INTEGER NOT NULL DEFAULT 0,
    next_update_unix INTEGER NOT NULL DEFAULT 0,
    last_error       TEXT    NOT NULL DEFAULT '',
    failures         INTEGER NOT NULL DEFAULT 0,
    UNIQUE (repo_id, remote_name)
);
CREATE INDEX push_mirror_next_update ON push_mirror (next_update_unix) WHERE next_update_unix > 0;

-- mirror_lease: which scheduler (holder) syncs a mirror until expires_unix.
-- kind is 'pull' or 'push'; rows go with their mirror (deleted by the store).
CREATE TABLE mirror_lease (
    kind         TEXT    NOT NULL,
    mirror_id    INTEGER NOT NULL,
    holder       TEXT    NOT NULL,
    expires_unix INTEGER NOT NULL,
    PRIMARY KEY (kind, mirror_id)
);

-- +goose Down
DROP TABLE mirror_lease;
DROP TABLE push_mirror;
DROP TABLE mirror;
