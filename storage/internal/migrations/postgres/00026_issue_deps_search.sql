-- +goose Up
-- The issue a dependency event (comment types 19 and 20) names: Forgejo's
-- comment.dependent_issue_id. A dependency comment goes with the issue it
-- names (Forgejo's DeleteIssuesByRepoID deletes them with it).
ALTER TABLE comment ADD COLUMN dependent_issue_id BIGINT NOT NULL DEFAULT 0;
CREATE INDEX comment_dependent ON comment (dependent_issue_id) WHERE dependent_issue_id <> 0;

-- +goose StatementBegin
CREATE FUNCTION comment_dependent_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM comment WHERE dependent_issue_id = OLD.id;
    RETURN NULL;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER comment_dependent_delete AFTER DELETE ON issue FOR EACH ROW EXECUTE FUNCTION comment_dependent_delete();

-- The search by labels: each issue_label row carries its issue's
-- repository, state and kind (kept by the triggers below), so that the
-- number of issues of some labels is counted in the index
-- issue_label_filter alone, without reading every issue.
ALTER TABLE issue_label ADD COLUMN repo_id BIGINT NOT NULL DEFAULT 0;
ALTER TABLE issue_label ADD COLUMN is_closed BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE issue_label ADD COLUMN is_pull BOOLEAN NOT NULL DEFAULT FALSE;
UPDATE issue_label SET (repo_id, is_closed, is_pull) =
    (SELECT i.repo_id, i.is_closed, i.is_pull FROM issue i WHERE i.id = issue_label.issue_id);
CREATE INDEX issue_label_filter ON issue_label (label_id, is_closed, is_pull, repo_id, issue_id);

-- (PostgreSQL: BEFORE INSERT, filling the new row itself.)
-- +goose StatementBegin
CREATE FUNCTION issue_label_filter_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    SELECT i.repo_id, i.is_closed, i.is_pull INTO NEW.repo_id, NEW.is_closed, NEW.is_pull
        FROM issue i WHERE i.id = NEW.issue_id;
    RETURN NEW;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER issue_label_filter_insert BEFORE INSERT ON issue_label FOR EACH ROW EXECUTE FUNCTION issue_label_filter_insert();

-- +goose StatementBegin
CREATE FUNCTION issue_label_filter_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE issue_label SET repo_id = NEW.repo_id, is_closed = NEW.is_closed, is_pull = NEW.is_pull
        WHERE issue_id = NEW.id;
    RETURN NULL;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER issue_label_filter_update AFTER UPDATE OF repo_id, is_closed, is_pull ON issue FOR EACH ROW
    WHEN (OLD.repo_id <> NEW.repo_id OR OLD.is_closed <> NEW.is_closed OR OLD.is_pull <> NEW.is_pull)
    EXECUTE FUNCTION issue_label_filter_update();

-- The search by assignee alike: each issue_assignees row carries its
-- issue's repository, state, kind and milestone (0 for none).
ALTER TABLE issue_assignees ADD COLUMN repo_id BIGINT NOT NULL DEFAULT 0;
ALTER TABLE issue_assignees ADD COLUMN is_closed BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE issue_assignees ADD COLUMN is_pull BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE issue_assignees ADD COLUMN milestone_id BIGINT NOT NULL DEFAULT 0;
UPDATE issue_assignees SET (repo_id, is_closed, is_pull, milestone_id) =
    (SELECT i.repo_id, i.is_closed, i.is_pull, coalesce(i.milestone_id, 0) FROM issue i WHERE i.id = issue_assignees.issue_id);
CREATE INDEX issue_assignees_filter ON issue_assignees (assignee_id, is_closed, is_pull, repo_id, milestone_id, issue_id);

-- (PostgreSQL: BEFORE INSERT, filling the new row itself.)
-- +goose StatementBegin
CREATE FUNCTION issue_assignees_filter_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    SELECT i.repo_id, i.is_closed, i.is_pull, coalesce(i.milestone_id, 0)
        INTO NEW.repo_id, NEW.is_closed, NEW.is_pull, NEW.milestone_id
        FROM issue i WHERE i.id = NEW.issue_id;
    RETURN NEW;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER issue_assignees_filter_insert BEFORE INSERT ON issue_assignees FOR EACH ROW EXECUTE FUNCTION issue_assignees_filter_insert();

-- +goose StatementBegin
CREATE FUNCTION issue_assignees_filter_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE issue_assignees SET repo_id = NEW.repo_id, is_closed = NEW.is_closed, is_pull = NEW.is_pull,
        milestone_id = coalesce(NEW.milestone_id, 0)
        WHERE issue_id = NEW.id;
    RETURN NULL;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER issue_assignees_filter_update AFTER UPDATE OF repo_id, is_closed, is_pull, milestone_id ON issue FOR EACH ROW
    WHEN (OLD.repo_id <> NEW.repo_id OR OLD.is_closed <> NEW.is_closed OR OLD.is_pull <> NEW.is_pull
        OR coalesce(OLD.milestone_id, 0) <> coalesce(NEW.milestone_id, 0))
    EXECUTE FUNCTION issue_assignees_filter_update();

-- +goose Down
DROP TRIGGER IF EXISTS issue_assignees_filter_update ON issue;
DROP FUNCTION IF EXISTS issue_assignees_filter_update;
DROP TRIGGER IF EXISTS issue_assignees_filter_insert ON issue_assignees;
DROP FUNCTION IF EXISTS issue_assignees_filter_insert;
DROP INDEX IF EXISTS issue_assignees_filter;
ALTER TABLE issue_assignees DROP COLUMN milestone_id;
ALTER TABLE issue_assignees DROP COLUMN is_pull;
ALTER TABLE issue_assignees DROP COLUMN is_closed;
ALTER TABLE issue_assignees DROP COLUMN repo_id;
DROP TRIGGER IF EXISTS issue_label_filter_update ON issue;
DROP FUNCTION IF EXISTS issue_label_filter_update;
DROP TRIGGER IF EXISTS issue_label_filter_insert ON issue_label;
DROP FUNCTION IF EXISTS issue_label_filter_insert;
DROP INDEX IF EXISTS issue_label_filter;
ALTER TABLE issue_label DROP COLUMN is_pull;
ALTER TABLE issue_label DROP COLUMN is_closed;
ALTER TABLE issue_label DROP COLUMN repo_id;
DROP TRIGGER IF EXISTS comment_dependent_delete ON issue;
DROP FUNCTION IF EXISTS comment_dependent_delete;
DROP INDEX IF EXISTS comment_dependent;
ALTER TABLE comment DROP COLUMN dependent_issue_id;
