-- +goose Up
-- Reactions, issue watches and cross-references (package issues'
-- SocialTx). comment_id is NULL for what concerns the issue itself.

CREATE TABLE reaction (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    issue_id     INTEGER NOT NULL REFERENCES issue (id) ON DELETE CASCADE,
    comment_id   INTEGER REFERENCES comment (id) ON DELETE CASCADE,
    user_id      INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    content      TEXT    NOT NULL,
    created_unix INTEGER NOT NULL
);
CREATE UNIQUE INDEX reaction_unique ON reaction (issue_id, coalesce(comment_id, 0), user_id, content);

CREATE TABLE issue_watch (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id      INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    issue_id     INTEGER NOT NULL REFERENCES issue (id) ON DELETE CASCADE,
    is_watching  INTEGER NOT NULL,
    created_unix INTEGER NOT NULL,
    updated_unix INTEGER NOT NULL,
    UNIQUE (issue_id, user_id)
);

-- The comment of the referenced issue that is the reference; the
-- referencing issue (and comment) by id, without foreign keys, as
-- Forgejo's comment.ref_* columns.
CREATE TABLE comment_ref (
    comment_id     INTEGER PRIMARY KEY REFERENCES comment (id) ON DELETE CASCADE,
    ref_repo_id    INTEGER NOT NULL,
    ref_issue_id   INTEGER NOT NULL,
    ref_comment_id INTEGER NOT NULL,
    ref_is_pull    INTEGER NOT NULL,
    ref_action     INTEGER NOT NULL
);
CREATE INDEX comment_ref_source ON comment_ref (ref_issue_id, ref_comment_id);

CREATE INDEX issue_pinned ON issue (repo_id, is_pull, pin_order) WHERE pin_order > 0;

-- +goose Down
DROP INDEX issue_pinned;
DROP TABLE comment_ref;
DROP TABLE issue_watch;
DROP TABLE reaction;
