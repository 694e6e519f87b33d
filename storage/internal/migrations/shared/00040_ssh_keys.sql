-- +goose Up
-- Public SSH keys (Forgejo's public_key): a user's key (owner_id set, type
-- 'user') or the content shared by deploy keys (owner_id NULL, type
-- 'deploy'). The fingerprint ("SHA256:…", as ssh-keygen -lf prints it)
-- is unique: one content, one row. mode is Forgejo's access mode (1 read,
-- 2 write). Times are Unix seconds.
CREATE TABLE public_key (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    owner_id     INTEGER REFERENCES users (id) ON DELETE CASCADE,
    name         TEXT    NOT NULL,
    fingerprint  TEXT    NOT NULL,
    content      TEXT    NOT NULL,
    mode         INTEGER NOT NULL,
    type         TEXT    NOT NULL,
    created_unix INTEGER NOT NULL,
    updated_unix INTEGER NOT NULL
);
CREATE UNIQUE INDEX public_key_fingerprint ON public_key (fingerprint);
CREATE INDEX public_key_owner ON public_key (owner_id, id);

-- Deploy keys (Forgejo's deploy_key): a public key deployed on a
-- repository, read-only (mode 1) or read-write (mode 2); one per key and
-- repository, names unique per repository.
CREATE TABLE deploy_key (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    key_id       INTEGER NOT NULL REFERENCES public_key (id) ON DELETE CASCADE,
    repo_id      INTEGER NOT NULL REFERENCES repository (id) ON DELETE CASCADE,
    name         TEXT    NOT NULL,
    mode         INTEGER NOT NULL,
    created_unix INTEGER NOT NULL,
    updated_unix INTEGER NOT NULL
);
CREATE UNIQUE INDEX deploy_key_repo_key ON deploy_key (repo_id, key_id);
CREATE UNIQUE INDEX deploy_key_repo_name ON deploy_key (repo_id, name);
CREATE INDEX deploy_key_key ON deploy_key (key_id);

-- +goose Down
DROP TABLE deploy_key;
DROP TABLE public_key;
