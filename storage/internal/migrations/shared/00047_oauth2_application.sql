-- +goose Up
-- Users' OAuth2 applications (Forgejo's oauth2_application): the client
-- secret is kept as its SHA-256 digest in hex (auth/oauthapps.HashSecret),
-- redirect_uris as a JSON array of strings. Times are Unix seconds.
CREATE TABLE oauth2_application (
    id                  INTEGER PRIMARY KEY AUTOINCREMENT,
    uid                 INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name                TEXT    NOT NULL,
    client_id           TEXT    NOT NULL UNIQUE,
    client_secret_hash  TEXT    NOT NULL,
    redirect_uris       TEXT    NOT NULL,
    confidential_client INTEGER NOT NULL DEFAULT 1,
    created_unix        INTEGER NOT NULL,
    updated_unix        INTEGER NOT NULL
);
CREATE INDEX oauth2_application_uid ON oauth2_application (uid, id);

-- +goose Down
DROP TABLE oauth2_application;
