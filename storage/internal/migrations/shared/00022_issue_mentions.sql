-- +goose Up
-- The users an issue's body and comments mention (Forgejo's
-- issue_user.is_mentioned), for the mentioned_by filter. Named `mention`
-- so that the issue% names stay those of 00014.
CREATE TABLE mention (
    issue_id INTEGER NOT NULL REFERENCES issue (id) ON DELETE CASCADE,
    user_id  INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    PRIMARY KEY (user_id, issue_id)
) WITHOUT ROWID;
CREATE INDEX mention_issue ON mention (issue_id);

-- +goose Down
DROP TABLE mention;
