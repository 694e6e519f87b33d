-- +goose Up
-- Repository settings and topics get explicit columns and a child table
-- (they were JSON whose field names were Go's); status makes creation and
-- deletion recoverable (0 ready, 1 creating, 2 deleting).
ALTER TABLE repository ADD COLUMN status INTEGER NOT NULL DEFAULT 0;
ALTER TABLE repository ADD COLUMN avatar TEXT NOT NULL DEFAULT '';
ALTER TABLE repository ADD COLUMN has_issues INTEGER NOT NULL DEFAULT 0;
ALTER TABLE repository ADD COLUMN has_wiki INTEGER NOT NULL DEFAULT 0;
ALTER TABLE repository ADD COLUMN has_pull_requests INTEGER NOT NULL DEFAULT 0;
ALTER TABLE repository ADD COLUMN has_projects INTEGER NOT NULL DEFAULT 0;
ALTER TABLE repository ADD COLUMN has_releases INTEGER NOT NULL DEFAULT 0;
ALTER TABLE repository ADD COLUMN has_packages INTEGER NOT NULL DEFAULT 0;
ALTER TABLE repository ADD COLUMN has_actions INTEGER NOT NULL DEFAULT 0;
ALTER TABLE repository ADD COLUMN ignore_whitespace_conflicts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE repository ADD COLUMN allow_merge INTEGER NOT NULL DEFAULT 0;
ALTER TABLE repository ADD COLUMN allow_rebase INTEGER NOT NULL DEFAULT 0;
ALTER TABLE repository ADD COLUMN allow_rebase_explicit INTEGER NOT NULL DEFAULT 0;
ALTER TABLE repository ADD COLUMN allow_squash INTEGER NOT NULL DEFAULT 0;
ALTER TABLE repository ADD COLUMN allow_fast_forward_only INTEGER NOT NULL DEFAULT 0;
ALTER TABLE repository ADD COLUMN allow_manual_merge INTEGER NOT NULL DEFAULT 0;
ALTER TABLE repository ADD COLUMN autodetect_manual_merge INTEGER NOT NULL DEFAULT 0;
ALTER TABLE repository ADD COLUMN allow_rebase_update INTEGER NOT NULL DEFAULT 0;
ALTER TABLE repository ADD COLUMN default_delete_branch_after_merge INTEGER NOT NULL DEFAULT 0;
ALTER TABLE repository ADD COLUMN default_allow_maintainer_edit INTEGER NOT NULL DEFAULT 0;
ALTER TABLE repository ADD COLUMN default_merge_style TEXT NOT NULL DEFAULT '';
ALTER TABLE repository ADD COLUMN default_update_style TEXT NOT NULL DEFAULT '';
ALTER TABLE repository ADD COLUMN wiki_branch TEXT NOT NULL DEFAULT '';
ALTER TABLE repository ADD COLUMN globally_editable_wiki INTEGER NOT NULL DEFAULT 0;
-- internal tracker: present flag and its settings
ALTER TABLE repository ADD COLUMN internal_tracker INTEGER NOT NULL DEFAULT 0;
ALTER TABLE repository ADD COLUMN enable_time_tracker INTEGER NOT NULL DEFAULT 0;
ALTER TABLE repository ADD COLUMN allow_only_contributors_to_track_time INTEGER NOT NULL DEFAULT 0;
ALTER TABLE repository ADD COLUMN enable_issue_dependencies INTEGER NOT NULL DEFAULT 0;
-- external tracker and wiki: present flag and their settings
ALTER TABLE repository ADD COLUMN external_tracker INTEGER NOT NULL DEFAULT 0;
ALTER TABLE repository ADD COLUMN external_tracker_url TEXT NOT NULL DEFAULT '';
ALTER TABLE repository ADD COLUMN external_tracker_format TEXT NOT NULL DEFAULT '';
ALTER TABLE repository ADD COLUMN external_tracker_style TEXT NOT NULL DEFAULT '';
ALTER TABLE repository ADD COLUMN external_tracker_regexp_pattern TEXT NOT NULL DEFAULT '';
ALTER TABLE repository ADD COLUMN external_wiki INTEGER NOT NULL DEFAULT 0;
ALTER TABLE repository ADD COLUMN external_wiki_url TEXT NOT NULL DEFAULT '';

UPDATE repository SET
    avatar = coalesce(json_extract(settings, '$.Avatar'), ''),
    has_issues = coalesce(json_extract(settings, '$.HasIssues'), 0),
    has_wiki = coalesce(json_extract(settings, '$.HasWiki'), 0),
    has_pull_requests = coalesce(json_extract(settings, '$.HasPullRequests'), 0),
    has_projects = coalesce(json_extract(settings, '$.HasProjects'), 0),
    has_releases = coalesce(json_extract(settings, '$.HasReleases'), 0),
    has_packages = coalesce(json_extract(settings, '$.HasPackages'), 0),
    has_actions = coalesce(json_extract(settings, '$.HasActions'), 0),
    ignore_whitespace_conflicts = coalesce(json_extract(settings, '$.IgnoreWhitespaceConflicts'), 0),
    allow_merge = coalesce(json_extract(settings, '$.AllowMerge'), 0),
    allow_rebase = coalesce(json_extract(settings, '$.AllowRebase'), 0),
    allow_rebase_explicit = coalesce(json_extract(settings, '$.AllowRebaseExplicit'), 0),
    allow_squash = coalesce(json_extract(settings, '$.AllowSquash'), 0),
    allow_fast_forward_only = coalesce(json_extract(settings, '$.AllowFastForwardOnly'), 0),
    allow_manual_merge = coalesce(json_extract(settings, '$.AllowManualMerge'), 0),
    autodetect_manual_merge = coalesce(json_extract(settings, '$.AutodetectManualMerge'), 0),
    allow_rebase_update = coalesce(json_extract(settings, '$.AllowRebaseUpdate'), 0),
    default_delete_branch_after_merge = coalesce(json_extract(settings, '$.DefaultDeleteBranchAfterMerge'), 0),
    default_allow_maintainer_edit = coalesce(json_extract(settings, '$.DefaultAllowMaintainerEdit'), 0),
    default_merge_style = coalesce(json_extract(settings, '$.DefaultMergeStyle'), ''),
    default_update_style = coalesce(json_extract(settings, '$.DefaultUpdateStyle'), ''),
    wiki_branch = coalesce(json_extract(settings, '$.WikiBranch'), ''),
    globally_editable_wiki = coalesce(json_extract(settings, '$.GloballyEditableWiki'), 0),
    internal_tracker = coalesce(json_type(settings, '$.InternalTracker') = 'object', 0),
    enable_time_tracker = coalesce(json_extract(settings, '$.InternalTracker.enable_time_tracker'), 0),
    allow_only_contributors_to_track_time = coalesce(json_extract(settings, '$.InternalTracker.allow_only_contributors_to_track_time'), 0),
    enable_issue_dependencies = coalesce(json_extract(settings, '$.InternalTracker.enable_issue_dependencies'), 0),
    external_tracker = coalesce(json_type(settings, '$.ExternalTracker') = 'object', 0),
    external_tracker_url = coalesce(json_extract(settings, '$.ExternalTracker.external_tracker_url'), ''),
    external_tracker_format = coalesce(json_extract(settings, '$.ExternalTracker.external_tracker_format'), ''),
    external_tracker_style = coalesce(json_extract(settings, '$.ExternalTracker.external_tracker_style'), ''),
    external_tracker_regexp_pattern = coalesce(json_extract(settings, '$.ExternalTracker.external_tracker_regexp_pattern'), ''),
    external_wiki = coalesce(json_type(settings, '$.ExternalWiki') = 'object', 0),
    external_wiki_url = coalesce(json_extract(settings, '$.ExternalWiki.external_wiki_url'), '');

CREATE TABLE repo_topic (
    repo_id INTEGER NOT NULL REFERENCES repository (id) ON DELETE CASCADE,
    topic   TEXT    NOT NULL,
    PRIMARY KEY (repo_id, topic)
);
CREATE INDEX repo_topic_topic ON repo_topic (topic);
INSERT INTO repo_topic (repo_id, topic) SELECT r.id, j.value FROM repository r, json_each(r.topics) j;

ALTER TABLE repository DROP COLUMN settings;
ALTER TABLE repository DROP COLUMN topics;

-- +goose Down
ALTER TABLE repository ADD COLUMN settings TEXT NOT NULL DEFAULT '{}';
ALTER TABLE repository ADD COLUMN topics TEXT NOT NULL DEFAULT '[]';
UPDATE repository SET topics = coalesce((SELECT json_group_array(topic) FROM repo_topic t WHERE t.repo_id = repository.id), '[]');
UPDATE repository SET settings = json_object(
    'HasIssues', json(CASE has_issues WHEN 1 THEN 'true' ELSE 'false' END),
    'HasWiki', json(CASE has_wiki WHEN 1 THEN 'true' ELSE 'false' END),
    'HasPullRequests', json(CASE has_pull_requests WHEN 1 THEN 'true' ELSE 'false' END),
    'HasProjects', json(CASE has_projects WHEN 1 THEN 'true' ELSE 'false' END),
    'HasReleases', json(CASE has_releases WHEN 1 THEN 'true' ELSE 'false' END),
    'HasPackages', json(CASE has_packages WHEN 1 THEN 'true' ELSE 'false' END),
    'HasActions', json(CASE has_actions WHEN 1 THEN 'true' ELSE 'false' END),
    'AllowMerge', json(CASE allow_merge WHEN 1 THEN 'true' ELSE 'false' END),
    'AllowRebase', json(CASE allow_rebase WHEN 1 THEN 'true' ELSE 'false' END),
    'AllowRebaseExplicit', json(CASE allow_rebase_explicit WHEN 1 THEN 'true' ELSE 'false' END),
    'AllowSquash', json(CASE allow_squash WHEN 1 THEN 'true' ELSE 'false' END),
    'AllowFastForwardOnly', json(CASE allow_fast_forward_only WHEN 1 THEN 'true' ELSE 'false' END),
    'AllowRebaseUpdate', json(CASE allow_rebase_update WHEN 1 THEN 'true' ELSE 'false' END),
    'DefaultMergeStyle', default_merge_style, 'DefaultUpdateStyle', default_update_style,
    'WikiBranch', wiki_branch, 'Avatar', avatar);
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
