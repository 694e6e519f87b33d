package hooks

// Review event types (Forgejo's HookEventType of a submitted review).
const (
	ReviewApproved = "pull_request_review_approved"
	ReviewRejected = "pull_request_review_rejected"
	ReviewComment  = "pull_request_review_comment"
)

// reviewEventName is the X-Forgejo-Event header of a review event type
// (Forgejo's HookEventType.Event).
var reviewEventName = map[string]string{
	ReviewApproved: "pull_request_approved",
	ReviewRejected: "pull_request_rejected",
	ReviewComment:  "pull_request_comment",
}

// Pull request actions besides the issue ones (Forgejo's HookIssueAction).
const (
	ActionSynchronized         = "synchronized"
	ActionReviewed             = "reviewed"
	ActionReviewRequested      = "review_requested"
	ActionReviewRequestRemoved = "review_request_removed"
)

// PayloadReview is the review of a review event as the converters read it
// (Forgejo's ReviewPayload).
type PayloadReview struct {
	Type    string `json:"type"`
	Content string `json:"content"`
}
