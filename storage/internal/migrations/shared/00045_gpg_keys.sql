-- +goose Up
-- GPG keys (Forgejo's gpg_key; forge/gpgkeys): one row per primary key
-- (primary_key_id '') and one per subkey (primary_key_id its primary's
-- key_id). key_id is unique over all users, as Forgejo refuses a key id
-- stored already. armored is the block the user sent, on the primary row
-- only (Forgejo's gpg_key_import). emails is a JSON array of
-- {"email","verified"}. Flags are 0/1 on both engines; times are Unix
-- seconds, expired_unix 0 for a key that does not expire.
CREATE TABLE gpg_key (
    id                  INTEGER PRIMARY KEY AUTOINCREMENT,
    owner_id            INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    key_id              TEXT    NOT NULL,
    primary_key_id      TEXT    NOT NULL DEFAULT '',
    content             TEXT    NOT NULL,
    armored             TEXT    NOT NULL DEFAULT '',
    created_unix        INTEGER NOT NULL,
    expired_unix        INTEGER NOT NULL DEFAULT 0,
    added_unix          INTEGER NOT NULL,
    emails              TEXT    NOT NULL DEFAULT '[]',
    verified            INTEGER NOT NULL DEFAULT 0,
    can_sign            INTEGER NOT NULL DEFAULT 0,
    can_encrypt_comms   INTEGER NOT NULL DEFAULT 0,
    can_encrypt_storage INTEGER NOT NULL DEFAULT 0,
    can_certify         INTEGER NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX gpg_key_key_id ON gpg_key (key_id);
CREATE INDEX gpg_key_owner ON gpg_key (owner_id, primary_key_id, id);
CREATE INDEX gpg_key_primary ON gpg_key (primary_key_id);

-- +goose Down
DROP TABLE gpg_key;
