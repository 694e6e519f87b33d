package hooks

// Issue actions of the edit events (Forgejo's HookIssueAction values).
const (
	ActionAssigned     = "assigned"
	ActionUnassigned   = "unassigned"
	ActionLabelUpdated = "label_updated"
	ActionLabelCleared = "label_cleared"
	ActionMilestoned   = "milestoned"
	ActionDemilestoned = "demilestoned"
	ActionDeleted      = "deleted" // a comment
)

// IssueEventWord is the event word a hook subscribes to, and the
// X-Forgejo-Event and X-Forgejo-Event-Type headers, of an issues (isPull
// false) or pull_request event with action, as Forgejo's notifier files
// them: assignments under issue_assign, labels under issue_label,
// milestones under issue_milestone (pull_request_* for pull requests),
// everything else under issues_only (pull_request_only), whose event type
// is "issues" ("pull_request").
func IssueEventWord(action string, isPull bool) (word, name, typ string) {
	kind, name := "issue", "issues"
	if isPull {
		kind, name = "pull_request", "pull_request"
	}
	switch action {
	case ActionAssigned, ActionUnassigned:
		word = kind + "_assign"
	case ActionLabelUpdated, ActionLabelCleared:
		word = kind + "_label"
	case ActionMilestoned, ActionDemilestoned:
		word = kind + "_milestone"
	default:
		return name + "_only", name, name
	}
	return word, name, word
}
