-- +goose Up
-- Pull requests, their reviews and review requests, and scheduled merges
-- (Forgejo's pull_request, review and pull_auto_merge). Times are Unix
-- seconds, 0 for "none". merger_id, reviewer_id and doer_id carry no
-- foreign key: what a deleted account merged, reviewed or scheduled stays
-- (Forgejo shows the ghost user).

-- One row per pull request's issue; it goes with its issue (and so with
-- its repository). head_repo_id is NULL for "none" (the domain's 0):
-- deleting the head fork clears it. conflicted_files and
-- changed_protected_files are JSON arrays of paths, NULL for none (nil).
CREATE TABLE pull_request (
    id                      INTEGER PRIMARY KEY AUTOINCREMENT,
    issue_id                INTEGER NOT NULL UNIQUE REFERENCES issue (id) ON DELETE CASCADE,
    "index"                 INTEGER NOT NULL,
    base_repo_id            INTEGER NOT NULL REFERENCES repository (id) ON DELETE CASCADE,
    head_repo_id            INTEGER REFERENCES repository (id) ON DELETE SET NULL,
    base_branch             TEXT    NOT NULL DEFAULT '',
    head_branch             TEXT    NOT NULL DEFAULT '',
    head_commit_id          TEXT    NOT NULL DEFAULT '',
    merge_base              TEXT    NOT NULL DEFAULT '',
    status                  INTEGER NOT NULL DEFAULT 0,
    conflicted_files        TEXT,
    changed_protected_files TEXT,
    commits_ahead           INTEGER NOT NULL DEFAULT 0,
    commits_behind          INTEGER NOT NULL DEFAULT 0,
    additions               INTEGER NOT NULL DEFAULT 0,
    deletions               INTEGER NOT NULL DEFAULT 0,
    changed_files           INTEGER NOT NULL DEFAULT 0,
    allow_maintainer_edit   INTEGER NOT NULL DEFAULT 0,
    has_merged              INTEGER NOT NULL DEFAULT 0,
    merged_unix             INTEGER NOT NULL DEFAULT 0,
    merged_commit_id        TEXT    NOT NULL DEFAULT '',
    merger_id               INTEGER NOT NULL DEFAULT 0,
    flow                    INTEGER NOT NULL DEFAULT 0
);
-- FindPulls' filters: by base (repository, branch), by head (repository,
-- branch: a push or a branch deletion), by merge commit (commit → pull).
-- Each walks its index in id order (the rowid ends every index entry).
CREATE INDEX pull_request_base ON pull_request (base_repo_id, base_branch);
CREATE INDEX pull_request_head ON pull_request (head_repo_id, head_branch) WHERE head_repo_id IS NOT NULL;
CREATE INDEX pull_request_merged ON pull_request (base_repo_id, merged_commit_id) WHERE merged_commit_id <> '';

-- The pull-request list (and the issue list) of one repository and state
-- in creation order: issue_repo_state would walk every issue of the
-- repository to keep its pull requests.
CREATE INDEX issue_repo_pull ON issue (repo_id, is_pull, is_closed, created_unix);

-- Reviews and review requests (type 4, from reviewer_id or from the team
-- reviewer_team_id; 0 for "none"). A review goes with its issue.
CREATE TABLE review (
    id                 INTEGER PRIMARY KEY AUTOINCREMENT,
    issue_id           INTEGER NOT NULL REFERENCES issue (id) ON DELETE CASCADE,
    type               INTEGER NOT NULL,
    reviewer_id        INTEGER NOT NULL DEFAULT 0,
    reviewer_team_id   INTEGER NOT NULL DEFAULT 0,
    original_author    TEXT    NOT NULL DEFAULT '',
    original_author_id INTEGER NOT NULL DEFAULT 0,
    content            TEXT    NOT NULL DEFAULT '',
    official           INTEGER NOT NULL DEFAULT 0,
    commit_id          TEXT    NOT NULL DEFAULT '',
    stale              INTEGER NOT NULL DEFAULT 0,
    dismissed          INTEGER NOT NULL DEFAULT 0,
    created_unix       INTEGER NOT NULL,
    updated_unix       INTEGER NOT NULL
);
-- ListReviews: the reviews of an issue in id order.
CREATE INDEX review_issue ON review (issue_id);
-- The requests of a team, for the team's deletion.
CREATE INDEX review_team ON review (reviewer_team_id) WHERE reviewer_team_id <> 0;

-- Deleting a team withdraws the reviews requested from it (Forgejo's
-- DeleteTeam).
-- +goose StatementBegin
CREATE TRIGGER review_team_delete AFTER DELETE ON team BEGIN
    DELETE FROM review WHERE reviewer_team_id = OLD.id AND reviewer_team_id <> 0 AND type = 4;
END;
-- +goose StatementEnd

-- A merge scheduled for when the checks succeed; at most one per pull
-- request, gone with it.
CREATE TABLE pull_auto_merge (
    id                        INTEGER PRIMARY KEY AUTOINCREMENT,
    pull_id                   INTEGER NOT NULL UNIQUE REFERENCES pull_request (id) ON DELETE CASCADE,
    doer_id                   INTEGER NOT NULL,
    merge_style               TEXT    NOT NULL DEFAULT '',
    message                   TEXT    NOT NULL DEFAULT '',
    delete_branch_after_merge INTEGER NOT NULL DEFAULT 0,
    created_unix              INTEGER NOT NULL
);

-- The code comments and review events of the comment table: review_id is
-- the review a comment belongs to (0 none; DeleteReview removes them),
-- tree_path, line (negative: of the old file), commit_sha and patch place
-- a code comment, resolve_doer_id resolved its conversation,
-- assignee_team_id is the team of a review request event.
ALTER TABLE comment ADD COLUMN review_id INTEGER NOT NULL DEFAULT 0;
ALTER TABLE comment ADD COLUMN tree_path TEXT NOT NULL DEFAULT '';
ALTER TABLE comment ADD COLUMN line INTEGER NOT NULL DEFAULT 0;
ALTER TABLE comment ADD COLUMN commit_sha TEXT NOT NULL DEFAULT '';
ALTER TABLE comment ADD COLUMN patch TEXT NOT NULL DEFAULT '';
ALTER TABLE comment ADD COLUMN invalidated INTEGER NOT NULL DEFAULT 0;
ALTER TABLE comment ADD COLUMN resolve_doer_id INTEGER NOT NULL DEFAULT 0;
ALTER TABLE comment ADD COLUMN assignee_team_id INTEGER NOT NULL DEFAULT 0;
-- ReviewComments: a review's comments in creation order.
CREATE INDEX comment_review ON comment (review_id, created_unix) WHERE review_id <> 0;

-- +goose Down
DROP INDEX comment_review;
ALTER TABLE comment DROP COLUMN assignee_team_id;
ALTER TABLE comment DROP COLUMN resolve_doer_id;
ALTER TABLE comment DROP COLUMN invalidated;
ALTER TABLE comment DROP COLUMN patch;
ALTER TABLE comment DROP COLUMN commit_sha;
ALTER TABLE comment DROP COLUMN line;
ALTER TABLE comment DROP COLUMN tree_path;
ALTER TABLE comment DROP COLUMN review_id;
DROP TABLE pull_auto_merge;
DROP TRIGGER review_team_delete;
DROP TABLE review;
DROP TABLE pull_request;
DROP INDEX issue_repo_pull;
