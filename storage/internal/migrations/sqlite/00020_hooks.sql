-- +goose Up
-- webhook: system and default hooks have neither repo_id nor owner_id
-- (is_system tells them apart); repository hooks have repo_id, organisation
-- and user hooks owner_id.
CREATE TABLE webhook (
    id                   INTEGER PRIMARY KEY AUTOINCREMENT,
    repo_id              INTEGER REFERENCES repository (id) ON DELETE CASCADE,
    owner_id             INTEGER REFERENCES users (id) ON DELETE CASCADE,
    is_system            INTEGER NOT NULL DEFAULT 0,
    type                 TEXT    NOT NULL,
    url                  TEXT    NOT NULL,
    content_type         TEXT    NOT NULL,
    http_method          TEXT    NOT NULL DEFAULT 'POST',
    secret               TEXT    NOT NULL DEFAULT '',
    -- events: the subscribed event words, comma-separated
    events               TEXT    NOT NULL,
    branch_filter        TEXT    NOT NULL DEFAULT '',
    authorization_header TEXT    NOT NULL DEFAULT '',
    is_active            INTEGER NOT NULL DEFAULT 0,
    created_unix         INTEGER NOT NULL,
    updated_unix         INTEGER NOT NULL
);
CREATE INDEX webhook_repo ON webhook (repo_id);
CREATE INDEX webhook_owner ON webhook (owner_id);

-- webhook_meta: a hook type's own settings (slack: channel, username,
-- icon_url, color).
CREATE TABLE webhook_meta (
    hook_id INTEGER NOT NULL REFERENCES webhook (id) ON DELETE CASCADE,
    key     TEXT    NOT NULL,
    value   TEXT    NOT NULL,
    PRIMARY KEY (hook_id, key)
);

-- hook_task: one delivery of one event to one hook (the delivery log).
CREATE TABLE hook_task (
    id                INTEGER PRIMARY KEY AUTOINCREMENT,
    hook_id           INTEGER NOT NULL REFERENCES webhook (id) ON DELETE CASCADE,
    uuid              TEXT    NOT NULL UNIQUE,
    event             TEXT    NOT NULL,
    event_type        TEXT    NOT NULL,
    payload           BLOB    NOT NULL,
    attempts          INTEGER NOT NULL DEFAULT 0,
    is_delivered      INTEGER NOT NULL DEFAULT 0,
    is_succeed        INTEGER NOT NULL DEFAULT 0,
    next_attempt_unix INTEGER NOT NULL,
    response_status   INTEGER NOT NULL DEFAULT 0,
    response_body     TEXT    NOT NULL DEFAULT '',
    created_unix      INTEGER NOT NULL,
    delivered_unix    INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX hook_task_hook ON hook_task (hook_id, id);
CREATE INDEX hook_task_due ON hook_task (next_attempt_unix, id) WHERE is_delivered = 0;

-- +goose Down
DROP TABLE hook_task;
DROP TABLE webhook_meta;
DROP TABLE webhook;
