-- +goose Up
-- PostgreSQL: no PostgreSQL database predates this backend, so the data
-- copies of the SQLite migration are left out; the schema is the same.
-- Repository settings and topics get explicit columns and a child table
-- (they were JSON whose field names were Go's); status makes creation and
-- deletion recoverable (0 ready, 1 creating, 2 deleting).
ALTER TABLE repository ADD COLUMN status BIGINT NOT NULL DEFAULT 0;
ALTER TABLE repository ADD COLUMN avatar TEXT NOT NULL DEFAULT '';
ALTER TABLE repository ADD COLUMN has_issues BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE repository ADD COLUMN has_wiki BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE repository ADD COLUMN has_pull_requests BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE repository ADD COLUMN has_projects BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE repository ADD COLUMN has_releases BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE repository ADD COLUMN has_packages BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE repository ADD COLUMN has_actions BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE repository ADD COLUMN ignore_whitespace_conflicts BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE repository ADD COLUMN allow_merge BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE repository ADD COLUMN allow_rebase BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE repository ADD COLUMN allow_rebase_explicit BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE repository ADD COLUMN allow_squash BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE repository ADD COLUMN allow_fast_forward_only BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE repository ADD COLUMN allow_manual_merge BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE repository ADD COLUMN autodetect_manual_merge BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE repository ADD COLUMN allow_rebase_update BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE repository ADD COLUMN default_delete_branch_after_merge BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE repository ADD COLUMN default_allow_maintainer_edit BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE repository ADD COLUMN default_merge_style TEXT NOT NULL DEFAULT '';
ALTER TABLE repository ADD COLUMN default_update_style TEXT NOT NULL DEFAULT '';
ALTER TABLE repository ADD COLUMN wiki_branch TEXT NOT NULL DEFAULT '';
ALTER TABLE repository ADD COLUMN globally_editable_wiki BOOLEAN NOT NULL DEFAULT FALSE;
-- internal tracker: present flag and its settings
ALTER TABLE repository ADD COLUMN internal_tracker BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE repository ADD COLUMN enable_time_tracker BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE repository ADD COLUMN allow_only_contributors_to_track_time BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE repository ADD COLUMN enable_issue_dependencies BOOLEAN NOT NULL DEFAULT FALSE;
-- external tracker and wiki: present flag and their settings
ALTER TABLE repository ADD COLUMN external_tracker BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE repository ADD COLUMN external_tracker_url TEXT NOT NULL DEFAULT '';
ALTER TABLE repository ADD COLUMN external_tracker_format TEXT NOT NULL DEFAULT '';
ALTER TABLE repository ADD COLUMN external_tracker_style TEXT NOT NULL DEFAULT '';
ALTER TABLE repository ADD COLUMN external_tracker_regexp_pattern TEXT NOT NULL DEFAULT '';
ALTER TABLE repository ADD COLUMN external_wiki BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE repository ADD COLUMN external_wiki_url TEXT NOT NULL DEFAULT '';


CREATE TABLE repo_topic (
    repo_id BIGINT NOT NULL REFERENCES repository (id) ON DELETE CASCADE,
    topic   TEXT    NOT NULL,
    PRIMARY KEY (repo_id, topic)
);
CREATE INDEX repo_topic_topic ON repo_topic (topic);

ALTER TABLE repository DROP COLUMN settings;
ALTER TABLE repository DROP COLUMN topics;

-- +goose Down
ALTER TABLE repository ADD COLUMN settings TEXT NOT NULL DEFAULT '{}';
ALTER TABLE repository ADD COLUMN topics TEXT NOT NULL DEFAULT '[]';
DROP TABLE repo_topic;
ALTER TABLE repository DROP COLUMN external_wiki_url;
ALTER TABLE repository DROP COLUMN external_wiki;
ALTER TABLE repository DROP COLUMN external_tracker_regexp_pattern;
ALTER TABLE repository DROP COLUMN external_tracker_style;
ALTER TABLE repository DROP COLUMN external_tracker_format;
ALTER TABLE repository DROP COLUMN external_tracker_url;
ALTER TABLE repository DROP COLUMN external_tracker;
ALTER TABLE repository DROP COLUMN enable_issue_dependencies;
ALTER TABLE repository DROP COLUMN allow_only_contributors_to_track_time;
ALTER TABLE repository DROP COLUMN enable_time_tracker;
ALTER TABLE repository DROP COLUMN internal_tracker;
ALTER TABLE repository DROP COLUMN globally_editable_wiki;
ALTER TABLE repository DROP COLUMN wiki_branch;
ALTER TABLE repository DROP COLUMN default_update_style;
ALTER TABLE repository DROP COLUMN default_merge_style;
ALTER TABLE repository DROP COLUMN default_allow_maintainer_edit;
ALTER TABLE repository DROP COLUMN default_delete_branch_after_merge;
ALTER TABLE repository DROP COLUMN allow_rebase_update;
ALTER TABLE repository DROP COLUMN autodetect_manual_merge;
ALTER TABLE repository DROP COLUMN allow_manual_merge;
ALTER TABLE repository DROP COLUMN allow_fast_forward_only;
ALTER TABLE repository DROP COLUMN allow_squash;
ALTER TABLE repository DROP COLUMN allow_rebase_explicit;
ALTER TABLE repository DROP COLUMN allow_rebase;
ALTER TABLE repository DROP COLUMN allow_merge;
ALTER TABLE repository DROP COLUMN ignore_whitespace_conflicts;
ALTER TABLE repository DROP COLUMN has_actions;
ALTER TABLE repository DROP COLUMN has_packages;
ALTER TABLE repository DROP COLUMN has_releases;
ALTER TABLE repository DROP COLUMN has_projects;
ALTER TABLE repository DROP COLUMN has_pull_requests;
ALTER TABLE repository DROP COLUMN has_wiki;
ALTER TABLE repository DROP COLUMN has_issues;
ALTER TABLE repository DROP COLUMN avatar;
ALTER TABLE repository DROP COLUMN status;
