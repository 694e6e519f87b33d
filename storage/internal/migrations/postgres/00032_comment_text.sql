-- +goose Up
-- The text of the plain comments for the keyword search of issues (see the
-- sqlite migration: an FTS5 trigram table there, a trigram index here).
CREATE INDEX comment_text ON comment USING gin (body gin_trgm_ops) WHERE type = 0;

-- The repository condition of the issue search reads these columns of
-- every repository: a covering index spares it the wide repository rows.
CREATE INDEX repository_issue_search ON repository (status, owner_id, is_private, has_issues, external_tracker, has_pull_requests);

-- +goose Down
DROP INDEX repository_issue_search;
DROP INDEX comment_text;
