package issues

import (
	"context"

	"github.com/hearthforge/hearth/forge"
)

// SetCheckHook makes fn run at the start of every pull request check of s
// (the issue id of the pull request checked). Set it before any check
// runs.
func SetCheckHook(s *Service, fn func(ctx context.Context, issueID forge.ID)) {
	s.checks.mu.Lock()
	s.checks.hook = fn
	s.checks.mu.Unlock()
}
