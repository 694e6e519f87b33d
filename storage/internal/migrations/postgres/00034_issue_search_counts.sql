-- +goose Up
-- The number of issues per label and per assignee of the issue search
-- (see the sqlite migration): kept by triggers on issue_label and
-- issue_assignees, by the columns 00026 keeps on their rows.
CREATE TABLE issue_label_count (
    label_id  BIGINT  NOT NULL,
    is_closed BOOLEAN NOT NULL,
    is_pull   BOOLEAN NOT NULL,
    repo_id   BIGINT  NOT NULL,
    n         BIGINT  NOT NULL,
    PRIMARY KEY (label_id, is_closed, is_pull, repo_id)
);
INSERT INTO issue_label_count (label_id, is_closed, is_pull, repo_id, n)
    SELECT label_id, is_closed, is_pull, repo_id, count(*) FROM issue_label
    GROUP BY label_id, is_closed, is_pull, repo_id;

-- +goose StatementBegin
CREATE FUNCTION issue_label_count_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('DELETE', 'UPDATE') THEN
        INSERT INTO issue_label_count (label_id, is_closed, is_pull, repo_id, n)
            VALUES (OLD.label_id, OLD.is_closed, OLD.is_pull, OLD.repo_id, -1)
            ON CONFLICT (label_id, is_closed, is_pull, repo_id) DO UPDATE SET n = issue_label_count.n - 1;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        INSERT INTO issue_label_count (label_id, is_closed, is_pull, repo_id, n)
            VALUES (NEW.label_id, NEW.is_closed, NEW.is_pull, NEW.repo_id, 1)
            ON CONFLICT (label_id, is_closed, is_pull, repo_id) DO UPDATE SET n = issue_label_count.n + 1;
    END IF;
    RETURN NULL;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER issue_label_count_insert AFTER INSERT ON issue_label FOR EACH ROW EXECUTE FUNCTION issue_label_count_change();
CREATE TRIGGER issue_label_count_delete AFTER DELETE ON issue_label FOR EACH ROW EXECUTE FUNCTION issue_label_count_change();
CREATE TRIGGER issue_label_count_update AFTER UPDATE OF label_id, is_closed, is_pull, repo_id ON issue_label FOR EACH ROW
    WHEN (OLD.label_id <> NEW.label_id OR OLD.is_closed <> NEW.is_closed OR OLD.is_pull <> NEW.is_pull OR OLD.repo_id <> NEW.repo_id)
    EXECUTE FUNCTION issue_label_count_change();

CREATE TABLE issue_assignee_count (
    assignee_id  BIGINT  NOT NULL,
    is_closed    BOOLEAN NOT NULL,
    is_pull      BOOLEAN NOT NULL,
    repo_id      BIGINT  NOT NULL,
    milestone_id BIGINT  NOT NULL,
    n            BIGINT  NOT NULL,
    PRIMARY KEY (assignee_id, is_closed, is_pull, repo_id, milestone_id)
);
INSERT INTO issue_assignee_count (assignee_id, is_closed, is_pull, repo_id, milestone_id, n)
    SELECT assignee_id, is_closed, is_pull, repo_id, milestone_id, count(*) FROM issue_assignees
    GROUP BY assignee_id, is_closed, is_pull, repo_id, milestone_id;

-- +goose StatementBegin
CREATE FUNCTION issue_assignee_count_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('DELETE', 'UPDATE') THEN
        INSERT INTO issue_assignee_count (assignee_id, is_closed, is_pull, repo_id, milestone_id, n)
            VALUES (OLD.assignee_id, OLD.is_closed, OLD.is_pull, OLD.repo_id, OLD.milestone_id, -1)
            ON CONFLICT (assignee_id, is_closed, is_pull, repo_id, milestone_id) DO UPDATE SET n = issue_assignee_count.n - 1;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        INSERT INTO issue_assignee_count (assignee_id, is_closed, is_pull, repo_id, milestone_id, n)
            VALUES (NEW.assignee_id, NEW.is_closed, NEW.is_pull, NEW.repo_id, NEW.milestone_id, 1)
            ON CONFLICT (assignee_id, is_closed, is_pull, repo_id, milestone_id) DO UPDATE SET n = issue_assignee_count.n + 1;
    END IF;
    RETURN NULL;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER issue_assignee_count_insert AFTER INSERT ON issue_assignees FOR EACH ROW EXECUTE FUNCTION issue_assignee_count_change();
CREATE TRIGGER issue_assignee_count_delete AFTER DELETE ON issue_assignees FOR EACH ROW EXECUTE FUNCTION issue_assignee_count_change();
CREATE TRIGGER issue_assignee_count_update AFTER UPDATE OF assignee_id, is_closed, is_pull, repo_id, milestone_id ON issue_assignees FOR EACH ROW
    WHEN (OLD.assignee_id <> NEW.assignee_id OR OLD.is_closed <> NEW.is_closed OR OLD.is_pull <> NEW.is_pull
        OR OLD.repo_id <> NEW.repo_id OR OLD.milestone_id <> NEW.milestone_id)
    EXECUTE FUNCTION issue_assignee_count_change();

-- The keyword search folds case by Unicode's simple case mapping, as
-- SQLite's trigram tables do, whatever the database's LC_CTYPE (C folds
-- ASCII only): it matches lower(column COLLATE "und-x-icu") (ICU's root
-- locale; Debian's, RDS's and Cloud SQL's servers are built with ICU), so
-- the trigram indexes of 00014 and 00032 index those expressions.
DROP INDEX issue_text;
CREATE INDEX issue_text ON issue USING gin (lower(title COLLATE "und-x-icu") gin_trgm_ops, lower(body COLLATE "und-x-icu") gin_trgm_ops);
DROP INDEX comment_text;
CREATE INDEX comment_text ON comment USING gin (lower(body COLLATE "und-x-icu") gin_trgm_ops) WHERE type = 0;

-- +goose Down
DROP INDEX comment_text;
CREATE INDEX comment_text ON comment USING gin (body gin_trgm_ops) WHERE type = 0;
DROP INDEX issue_text;
CREATE INDEX issue_text ON issue USING gin (title gin_trgm_ops, body gin_trgm_ops);
DROP TRIGGER issue_assignee_count_update ON issue_assignees;
DROP TRIGGER issue_assignee_count_delete ON issue_assignees;
DROP TRIGGER issue_assignee_count_insert ON issue_assignees;
DROP FUNCTION issue_assignee_count_change;
DROP TABLE issue_assignee_count;
DROP TRIGGER issue_label_count_update ON issue_label;
DROP TRIGGER issue_label_count_delete ON issue_label;
DROP TRIGGER issue_label_count_insert ON issue_label;
DROP FUNCTION issue_label_count_change;
DROP TABLE issue_label_count;
