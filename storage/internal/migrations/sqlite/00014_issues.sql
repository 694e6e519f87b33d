-- +goose Up
-- Issues and what hangs on them (Forgejo's models/issues). Times are Unix
-- seconds, 0 for "none". poster_id and uploader_id carry no foreign key: a
-- deleted account's issues and comments stay (Forgejo shows the ghost user).

-- The highest issue index ever reserved per repository (Forgejo's
-- issue_index): deleting the last issue never hands its number out again.
CREATE TABLE issue_index (
    repo_id   INTEGER PRIMARY KEY REFERENCES repository (id) ON DELETE CASCADE,
    max_index INTEGER NOT NULL
);

CREATE TABLE milestone (
    id                INTEGER PRIMARY KEY AUTOINCREMENT,
    repo_id           INTEGER NOT NULL REFERENCES repository (id) ON DELETE CASCADE,
    title             TEXT    NOT NULL,
    description       TEXT    NOT NULL DEFAULT '',
    is_closed         INTEGER NOT NULL DEFAULT 0,
    num_issues        INTEGER NOT NULL DEFAULT 0,
    num_closed_issues INTEGER NOT NULL DEFAULT 0,
    deadline_unix     INTEGER NOT NULL DEFAULT 0,
    created_unix      INTEGER NOT NULL,
    updated_unix      INTEGER NOT NULL,
    closed_unix       INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX milestone_repo ON milestone (repo_id, deadline_unix);
CREATE INDEX milestone_title ON milestone (title);

-- milestone_id is NULL for "no milestone" (the domain's 0); deleting the
-- milestone clears it.
CREATE TABLE issue (
    id                 INTEGER PRIMARY KEY AUTOINCREMENT,
    repo_id            INTEGER NOT NULL REFERENCES repository (id) ON DELETE CASCADE,
    "index"            INTEGER NOT NULL,
    poster_id          INTEGER NOT NULL,
    original_author    TEXT    NOT NULL DEFAULT '',
    original_author_id INTEGER NOT NULL DEFAULT 0,
    title              TEXT    NOT NULL,
    body               TEXT    NOT NULL DEFAULT '',
    ref                TEXT    NOT NULL DEFAULT '',
    is_pull            INTEGER NOT NULL DEFAULT 0,
    is_closed          INTEGER NOT NULL DEFAULT 0,
    is_locked          INTEGER NOT NULL DEFAULT 0,
    milestone_id       INTEGER REFERENCES milestone (id) ON DELETE SET NULL,
    num_comments       INTEGER NOT NULL DEFAULT 0,
    deadline_unix      INTEGER NOT NULL DEFAULT 0,
    pin_order          INTEGER NOT NULL DEFAULT 0,
    content_version    INTEGER NOT NULL DEFAULT 0,
    created_unix       INTEGER NOT NULL,
    updated_unix       INTEGER NOT NULL,
    closed_unix        INTEGER NOT NULL DEFAULT 0,
    UNIQUE (repo_id, "index")
);
-- The list and search orders: per repository and state, newest first; the
-- cross-repository search walks created_unix or updated_unix, and checks
-- the repository and state of each issue in the index.
CREATE INDEX issue_repo_state ON issue (repo_id, is_closed, created_unix);
CREATE INDEX issue_created ON issue (created_unix, repo_id, is_closed);
CREATE INDEX issue_updated ON issue (updated_unix, repo_id, is_closed);
CREATE INDEX issue_poster ON issue (poster_id);
CREATE INDEX issue_milestone ON issue (milestone_id) WHERE milestone_id IS NOT NULL;

-- The text of the issues for the keyword search: trigrams find any
-- substring of three characters or more, ignoring case, without reading
-- every issue. It indexes the issue table's own columns (content=issue);
-- the triggers keep it in step.
CREATE VIRTUAL TABLE issue_text USING fts5 (title, body, content = 'issue', content_rowid = 'id', tokenize = 'trigram');

-- +goose StatementBegin
CREATE TRIGGER issue_text_insert AFTER INSERT ON issue BEGIN
    INSERT INTO issue_text (rowid, title, body) VALUES (NEW.id, NEW.title, NEW.body);
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER issue_text_delete AFTER DELETE ON issue BEGIN
    INSERT INTO issue_text (issue_text, rowid, title, body) VALUES ('delete', OLD.id, OLD.title, OLD.body);
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER issue_text_update AFTER UPDATE OF title, body ON issue BEGIN
    INSERT INTO issue_text (issue_text, rowid, title, body) VALUES ('delete', OLD.id, OLD.title, OLD.body);
    INSERT INTO issue_text (rowid, title, body) VALUES (NEW.id, NEW.title, NEW.body);
END;
-- +goose StatementEnd

-- The number of issues per repository, kind and state, kept by triggers:
-- the total of a list filtered by repository and state only, and the
-- counters of a repository, are sums of a few rows instead of a count of
-- every issue.
CREATE TABLE issue_count (
    repo_id   INTEGER NOT NULL REFERENCES repository (id) ON DELETE CASCADE,
    is_pull   INTEGER NOT NULL,
    is_closed INTEGER NOT NULL,
    n         INTEGER NOT NULL,
    PRIMARY KEY (repo_id, is_pull, is_closed)
) WITHOUT ROWID;

-- +goose StatementBegin
CREATE TRIGGER issue_count_insert AFTER INSERT ON issue BEGIN
    INSERT OR IGNORE INTO issue_count (repo_id, is_pull, is_closed, n)
        VALUES (NEW.repo_id, NEW.is_pull <> 0, NEW.is_closed <> 0, 0);
    UPDATE issue_count SET n = n + 1
        WHERE repo_id = NEW.repo_id AND is_pull = (NEW.is_pull <> 0) AND is_closed = (NEW.is_closed <> 0);
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER issue_count_delete AFTER DELETE ON issue BEGIN
    UPDATE issue_count SET n = n - 1
        WHERE repo_id = OLD.repo_id AND is_pull = (OLD.is_pull <> 0) AND is_closed = (OLD.is_closed <> 0);
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER issue_count_update AFTER UPDATE OF is_pull, is_closed ON issue
WHEN (OLD.is_pull <> 0) <> (NEW.is_pull <> 0) OR (OLD.is_closed <> 0) <> (NEW.is_closed <> 0) BEGIN
    UPDATE issue_count SET n = n - 1
        WHERE repo_id = OLD.repo_id AND is_pull = (OLD.is_pull <> 0) AND is_closed = (OLD.is_closed <> 0);
    INSERT OR IGNORE INTO issue_count (repo_id, is_pull, is_closed, n)
        VALUES (NEW.repo_id, NEW.is_pull <> 0, NEW.is_closed <> 0, 0);
    UPDATE issue_count SET n = n + 1
        WHERE repo_id = NEW.repo_id AND is_pull = (NEW.is_pull <> 0) AND is_closed = (NEW.is_closed <> 0);
END;
-- +goose StatementEnd

-- Assignees in the order they were set (position).
CREATE TABLE issue_assignees (
    issue_id    INTEGER NOT NULL REFERENCES issue (id) ON DELETE CASCADE,
    assignee_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    position    INTEGER NOT NULL,
    PRIMARY KEY (issue_id, assignee_id)
);
CREATE INDEX issue_assignees_user ON issue_assignees (assignee_id);

-- Comments and timeline events. label_id, milestone ids and assignee_id
-- record a change and stay when the label, milestone or account goes.
CREATE TABLE comment (
    id                 INTEGER PRIMARY KEY AUTOINCREMENT,
    issue_id           INTEGER NOT NULL REFERENCES issue (id) ON DELETE CASCADE,
    type               INTEGER NOT NULL,
    poster_id          INTEGER NOT NULL,
    original_author    TEXT    NOT NULL DEFAULT '',
    original_author_id INTEGER NOT NULL DEFAULT 0,
    body               TEXT    NOT NULL DEFAULT '',
    label_id           INTEGER NOT NULL DEFAULT 0,
    content            TEXT    NOT NULL DEFAULT '',
    old_milestone_id   INTEGER NOT NULL DEFAULT 0,
    milestone_id       INTEGER NOT NULL DEFAULT 0,
    assignee_id        INTEGER NOT NULL DEFAULT 0,
    removed_assignee   INTEGER NOT NULL DEFAULT 0,
    old_title          TEXT    NOT NULL DEFAULT '',
    new_title          TEXT    NOT NULL DEFAULT '',
    old_ref            TEXT    NOT NULL DEFAULT '',
    new_ref            TEXT    NOT NULL DEFAULT '',
    content_version    INTEGER NOT NULL DEFAULT 0,
    created_unix       INTEGER NOT NULL,
    updated_unix       INTEGER NOT NULL
);
CREATE INDEX comment_issue ON comment (issue_id, created_unix);

-- A label belongs to a repository or to an organisation, never both.
CREATE TABLE label (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    repo_id       INTEGER REFERENCES repository (id) ON DELETE CASCADE,
    org_id        INTEGER REFERENCES users (id) ON DELETE CASCADE,
    name          TEXT    NOT NULL,
    color         TEXT    NOT NULL,
    description   TEXT    NOT NULL DEFAULT '',
    exclusive     INTEGER NOT NULL DEFAULT 0,
    archived_unix INTEGER NOT NULL DEFAULT 0,
    CHECK ((repo_id IS NULL) <> (org_id IS NULL))
);
CREATE INDEX label_repo ON label (repo_id, name) WHERE repo_id IS NOT NULL;
CREATE INDEX label_org ON label (org_id, name) WHERE org_id IS NOT NULL;
CREATE INDEX label_name ON label (name);

CREATE TABLE issue_label (
    issue_id INTEGER NOT NULL REFERENCES issue (id) ON DELETE CASCADE,
    label_id INTEGER NOT NULL REFERENCES label (id) ON DELETE CASCADE,
    PRIMARY KEY (issue_id, label_id)
);
CREATE INDEX issue_label_label ON issue_label (label_id);

-- Attachments of issues (comment_id NULL) and of comments. Release
-- attachments have their own table (attachment, 00006).
CREATE TABLE issue_attachment (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    uuid           TEXT    NOT NULL UNIQUE,
    repo_id        INTEGER NOT NULL REFERENCES repository (id) ON DELETE CASCADE,
    issue_id       INTEGER NOT NULL REFERENCES issue (id) ON DELETE CASCADE,
    comment_id     INTEGER REFERENCES comment (id) ON DELETE CASCADE,
    uploader_id    INTEGER NOT NULL,
    name           TEXT    NOT NULL,
    size           INTEGER NOT NULL DEFAULT 0,
    download_count INTEGER NOT NULL DEFAULT 0,
    created_unix   INTEGER NOT NULL
);
CREATE INDEX issue_attachment_issue ON issue_attachment (issue_id);
CREATE INDEX issue_attachment_comment ON issue_attachment (comment_id) WHERE comment_id IS NOT NULL;

-- +goose Down
DROP TABLE issue_attachment;
DROP TABLE issue_label;
DROP TABLE label;
DROP TABLE comment;
DROP TABLE issue_assignees;
DROP TABLE issue_count;
DROP TABLE issue_text;
DROP TABLE issue;
DROP TABLE milestone;
DROP TABLE issue_index;
