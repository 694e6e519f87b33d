-- +goose Up
-- outbox: events the domains append in the transaction of the change that
-- caused them (the transactional outbox); a dispatcher claims them
-- (claim, claim_until_unix), hands them to their handlers and marks them
-- processed (done_unix) in the transaction that stores the hook tasks.
CREATE TABLE outbox (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    kind             TEXT    NOT NULL,
    data             BLOB    NOT NULL,
    created_unix     INTEGER NOT NULL,
    claim            TEXT    NOT NULL DEFAULT '',
    claim_until_unix INTEGER NOT NULL DEFAULT 0,
    done_unix        INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX outbox_pending ON outbox (id) WHERE done_unix = 0;

-- +goose Down
DROP TABLE outbox;
