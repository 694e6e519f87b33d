package issues

import (
	"time"

	"github.com/hearthforge/hearth/forge"
)

// ReviewType is the kind of a pull-request review, with Forgejo's values
// (models/issues/review.go). A review request is a review of type
// ReviewRequest from the requested user or team.
type ReviewType int

// Review types.
const (
	ReviewPending ReviewType = 0
	ReviewApprove ReviewType = 1
	ReviewComment ReviewType = 2
	ReviewReject  ReviewType = 3
	ReviewRequest ReviewType = 4
)

// ReviewState is a review's state on the wire (Forgejo's ReviewStateType).
type ReviewState string

// Review states.
const (
	ReviewStateApproved       ReviewState = "APPROVED"
	ReviewStatePending        ReviewState = "PENDING"
	ReviewStateComment        ReviewState = "COMMENT"
	ReviewStateRequestChanges ReviewState = "REQUEST_CHANGES"
	ReviewStateRequestReview  ReviewState = "REQUEST_REVIEW"
	ReviewStateUnknown        ReviewState = ""
)

// State is the wire state of a review of type t.
func (t ReviewType) State() ReviewState {
	switch t {
	case ReviewPending:
		return ReviewStatePending
	case ReviewApprove:
		return ReviewStateApproved
	case ReviewComment:
		return ReviewStateComment
	case ReviewReject:
		return ReviewStateRequestChanges
	case ReviewRequest:
		return ReviewStateRequestReview
	}
	return ReviewStateUnknown
}

// Review is a review of a pull request, or a review request (Forgejo's
// review table).
type Review struct {
	ID      forge.ID
	IssueID forge.ID
	Type    ReviewType
	// ReviewerID is the reviewing (or requested) user; ReviewerTeamID the
	// requested team (then ReviewerID is 0).
	ReviewerID     forge.ID
	ReviewerTeamID forge.ID
	// OriginalAuthor and OriginalAuthorID name the reviewer of a migrated
	// review.
	OriginalAuthor   string
	OriginalAuthorID int64
	// Content is the review's body.
	Content string
	// Official: the reviewer's approval or rejection counts for branch
	// protection (repos.md §6.2).
	Official bool
	// CommitID is the head commit the review was made on.
	CommitID string
	// Stale: the head moved since (repos.md §6.4).
	Stale bool
	// Dismissed: dismissed by a writer or by a push under
	// dismiss_stale_approvals; never counts again.
	Dismissed bool
	Created   time.Time
	Updated   time.Time
}

// ReviewView is a review with what its JSON shows.
type ReviewView struct {
	Review   *Review
	Issue    *Issue
	Repo     *forge.Repository
	Reviewer *forge.User
	Team     *forge.Team
	// CodeComments counts the review's code comments (comments_count).
	CodeComments int
}

// ReviewCommentView is a code comment of a review with what its JSON
// shows (PullReviewComment).
type ReviewCommentView struct {
	Comment  *Comment
	Review   *Review
	Issue    *Issue
	Repo     *forge.Repository
	Poster   *forge.User
	Resolver *forge.User
	// OrigCommitID is the commit the comment was first made on.
	OrigCommitID string
}

// CreateReviewOption creates a review (Forgejo's CreatePullReviewOptions).
type CreateReviewOption struct {
	// Event is APPROVED, REQUEST_CHANGES, COMMENT or PENDING ("" pending).
	Event ReviewState
	Body  string
	// CommitID is the head commit reviewed; "" the current head.
	CommitID string
	Comments []CreateReviewCommentOption
}

// CreateReviewCommentOption is a code comment (Forgejo's
// CreatePullReviewComment): on line NewLineNum of the new file, or
// OldLineNum of the old one.
type CreateReviewCommentOption struct {
	Path       string
	Body       string
	OldLineNum int64
	NewLineNum int64
}

// SubmitReviewOption submits a pending review (SubmitPullReviewOptions).
type SubmitReviewOption struct {
	Event ReviewState
	Body  string
}

// DismissReviewOption dismisses a review (DismissPullReviewOptions).
type DismissReviewOption struct {
	Message string
	// Priors also dismisses the reviewer's earlier reviews.
	Priors bool
}

// ReviewRequestOption requests or cancels reviews
// (PullReviewRequestOptions): user and team names.
type ReviewRequestOption struct {
	Reviewers     []string
	TeamReviewers []string
}
