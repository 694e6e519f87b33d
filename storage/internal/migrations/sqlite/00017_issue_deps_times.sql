-- +goose Up
-- Dependencies between issues, tracked times and stopwatches (Forgejo's
-- issue_dependency, tracked_time and stopwatch). Times are Unix seconds.
-- Deleting an issue deletes its rows; deleting an account deletes its
-- stopwatches (its tracked times stay, by a ghost, as Forgejo's).

-- issue_id depends on dependency_id: dependency_id blocks issue_id (Forgejo's
-- issue_dependency; named so that no table of 00017 takes 00014's issue prefix).
CREATE TABLE dependency (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id       INTEGER NOT NULL,
    issue_id      INTEGER NOT NULL REFERENCES issue (id) ON DELETE CASCADE,
    dependency_id INTEGER NOT NULL REFERENCES issue (id) ON DELETE CASCADE,
    created_unix  INTEGER NOT NULL,
    UNIQUE (issue_id, dependency_id)
);
CREATE INDEX dependency_blocks ON dependency (dependency_id);

CREATE TABLE tracked_time (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    issue_id     INTEGER NOT NULL REFERENCES issue (id) ON DELETE CASCADE,
    user_id      INTEGER NOT NULL,
    created_unix INTEGER NOT NULL,
    time         INTEGER NOT NULL,
    deleted      INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX tracked_time_issue ON tracked_time (issue_id, user_id);
CREATE INDEX tracked_time_user ON tracked_time (user_id, created_unix);

CREATE TABLE stopwatch (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    issue_id     INTEGER NOT NULL REFERENCES issue (id) ON DELETE CASCADE,
    user_id      INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_unix INTEGER NOT NULL,
    UNIQUE (user_id, issue_id)
);

-- +goose Down
DROP TABLE stopwatch;
DROP TABLE tracked_time;
DROP TABLE dependency;
