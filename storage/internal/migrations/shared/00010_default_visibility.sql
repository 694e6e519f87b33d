-- +goose Up
-- Users written with no visibility get the default, public (Forgejo's
-- default and the domain's reading of an empty one): no stored row has an
-- empty visibility any more.
UPDATE users SET visibility = 'public' WHERE visibility = '';
