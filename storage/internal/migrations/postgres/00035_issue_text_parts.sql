-- +goose Up
-- SQLite keeps the issue text once more in trigram tables by state and kind
-- for the exact total of a keyword search (see the sqlite migration).
-- PostgreSQL counts through its trigram indexes on the issue columns
-- (00034) and needs nothing more: this migration keeps the two engines'
-- migrations in step.
SELECT 1;

-- +goose Down
SELECT 1;
