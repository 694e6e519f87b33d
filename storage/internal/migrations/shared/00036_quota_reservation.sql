-- +goose Up
-- quota_reservation: bytes an owner's quota holds for a write in progress
-- whose size is measured after it lands (a push, a contents commit). The
-- write's check inserts it in the check's transaction; the writer deletes
-- it once the size is measured; a row past expires_unix is deleted by the
-- next reservation of its owner. Usage counts every row of the owner.
CREATE TABLE quota_reservation (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    owner_id     INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    repo_id      INTEGER REFERENCES repository (id) ON DELETE CASCADE,
    bucket       TEXT    NOT NULL,
    bytes        INTEGER NOT NULL CHECK (bytes >= 0),
    created_unix INTEGER NOT NULL,
    expires_unix INTEGER NOT NULL
);
CREATE INDEX quota_reservation_owner ON quota_reservation (owner_id, expires_unix);
CREATE INDEX quota_reservation_repo ON quota_reservation (repo_id);

-- +goose Down
DROP TABLE quota_reservation;
