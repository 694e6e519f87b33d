-- +goose Up
-- Repository flags (Forgejo's repo_flag): names a site administrator
-- attaches to a repository, each once.
CREATE TABLE repo_flag (
    repo_id INTEGER NOT NULL REFERENCES repository (id) ON DELETE CASCADE,
    name    TEXT    NOT NULL,
    PRIMARY KEY (repo_id, name)
);
-- Topics (Forgejo's topic table): one row per name ever used, with when a
-- repository first had it and last took it; how many repositories have
-- it is counted from repo_topic. Existing topics date from the oldest
-- repository that has them.
CREATE TABLE topic (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    name         TEXT    NOT NULL UNIQUE,
    created_unix INTEGER NOT NULL,
    updated_unix INTEGER NOT NULL
);
INSERT INTO topic (name, created_unix, updated_unix)
    SELECT t.topic, min(r.created_unix), max(r.created_unix)
    FROM repo_topic t JOIN repository r ON r.id = t.repo_id
    GROUP BY t.topic ORDER BY min(r.created_unix), t.topic;

-- +goose Down
DROP TABLE topic;
DROP TABLE repo_flag;
