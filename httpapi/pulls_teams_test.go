package httpapi_test

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/forge/site"
	"github.com/hearthforge/hearth/httpapi"
	"github.com/hearthforge/hearth/issues"
	"github.com/hearthforge/hearth/storage/gitstore"
)

// newOrgPullEnv is newPullEnv with organisations wired as examples/forged
// does (issues.Config.Teams is the organisations service); e.proj is
// acme/svc, a private repository of organisation acme (alice owns acme),
// with main and a branch feat pushed over git HTTP.
func newOrgPullEnv(t *testing.T) *pullEnv {
	t.Helper()
	b := newBase(t, filepath.Join(t.TempDir(), "hearth.db"), testSecret)
	db, clock, svc, git, blobs := b.db, b.clock, b.auth, b.git, b.blobs
	late := &lateListener{}
	repoSvc, _ := b.repoService(t, func(c *repos.Config) { c.PushListeners = []repos.PushListener{late} })
	orgSvc, orgPorts := b.orgService(t, repoSvc)
	issueSvc, issuePorts, err := issues.NewWithPorts(issues.Config{Store: db.Issues(), Repos: repoSvc, Orgs: orgSvc, Search: site.IssueRepos{Repos: repoSvc},
		Clock: clock, Blobs: blobs, Teams: orgSvc, TeamLookup: orgPorts, Pulls: issues.PullConfig{Git: git, Repos: repoSvc}})
	require.NoError(t, err)
	late.svc, late.ports = issueSvc, issuePorts
	e := &pullEnv{issueEnv: issueUsers(b.serve(t, httpapi.Config{Auth: svc, Repos: repoSvc, Orgs: orgSvc, Issues: issueSvc,
		Git: gitstore.HTTP{Store: git, MaxPushBytes: gitstore.DefaultMaxPushBytes}}), issueSvc, "/api/v1/repos/acme/svc"), git: git}
	e.send(e.root, "POST", "/api/v1/admin/users/alice/orgs", map[string]any{"username": "acme"}, 201)
	e.send(e.alice, "POST", "/api/v1/orgs/acme/repos", map[string]any{"name": "svc", "private": true}, 201)
	w := e.work("alice", e.alice, "acme", "svc", "")
	w.commit("init", map[string]string{"a.txt": "1\n"})
	w.push("main")
	w.git("checkout", "-q", "-b", "feat")
	w.commit("feat", map[string]string{"f.txt": "f\n"})
	w.push("feat")
	return e
}

// TestPullTeamReviewRequests: on an organisation's repository
// team_reviewers asks a team (listed in requested_reviewers_teams, kept
// once, removed by DELETE); an unknown team is 404, a team without the
// private repository 422; a member of a team of the merge whitelist
// merges, a writer in no whitelisted team may not.
func TestPullTeamReviewRequests(t *testing.T) {
	t.Parallel()
	e := newOrgPullEnv(t)
	team := func(name string, withRepo bool, members ...string) int {
		tm := e.send(e.alice, "POST", "/api/v1/orgs/acme/teams", map[string]any{"name": name, "permission": "write",
			"units_map": map[string]string{"repo.code": "write", "repo.pulls": "write"}}, 201).json(t)
		id := num(tm["id"])
		for _, u := range members {
			e.send(e.alice, "PUT", fmt.Sprintf("/api/v1/teams/%d/members/%s", id, u), nil, 204)
		}
		if withRepo {
			e.send(e.alice, "PUT", fmt.Sprintf("/api/v1/teams/%d/repos/acme/svc", id), nil, 204)
		}
		return id
	}
	devs := team("devs", true, "bob")
	team("others", false)
	e.send(e.alice, "PUT", e.proj+"/collaborators/eve", map[string]any{"permission": "write"}, 204)
	e.newPull(e.alice, "feat", "main", "feature")

	rr := e.pullPath(1, "/requested_reviewers")
	reqs := e.send(e.alice, "POST", rr, map[string]any{"team_reviewers": []string{"devs"}}, 201).list(t)
	require.Len(t, reqs, 1)
	assert.Equal(t, "REQUEST_REVIEW", reqs[0]["state"])
	require.NotNil(t, reqs[0]["team"])
	assert.EqualValues(t, devs, reqs[0]["team"].(map[string]any)["id"])
	assert.Len(t, e.send(e.alice, "POST", rr, map[string]any{"team_reviewers": []string{"devs"}}, 201).list(t), 1)
	pr := e.getPull(1)
	require.Len(t, pr["requested_reviewers_teams"], 1)
	assert.Equal(t, "devs", pr["requested_reviewers_teams"].([]any)[0].(map[string]any)["name"], "a pull request names its requested teams")
	reviews := e.send(e.alice, "GET", e.pullPath(1, "/reviews"), nil, 200).list(t)
	require.Len(t, reviews, 1)
	assert.Equal(t, "devs", reviews[0]["team"].(map[string]any)["name"], "a team's review request names the team")
	e.expect(e.do(req{method: "POST", path: rr, token: e.alice, body: map[string]any{"team_reviewers": []string{"ghost"}}}), 404, "")
	e.expect(e.do(req{method: "POST", path: rr, token: e.alice, body: map[string]any{"team_reviewers": []string{"others"}}}), 422, "")
	e.send(e.alice, "DELETE", rr, map[string]any{"team_reviewers": []string{"devs"}}, 204)
	assert.Empty(t, e.getPull(1)["requested_reviewers_teams"])

	// Merge whitelist by team: eve writes but is in no team of it.
	e.send(e.alice, "POST", e.proj+"/branch_protections", map[string]any{"rule_name": "main",
		"enable_merge_whitelist": true, "merge_whitelist_teams": []string{"devs"}}, 201)
	e.expect(e.do(req{method: "POST", path: e.pullPath(1, "/merge"), token: e.eve, body: map[string]any{"Do": "merge"}}), 405, "")
	e.send(e.bob, "POST", e.pullPath(1, "/merge"), map[string]any{"Do": "merge"}, 200)
	assert.Equal(t, true, e.getPull(1)["merged"])
}
