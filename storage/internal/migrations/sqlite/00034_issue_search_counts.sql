-- +goose Up
-- The number of issues per label (and per assignee) of the issue search,
-- by the issue's repository, state and kind (and milestone, for
-- assignees), kept by triggers in the transaction of each write as
-- issue_count (00014) keeps it per repository: the X-Total-Count of a
-- broad search by labels or by assignee is a sum over a few rows per
-- repository instead of a count of every matching issue. The triggers
-- count the rows of issue_label and issue_assignees by the columns 00026
-- keeps on them, one row more for an insert, one less for a delete, one
-- moved for an update: no foreign key (a row's count may reach zero after
-- its label went), and the search reads only the rows of labels that
-- exist.
CREATE TABLE issue_label_count (
    label_id  INTEGER NOT NULL,
    is_closed INTEGER NOT NULL,
    is_pull   INTEGER NOT NULL,
    repo_id   INTEGER NOT NULL,
    n         INTEGER NOT NULL,
    PRIMARY KEY (label_id, is_closed, is_pull, repo_id)
) WITHOUT ROWID;
INSERT INTO issue_label_count (label_id, is_closed, is_pull, repo_id, n)
    SELECT label_id, is_closed <> 0, is_pull <> 0, repo_id, count(*) FROM issue_label
    GROUP BY label_id, is_closed <> 0, is_pull <> 0, repo_id;

-- +goose StatementBegin
CREATE TRIGGER issue_label_count_insert AFTER INSERT ON issue_label BEGIN
    INSERT INTO issue_label_count (label_id, is_closed, is_pull, repo_id, n)
        VALUES (NEW.label_id, NEW.is_closed <> 0, NEW.is_pull <> 0, NEW.repo_id, 1)
        ON CONFLICT (label_id, is_closed, is_pull, repo_id) DO UPDATE SET n = issue_label_count.n + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER issue_label_count_delete AFTER DELETE ON issue_label BEGIN
    INSERT INTO issue_label_count (label_id, is_closed, is_pull, repo_id, n)
        VALUES (OLD.label_id, OLD.is_closed <> 0, OLD.is_pull <> 0, OLD.repo_id, -1)
        ON CONFLICT (label_id, is_closed, is_pull, repo_id) DO UPDATE SET n = issue_label_count.n - 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER issue_label_count_update AFTER UPDATE OF label_id, is_closed, is_pull, repo_id ON issue_label
WHEN OLD.label_id <> NEW.label_id OR (OLD.is_closed <> 0) <> (NEW.is_closed <> 0) OR (OLD.is_pull <> 0) <> (NEW.is_pull <> 0)
    OR OLD.repo_id <> NEW.repo_id BEGIN
    INSERT INTO issue_label_count (label_id, is_closed, is_pull, repo_id, n)
        VALUES (OLD.label_id, OLD.is_closed <> 0, OLD.is_pull <> 0, OLD.repo_id, -1)
        ON CONFLICT (label_id, is_closed, is_pull, repo_id) DO UPDATE SET n = issue_label_count.n - 1;
    INSERT INTO issue_label_count (label_id, is_closed, is_pull, repo_id, n)
        VALUES (NEW.label_id, NEW.is_closed <> 0, NEW.is_pull <> 0, NEW.repo_id, 1)
        ON CONFLICT (label_id, is_closed, is_pull, repo_id) DO UPDATE SET n = issue_label_count.n + 1;
END;
-- +goose StatementEnd

CREATE TABLE issue_assignee_count (
    assignee_id  INTEGER NOT NULL,
    is_closed    INTEGER NOT NULL,
    is_pull      INTEGER NOT NULL,
    repo_id      INTEGER NOT NULL,
    milestone_id INTEGER NOT NULL,
    n            INTEGER NOT NULL,
    PRIMARY KEY (assignee_id, is_closed, is_pull, repo_id, milestone_id)
) WITHOUT ROWID;
INSERT INTO issue_assignee_count (assignee_id, is_closed, is_pull, repo_id, milestone_id, n)
    SELECT assignee_id, is_closed <> 0, is_pull <> 0, repo_id, milestone_id, count(*) FROM issue_assignees
    GROUP BY assignee_id, is_closed <> 0, is_pull <> 0, repo_id, milestone_id;

-- +goose StatementBegin
CREATE TRIGGER issue_assignee_count_insert AFTER INSERT ON issue_assignees BEGIN
    INSERT INTO issue_assignee_count (assignee_id, is_closed, is_pull, repo_id, milestone_id, n)
        VALUES (NEW.assignee_id, NEW.is_closed <> 0, NEW.is_pull <> 0, NEW.repo_id, NEW.milestone_id, 1)
        ON CONFLICT (assignee_id, is_closed, is_pull, repo_id, milestone_id) DO UPDATE SET n = issue_assignee_count.n + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER issue_assignee_count_delete AFTER DELETE ON issue_assignees BEGIN
    INSERT INTO issue_assignee_count (assignee_id, is_closed, is_pull, repo_id, milestone_id, n)
        VALUES (OLD.assignee_id, OLD.is_closed <> 0, OLD.is_pull <> 0, OLD.repo_id, OLD.milestone_id, -1)
        ON CONFLICT (assignee_id, is_closed, is_pull, repo_id, milestone_id) DO UPDATE SET n = issue_assignee_count.n - 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER issue_assignee_count_update AFTER UPDATE OF assignee_id, is_closed, is_pull, repo_id, milestone_id ON issue_assignees
WHEN OLD.assignee_id <> NEW.assignee_id OR (OLD.is_closed <> 0) <> (NEW.is_closed <> 0) OR (OLD.is_pull <> 0) <> (NEW.is_pull <> 0)
    OR OLD.repo_id <> NEW.repo_id OR OLD.milestone_id <> NEW.milestone_id BEGIN
    INSERT INTO issue_assignee_count (assignee_id, is_closed, is_pull, repo_id, milestone_id, n)
        VALUES (OLD.assignee_id, OLD.is_closed <> 0, OLD.is_pull <> 0, OLD.repo_id, OLD.milestone_id, -1)
        ON CONFLICT (assignee_id, is_closed, is_pull, repo_id, milestone_id) DO UPDATE SET n = issue_assignee_count.n - 1;
    INSERT INTO issue_assignee_count (assignee_id, is_closed, is_pull, repo_id, milestone_id, n)
        VALUES (NEW.assignee_id, NEW.is_closed <> 0, NEW.is_pull <> 0, NEW.repo_id, NEW.milestone_id, 1)
        ON CONFLICT (assignee_id, is_closed, is_pull, repo_id, milestone_id) DO UPDATE SET n = issue_assignee_count.n + 1;
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER issue_assignee_count_update;
DROP TRIGGER issue_assignee_count_delete;
DROP TRIGGER issue_assignee_count_insert;
DROP TABLE issue_assignee_count;
DROP TRIGGER issue_label_count_update;
DROP TRIGGER issue_label_count_delete;
DROP TRIGGER issue_label_count_insert;
DROP TABLE issue_label_count;
