package issues_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/issues"
)

func TestCanUseTimetracker(t *testing.T) {
	t.Parallel()
	on := &forge.InternalTracker{EnableTimeTracker: true, AllowOnlyContributorsToTrackTime: true, EnableIssueDependencies: true}
	open := &forge.InternalTracker{EnableTimeTracker: true}
	off := &forge.InternalTracker{AllowOnlyContributorsToTrackTime: true}
	cases := []struct {
		name                         string
		repo                         forge.Repository
		write, poster, assignee, use bool
		deps                         bool
	}{
		{name: "contributors only: reader", repo: forge.Repository{HasIssues: true, InternalTracker: on}, deps: true},
		{name: "contributors only: writer", repo: forge.Repository{HasIssues: true, InternalTracker: on}, write: true, use: true, deps: true},
		{name: "contributors only: poster", repo: forge.Repository{HasIssues: true, InternalTracker: on}, poster: true, use: true, deps: true},
		{name: "contributors only: assignee", repo: forge.Repository{HasIssues: true, InternalTracker: on}, assignee: true, use: true, deps: true},
		{name: "anyone", repo: forge.Repository{HasIssues: true, InternalTracker: open}, use: true},
		{name: "tracker off", repo: forge.Repository{HasIssues: true, InternalTracker: off}, write: true},
		{name: "issues off", repo: forge.Repository{InternalTracker: on}, write: true},
		{name: "external tracker", repo: forge.Repository{HasIssues: true, ExternalTracker: &forge.ExternalTracker{URL: "https://x"}}, write: true},
		{name: "no settings: defaults", repo: forge.Repository{HasIssues: true}, write: true, use: true, deps: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.use, issues.CanUseTimetracker(&c.repo, c.write, c.poster, c.assignee))
			assert.Equal(t, c.deps, issues.DependenciesEnabled(&c.repo))
		})
	}
}
