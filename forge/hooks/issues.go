package hooks

// Issue actions (Forgejo's HookIssueAction values).
const (
	ActionOpened   = "opened"
	ActionClosed   = "closed"
	ActionReopened = "reopened"
	ActionEdited   = "edited"
	ActionCreated  = "created" // a comment
)
