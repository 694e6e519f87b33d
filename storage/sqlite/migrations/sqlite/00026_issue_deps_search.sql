-- +goose Up
-- The issue a dependency event (comment types 19 and 20) names: Forgejo's
-- comment.dependent_issue_id. A dependency comment goes with the issue it
-- names (Forgejo's DeleteIssuesByRepoID deletes them with it).
ALTER TABLE comment ADD COLUMN dependent_issue_id INTEGER NOT NULL DEFAULT 0;
CREATE INDEX comment_dependent ON comment (dependent_issue_id) WHERE dependent_issue_id <> 0;

-- +goose StatementBegin
CREATE TRIGGER comment_dependent_delete AFTER DELETE ON issue BEGIN
    DELETE FROM comment WHERE dependent_issue_id = old.id;
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER IF EXISTS comment_dependent_delete;
DROP INDEX IF EXISTS comment_dependent;
ALTER TABLE comment DROP COLUMN dependent_issue_id;
