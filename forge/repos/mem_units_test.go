package repos_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/hearthforge/hearth/forge/repos"
)

// TestNewRepositoryActionsUnit: a new repository has the Actions unit
// unless Actions are disabled (Forgejo's [actions] ENABLED = false takes
// repo.actions out of the default units).
func TestNewRepositoryActionsUnit(t *testing.T) {
	t.Parallel()
	on := newMemEnv(t)
	assert.True(t, on.repo(t, on.user(t, "alice"), "proj", false).Repo.HasActions, "Actions enabled: the unit is on")
	off := newMemEnv(t, func(c *repos.Config) { c.DisableActions = true })
	v := off.repo(t, off.user(t, "alice"), "proj", false)
	assert.False(t, v.Repo.HasActions, "Actions disabled: the unit is off")
	assert.True(t, v.Repo.HasIssues && v.Repo.HasPullRequests && v.Repo.HasReleases, "the other units stay")
}
