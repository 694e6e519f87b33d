package issues_test

import (
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/issues"
)

// The repository service is the pull requests' PullRepos as it is.
var _ issues.PullRepos = (*repos.Service)(nil)
