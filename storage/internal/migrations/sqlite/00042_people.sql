-- +goose Up
-- Follows, further e-mail addresses and settings of users (package auth).
-- num_followers and num_following count the follow rows of each user, kept
-- by the statements that add and remove follows (Forgejo's user columns).
ALTER TABLE users ADD COLUMN num_followers INTEGER NOT NULL DEFAULT 0;
ALTER TABLE users ADD COLUMN num_following INTEGER NOT NULL DEFAULT 0;
-- Privacy settings that decide what others see of the user.
ALTER TABLE users ADD COLUMN keep_pronouns_private INTEGER NOT NULL DEFAULT 0;
ALTER TABLE users ADD COLUMN keep_activity_private INTEGER NOT NULL DEFAULT 0;

-- user_id follows follow_id (Forgejo's follow table).
CREATE TABLE follow (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id      INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    follow_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_unix INTEGER NOT NULL,
    UNIQUE (user_id, follow_id)
);
CREATE INDEX follow_follow ON follow (follow_id);

-- A user's addresses besides its primary one (users.email); an address
-- belongs to one user whatever its case.
CREATE TABLE email_address (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    uid          INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    email        TEXT    NOT NULL,
    lower_email  TEXT    NOT NULL UNIQUE,
    is_activated INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX email_address_uid ON email_address (uid, id);

-- Preferences of a user that are not its profile; no row is the defaults.
CREATE TABLE user_setting (
    user_id                 INTEGER PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    theme                   TEXT    NOT NULL DEFAULT '',
    diff_view_style         TEXT    NOT NULL DEFAULT '',
    disable_repo_unit_hints INTEGER NOT NULL DEFAULT 0
);

-- +goose Down
DROP TABLE user_setting;
DROP TABLE email_address;
DROP TABLE follow;
ALTER TABLE users DROP COLUMN keep_activity_private;
ALTER TABLE users DROP COLUMN keep_pronouns_private;
ALTER TABLE users DROP COLUMN num_following;
ALTER TABLE users DROP COLUMN num_followers;
