package feeds

import (
	"strconv"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// OpType is what an action did, with Forgejo's ActionType numbers.
type OpType int

// Op types (Forgejo's models/activities ActionType, in its order).
const (
	OpCreateRepo OpType = iota + 1
	OpRenameRepo
	OpStarRepo
	OpWatchRepo
	OpCommitRepo
	OpCreateIssue
	OpCreatePullRequest
	OpTransferRepo
	OpPushTag
	OpCommentIssue
	OpMergePullRequest
	OpCloseIssue
	OpReopenIssue
	OpClosePullRequest
	OpReopenPullRequest
	OpDeleteTag
	OpDeleteBranch
	OpMirrorSyncPush
	OpMirrorSyncCreate
	OpMirrorSyncDelete
	OpApprovePullRequest
	OpRejectPullRequest
	OpCommentPull
	OpPublishRelease
	OpPullReviewDismissed
	OpPullRequestReadyForReview
	OpAutoMergePullRequest
)

var opNames = [...]string{"", "create_repo", "rename_repo", "star_repo", "watch_repo", "commit_repo", "create_issue",
	"create_pull_request", "transfer_repo", "push_tag", "comment_issue", "merge_pull_request", "close_issue",
	"reopen_issue", "close_pull_request", "reopen_pull_request", "delete_tag", "delete_branch", "mirror_sync_push",
	"mirror_sync_create", "mirror_sync_delete", "approve_pull_request", "reject_pull_request", "comment_pull",
	"publish_release", "pull_review_dismissed", "pull_request_ready_for_review", "auto_merge_pull_request"}

// String is Forgejo's name of the op type (the API's op_type), and
// "action-<n>" for a number it does not know.
func (o OpType) String() string {
	if o > 0 && int(o) < len(opNames) {
		return opNames[o]
	}
	return "action-" + strconv.Itoa(int(o))
}

// Unit is the repository unit a watcher must be able to read to receive
// an action of type o (Forgejo's NotifyWatchers), and ok false for the
// types every watcher receives.
func (o OpType) Unit() (forge.Unit, bool) {
	switch o {
	case OpCommitRepo, OpPushTag, OpDeleteTag, OpPublishRelease, OpDeleteBranch:
		return forge.UnitCode, true
	case OpCreateIssue, OpCommentIssue, OpCloseIssue, OpReopenIssue:
		return forge.UnitIssues, true
	case OpCreatePullRequest, OpCommentPull, OpMergePullRequest, OpClosePullRequest, OpReopenPullRequest, OpAutoMergePullRequest:
		return forge.UnitPulls, true
	}
	return "", false
}

// Action is one row of a feed (Forgejo's Action): what ActUserID did on
// RepoID, as received by UserID.
type Action struct {
	ID forge.ID
	// UserID is the receiver: whose feed the row is in.
	UserID    forge.ID
	OpType    OpType
	ActUserID forge.ID
	RepoID    forge.ID
	CommentID forge.ID
	// RefName is the full reference (refs/heads/…, refs/tags/…) of ref
	// actions, the tag of a release.
	RefName   string
	IsPrivate bool
	// Content is Forgejo's: "<index>|<title or text>" for issue actions,
	// the title of a release.
	Content string
	Created time.Time
	// EventID is the outbox event the row was written for (Ports.Record's
	// idempotency key), 0 if none.
	EventID forge.ID
}

// HeatmapBucket is the number of contributions in the quarter of an hour
// starting at Timestamp (Unix seconds, a multiple of 900).
type HeatmapBucket struct {
	Timestamp     int64
	Contributions int64
}

// HeatmapBucketSeconds is the width of a heatmap bucket: Forgejo groups by
// created_unix / 900 * 900, so that clients may shift days to their zone.
const HeatmapBucketSeconds = 900
