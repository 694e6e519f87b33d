-- +goose Up
-- Activity feed rows (Forgejo's action table), written by the outbox
-- consumer of forge/feeds: one row per receiver (user_id: the doer, the
-- organisation owning the repository, each watcher) of each action.
-- op_type is Forgejo's ActionType number. event_id is the outbox event
-- the rows were written for (the consumer's idempotency key). Times are
-- Unix seconds.
CREATE TABLE action (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id      INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    op_type      INTEGER NOT NULL,
    act_user_id  INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    repo_id      INTEGER NOT NULL REFERENCES repository (id) ON DELETE CASCADE,
    comment_id   INTEGER NOT NULL DEFAULT 0,
    ref_name     TEXT    NOT NULL DEFAULT '',
    is_private   INTEGER NOT NULL DEFAULT 0,
    content      TEXT    NOT NULL DEFAULT '',
    event_id     INTEGER NOT NULL DEFAULT 0,
    created_unix INTEGER NOT NULL
);
CREATE INDEX action_user_created ON action (user_id, created_unix);
CREATE INDEX action_repo_created ON action (repo_id, created_unix);
CREATE INDEX action_act_user ON action (act_user_id, repo_id, created_unix, user_id);
CREATE INDEX action_event ON action (event_id);

-- +goose Down
DROP TABLE action;
