-- +goose Up
-- 0 for people, 1 for organisations (Forgejo's values): both own repositories.
ALTER TABLE users ADD COLUMN type INTEGER NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE users DROP COLUMN type;
