package issues

// Comment types of pull requests (models/issues/comment.go).
const (
	CommentDeleteBranch             CommentType = 11
	CommentCode                     CommentType = 21
	CommentReview                   CommentType = 22
	CommentChangeTargetBranch       CommentType = 25
	CommentReviewRequest            CommentType = 27
	CommentMergePull                CommentType = 28
	CommentPullPush                 CommentType = 29
	CommentDismissReview            CommentType = 32
	CommentPullScheduledMerge       CommentType = 34
	CommentPullCancelScheduledMerge CommentType = 35
)

// Event kinds of pull requests (Event.Kind; Event.Issue.IsPull is set and
// Event.Pull is the pull request).
const (
	// EventPullSync: the head moved (a push): Forgejo's "synchronized".
	EventPullSync EventKind = "synchronized"
	// EventPullMerge: merged (Event.Comment is the merge comment).
	EventPullMerge EventKind = "merged"
	// EventPullRetarget: the base branch changed (edited).
	EventPullRetarget EventKind = "edited"
	// EventPullReview: a review was submitted (Event.Review).
	EventPullReview EventKind = "reviewed"
	// EventPullReviewRequest and EventPullReviewRequestRemoved: a review
	// was requested or its request removed (Event.Review).
	EventPullReviewRequest        EventKind = "review_requested"
	EventPullReviewRequestRemoved EventKind = "review_request_removed"
)
