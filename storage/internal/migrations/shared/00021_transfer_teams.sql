-- +goose Up
-- The teams a pending transfer gives the repository on acceptance
-- (Forgejo's repo_transfer.team_ids), in the order given.
CREATE TABLE repo_transfer_team (
    repo_id INTEGER NOT NULL REFERENCES repo_transfer (repo_id) ON DELETE CASCADE,
    pos     INTEGER NOT NULL,
    team_id INTEGER NOT NULL REFERENCES team (id) ON DELETE CASCADE,
    PRIMARY KEY (repo_id, pos)
);
CREATE INDEX repo_transfer_team_team ON repo_transfer_team (team_id);

-- +goose Down
DROP TABLE repo_transfer_team;
