package issues_test

import (
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/issues"
)

// The repository service, which the wiring passes as Config.Pulls.Repos,
// finds the forks of other names that heads "owner:branch" name.
var _ issues.PullForks = (*repos.Service)(nil)
