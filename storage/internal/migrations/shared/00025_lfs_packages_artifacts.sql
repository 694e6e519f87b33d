-- +goose Up
-- lfs_meta_object: a repository's Git LFS objects (their bytes are blobs
-- keyed by oid, shared by the repositories holding the oid).
CREATE TABLE lfs_meta_object (
    repo_id      INTEGER NOT NULL REFERENCES repository (id) ON DELETE CASCADE,
    oid          TEXT    NOT NULL,
    size         INTEGER NOT NULL,
    created_unix INTEGER NOT NULL,
    PRIMARY KEY (repo_id, oid)
);
CREATE INDEX lfs_meta_object_oid ON lfs_meta_object (oid);

-- package: a package of an owner (user or organisation), by type and name
-- (names compare ignoring case); repo_id links it to one of the owner's
-- repositories.
CREATE TABLE package (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    owner_id     INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    repo_id      INTEGER REFERENCES repository (id) ON DELETE SET NULL,
    type         TEXT    NOT NULL,
    name         TEXT    NOT NULL,
    lower_name   TEXT    NOT NULL,
    created_unix INTEGER NOT NULL,
    UNIQUE (owner_id, type, lower_name)
);

-- package_version: a version of a package (compared ignoring case).
CREATE TABLE package_version (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    package_id    INTEGER NOT NULL REFERENCES package (id) ON DELETE CASCADE,
    creator_id    INTEGER NOT NULL DEFAULT 0,
    version       TEXT    NOT NULL,
    lower_version TEXT    NOT NULL,
    created_unix  INTEGER NOT NULL,
    UNIQUE (package_id, lower_version)
);

-- package_file: a file of a version; its bytes are the blob blob_key.
CREATE TABLE package_file (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    version_id   INTEGER NOT NULL REFERENCES package_version (id) ON DELETE CASCADE,
    name         TEXT    NOT NULL,
    lower_name   TEXT    NOT NULL,
    blob_key     TEXT    NOT NULL,
    size         INTEGER NOT NULL,
    hash_md5     TEXT    NOT NULL,
    hash_sha1    TEXT    NOT NULL,
    hash_sha256  TEXT    NOT NULL,
    hash_sha512  TEXT    NOT NULL,
    created_unix INTEGER NOT NULL,
    UNIQUE (version_id, lower_name)
);

-- action_artifact: a file an Actions run uploaded; its bytes are the blob
-- blob_key until it expires (status 'expired' keeps the row, not the blob).
CREATE TABLE action_artifact (
    id                   INTEGER PRIMARY KEY AUTOINCREMENT,
    repo_id              INTEGER NOT NULL REFERENCES repository (id) ON DELETE CASCADE,
    run_id               INTEGER NOT NULL,
    name                 TEXT    NOT NULL,
    blob_key             TEXT    NOT NULL,
    file_size            INTEGER NOT NULL,
    file_compressed_size INTEGER NOT NULL,
    status               TEXT    NOT NULL,
    created_unix         INTEGER NOT NULL,
    expired_unix         INTEGER NOT NULL,
    UNIQUE (run_id, name)
);
CREATE INDEX action_artifact_repo ON action_artifact (repo_id);
CREATE INDEX action_artifact_due ON action_artifact (status, expired_unix);

-- +goose Down
DROP TABLE action_artifact;
DROP TABLE package_file;
DROP TABLE package_version;
DROP TABLE package;
DROP TABLE lfs_meta_object;
