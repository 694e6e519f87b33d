package hooks_test

import (
	"testing"

	"github.com/hearthforge/hearth/forge/hooks"
	"github.com/stretchr/testify/assert"
)

// TestIssueEventWord: each edit action is filed under Forgejo's hook event
// family, and a hook subscribed to issues (or pull_request) receives them
// all while one subscribed to issues_only does not receive the assign,
// label and milestone families.
func TestIssueEventWord(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		action           string
		pull             bool
		word, name, typ  string
		onlyGets, allGet bool
	}{
		{hooks.ActionEdited, false, "issues_only", "issues", "issues", true, true},
		{hooks.ActionAssigned, false, "issue_assign", "issues", "issue_assign", false, true},
		{hooks.ActionUnassigned, false, "issue_assign", "issues", "issue_assign", false, true},
		{hooks.ActionLabelUpdated, false, "issue_label", "issues", "issue_label", false, true},
		{hooks.ActionLabelCleared, false, "issue_label", "issues", "issue_label", false, true},
		{hooks.ActionMilestoned, false, "issue_milestone", "issues", "issue_milestone", false, true},
		{hooks.ActionDemilestoned, false, "issue_milestone", "issues", "issue_milestone", false, true},
		{hooks.ActionEdited, true, "pull_request_only", "pull_request", "pull_request", true, true},
		{hooks.ActionAssigned, true, "pull_request_assign", "pull_request", "pull_request_assign", false, true},
		{hooks.ActionLabelCleared, true, "pull_request_label", "pull_request", "pull_request_label", false, true},
		{hooks.ActionDemilestoned, true, "pull_request_milestone", "pull_request", "pull_request_milestone", false, true},
	} {
		word, name, typ := hooks.IssueEventWord(c.action, c.pull)
		assert.Equal(t, []string{c.word, c.name, c.typ}, []string{word, name, typ}, "%s pull=%v", c.action, c.pull)
		group, only := "issues", "issues_only"
		other := "pull_request"
		if c.pull {
			group, only, other = "pull_request", "pull_request_only", "issues"
		}
		assert.Equal(t, c.allGet, hooks.Subscribes([]string{group}, word), "%s pull=%v under %s", c.action, c.pull, group)
		assert.Equal(t, c.onlyGets, hooks.Subscribes([]string{only}, word), "%s pull=%v under %s", c.action, c.pull, only)
		assert.False(t, hooks.Subscribes([]string{other}, word), "%s pull=%v under %s", c.action, c.pull, other)
	}
}
