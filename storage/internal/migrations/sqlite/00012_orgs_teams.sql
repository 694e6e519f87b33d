-- +goose Up
-- Organisations are rows of users with type 1. An uploaded avatar's blob
-- key, and the organisation setting letting repository administrators
-- change team access.
ALTER TABLE users ADD COLUMN avatar TEXT NOT NULL DEFAULT '';
ALTER TABLE users ADD COLUMN repo_admin_change_team_access INTEGER NOT NULL DEFAULT 0;

-- Membership of an organisation (Forgejo's org_user).
CREATE TABLE org_user (
    org_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    uid       INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    is_public INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (org_id, uid)
);
CREATE INDEX org_user_uid ON org_user (uid);

-- authorize is the team's access mode (0 none .. 4 owner).
CREATE TABLE team (
    id                        INTEGER PRIMARY KEY AUTOINCREMENT,
    org_id                    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name                      TEXT    NOT NULL,
    lower_name                TEXT    NOT NULL,
    description               TEXT    NOT NULL DEFAULT '',
    authorize                 INTEGER NOT NULL DEFAULT 0,
    includes_all_repositories INTEGER NOT NULL DEFAULT 0,
    can_create_org_repo       INTEGER NOT NULL DEFAULT 0,
    UNIQUE (org_id, lower_name)
);

-- A team's access per unit (unit holds Forgejo's key, e.g. repo.code).
CREATE TABLE team_unit (
    team_id     INTEGER NOT NULL REFERENCES team (id) ON DELETE CASCADE,
    unit        TEXT    NOT NULL,
    access_mode INTEGER NOT NULL,
    PRIMARY KEY (team_id, unit)
);

CREATE TABLE team_user (
    team_id INTEGER NOT NULL REFERENCES team (id) ON DELETE CASCADE,
    uid     INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    PRIMARY KEY (team_id, uid)
);
CREATE INDEX team_user_uid ON team_user (uid);

-- Teams that include all repositories hold a row per repository too.
CREATE TABLE team_repo (
    team_id INTEGER NOT NULL REFERENCES team (id) ON DELETE CASCADE,
    repo_id INTEGER NOT NULL REFERENCES repository (id) ON DELETE CASCADE,
    PRIMARY KEY (team_id, repo_id)
);
CREATE INDEX team_repo_repo ON team_repo (repo_id);

-- user_id blocks block_id (Forgejo's forgejo_blocked_user).
CREATE TABLE user_block (
    user_id      INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    block_id     INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_unix INTEGER NOT NULL,
    PRIMARY KEY (user_id, block_id)
);
CREATE INDEX user_block_block ON user_block (block_id);

-- +goose Down
DROP TABLE user_block;
DROP TABLE team_repo;
DROP TABLE team_user;
DROP TABLE team_unit;
DROP TABLE team;
DROP TABLE org_user;
ALTER TABLE users DROP COLUMN repo_admin_change_team_access;
ALTER TABLE users DROP COLUMN avatar;
