-- +goose Up
CREATE TABLE login_source (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    type         TEXT    NOT NULL,
    name         TEXT    NOT NULL UNIQUE,
    is_active    INTEGER NOT NULL DEFAULT 1,
    created_unix INTEGER NOT NULL,
    updated_unix INTEGER NOT NULL
);

CREATE TABLE two_factor (
    uid                INTEGER PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    secret             TEXT    NOT NULL,
    scratch_hash       TEXT    NOT NULL,
    last_used_passcode TEXT    NOT NULL DEFAULT '',
    created_unix       INTEGER NOT NULL,
    updated_unix       INTEGER NOT NULL
);

-- +goose Down
DROP TABLE two_factor;
DROP TABLE login_source;
