-- +goose Up
-- Notification threads (Forgejo's notification table): one per user and
-- issue, status 'unread' | 'read' | 'pinned', source 'issue' | 'pull' |
-- 'commit' | 'repository'. Times are Unix seconds. updated_by and
-- comment_id record who and what last touched the thread, and stay when
-- the account or comment goes.
CREATE TABLE notification (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id      INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    repo_id      INTEGER NOT NULL REFERENCES repository (id) ON DELETE CASCADE,
    status       TEXT    NOT NULL,
    source       TEXT    NOT NULL,
    issue_id     INTEGER REFERENCES issue (id) ON DELETE CASCADE,
    comment_id   INTEGER NOT NULL DEFAULT 0,
    updated_by   INTEGER NOT NULL DEFAULT 0,
    created_unix INTEGER NOT NULL,
    updated_unix INTEGER NOT NULL
);
-- One thread per user and issue; a user's list, newest update first.
CREATE UNIQUE INDEX notification_user_issue ON notification (user_id, issue_id) WHERE issue_id IS NOT NULL;
CREATE INDEX notification_user_updated ON notification (user_id, updated_unix, id);
CREATE INDEX notification_issue ON notification (issue_id) WHERE issue_id IS NOT NULL;

-- +goose Down
DROP TABLE notification;
