-- +goose Up
-- Reactions, issue watches and cross-references (package issues'
-- SocialTx). comment_id is NULL for what concerns the issue itself.
-- Rows go with their issue and comment through triggers rather than
-- foreign keys, so that migration 00014 can still go down and up on its
-- own (its tables are dropped under these).

CREATE TABLE reaction (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    issue_id     INTEGER NOT NULL,
    comment_id   INTEGER,
    user_id      INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    content      TEXT    NOT NULL,
    created_unix INTEGER NOT NULL
);
CREATE UNIQUE INDEX reaction_unique ON reaction (issue_id, coalesce(comment_id, 0), user_id, content);
CREATE INDEX reaction_comment ON reaction (comment_id) WHERE comment_id IS NOT NULL;

-- Forgejo's issue_watch.
CREATE TABLE user_issue_watch (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id      INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    issue_id     INTEGER NOT NULL,
    is_watching  INTEGER NOT NULL,
    created_unix INTEGER NOT NULL,
    updated_unix INTEGER NOT NULL,
    UNIQUE (issue_id, user_id)
);

-- The comment of the referenced issue that is the reference; the
-- referencing issue (and comment) by id, as Forgejo's comment.ref_*
-- columns.
CREATE TABLE comment_ref (
    comment_id     INTEGER PRIMARY KEY,
    ref_repo_id    INTEGER NOT NULL,
    ref_issue_id   INTEGER NOT NULL,
    ref_comment_id INTEGER NOT NULL,
    ref_is_pull    INTEGER NOT NULL,
    ref_action     INTEGER NOT NULL
);
CREATE INDEX comment_ref_source ON comment_ref (ref_issue_id, ref_comment_id);

CREATE INDEX issue_pinned ON issue (repo_id, is_pull, pin_order) WHERE pin_order > 0;

-- +goose StatementBegin
CREATE TRIGGER issue_social_delete BEFORE DELETE ON issue BEGIN
    DELETE FROM comment_ref WHERE comment_id IN (SELECT id FROM comment WHERE issue_id = old.id);
    DELETE FROM reaction WHERE issue_id = old.id;
    DELETE FROM user_issue_watch WHERE issue_id = old.id;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER comment_social_delete BEFORE DELETE ON comment BEGIN
    DELETE FROM comment_ref WHERE comment_id = old.id;
    DELETE FROM reaction WHERE comment_id = old.id;
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER IF EXISTS comment_social_delete;
DROP TRIGGER IF EXISTS issue_social_delete;
DROP INDEX IF EXISTS issue_pinned;
DROP TABLE comment_ref;
DROP TABLE user_issue_watch;
DROP TABLE reaction;
