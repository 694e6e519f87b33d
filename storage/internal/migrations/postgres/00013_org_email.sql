-- +goose Up
-- An organisation's e-mail is optional, neither unique nor looked up: only
-- people's e-mails are unique (a partial index). (SQLite rebuilds the users
-- table for this; PostgreSQL drops the constraint.)
ALTER TABLE users DROP CONSTRAINT users_lower_email_key;
CREATE UNIQUE INDEX users_lower_email ON users (lower_email) WHERE type = 0;

-- +goose Down
DROP INDEX users_lower_email;
UPDATE users SET lower_email = 'organization-' || id || '@invalid', version = version + 1 WHERE type = 1;
ALTER TABLE users ADD CONSTRAINT users_lower_email_key UNIQUE (lower_email);
