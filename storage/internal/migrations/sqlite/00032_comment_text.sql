-- +goose Up
-- The text of the plain comments for the keyword search of issues: Forgejo's
-- issue indexer matches the keyword in an issue's title, its content and
-- the content of its comments (type 0). Trigrams, as issue_text (00014):
-- any substring of three characters or more, ignoring case. It indexes
-- the comment table's own column (content=comment); the triggers keep it in
-- step in the transaction of each comment write.
CREATE VIRTUAL TABLE comment_text USING fts5 (body, content = 'comment', content_rowid = 'id', tokenize = 'trigram');
INSERT INTO comment_text (rowid, body) SELECT id, body FROM comment WHERE type = 0;

-- +goose StatementBegin
CREATE TRIGGER comment_text_insert AFTER INSERT ON comment WHEN NEW.type = 0 BEGIN
    INSERT INTO comment_text (rowid, body) VALUES (NEW.id, NEW.body);
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER comment_text_delete AFTER DELETE ON comment WHEN OLD.type = 0 BEGIN
    INSERT INTO comment_text (comment_text, rowid, body) VALUES ('delete', OLD.id, OLD.body);
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER comment_text_update AFTER UPDATE OF body, type ON comment BEGIN
    INSERT INTO comment_text (comment_text, rowid, body) SELECT 'delete', OLD.id, OLD.body WHERE OLD.type = 0;
    INSERT INTO comment_text (rowid, body) SELECT NEW.id, NEW.body WHERE NEW.type = 0;
END;
-- +goose StatementEnd

-- The repository condition of the issue search (SearchableRepos) reads
-- these columns of every repository: a covering index spares it the
-- repository rows, which are wide.
CREATE INDEX repository_issue_search ON repository (status, owner_id, is_private, has_issues, external_tracker, has_pull_requests);

-- +goose Down
DROP INDEX repository_issue_search;
DROP TRIGGER comment_text_update;
DROP TRIGGER comment_text_delete;
DROP TRIGGER comment_text_insert;
DROP TABLE comment_text;
