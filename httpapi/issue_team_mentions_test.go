package httpapi_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge/notify"
	"github.com/hearthforge/hearth/forge/site"
	"github.com/hearthforge/hearth/httpapi"
	"github.com/hearthforge/hearth/issues"
)

// newTeamMentionEnv wires issues, organisations and notifications as
// forge/site does, on SQLite; users alice, bob and eve (alice/proj
// exists, bob writes it), every answer checked against the document.
func newTeamMentionEnv(t *testing.T) *issueEnv {
	t.Helper()
	b := newBase(t, ":memory:", testSecret)
	db, clock, svc, git, blobs := b.db, b.clock, b.auth, b.git, b.blobs
	repoSvc, repoPorts := b.repoService(t)
	orgSvc, orgPorts := b.orgService(t, repoSvc)
	issueSvc, participants, err := issues.NewWithPorts(issues.Config{Store: db.Issues(), Repos: repoSvc, Orgs: orgSvc,
		Search: site.IssueRepos{Repos: repoSvc}, Clock: clock, Blobs: blobs, Teams: orgSvc, TeamLookup: orgPorts})
	require.NoError(t, err)
	notifySvc, ports, err := notify.NewWithPorts(notify.Config{Store: db.Notify(), Repos: repoSvc, Watchers: repoPorts,
		Participants: participants, Clock: clock})
	require.NoError(t, err)
	e := issueUsers(b.serve(t, httpapi.Config{Auth: svc, Repos: repoSvc, Git: git, Orgs: orgSvc, Issues: issueSvc, Notify: notifySvc},
		b.notifications(t, ports)), issueSvc, "/api/v1/repos/alice/proj")
	return e
}

// TestIssueTeamMentions: `@acme/devs` in an issue or a comment of an
// acme repository mentions every member of devs that may read it (the
// mentioned=true search finds the issue) and gives each a notification
// thread, when the writer is a member of acme; a writer who is not (a
// mere collaborator) mentions nobody through the team.
func TestIssueTeamMentions(t *testing.T) {
	t.Parallel()
	e := newTeamMentionEnv(t)
	e.createUser("dave")
	dave := e.token("dave", "all")
	e.send(e.root, "POST", "/api/v1/admin/users/alice/orgs", map[string]any{"username": "acme"}, 201)
	e.send(e.alice, "POST", "/api/v1/orgs/acme/repos", map[string]any{"name": "tracker", "private": true}, 201)
	tm := e.send(e.alice, "POST", "/api/v1/orgs/acme/teams", map[string]any{"name": "devs", "permission": "write",
		"units_map": map[string]string{"repo.code": "write", "repo.issues": "write"}}, 201).json(t)
	id := int64(tm["id"].(float64))
	for _, u := range []string{"bob", "dave"} {
		e.send(e.alice, "PUT", fmt.Sprintf("/api/v1/teams/%d/members/%s", id, u), nil, 204)
	}
	e.send(e.alice, "PUT", fmt.Sprintf("/api/v1/teams/%d/repos/acme/tracker", id), nil, 204)
	e.send(e.alice, "PUT", "/api/v1/repos/acme/tracker/collaborators/eve", map[string]any{"permission": "write"}, 204)
	// dave watches nothing: any thread he gets comes from a mention.
	e.send(dave, "DELETE", "/api/v1/repos/acme/tracker/subscription", nil, 204)
	issues := "/api/v1/repos/acme/tracker/issues"

	e.send(e.alice, "POST", issues, map[string]any{"title": "quiet", "body": "nothing"}, 201)
	require.Empty(t, e.threads(dave, ""), "no mention, no thread")

	e.send(e.alice, "POST", issues, map[string]any{"title": "ping", "body": "please look, @acme/devs"}, 201)
	th := e.threads(dave, "")
	require.Len(t, th, 1, "the team mention notifies dave")
	assert.Equal(t, "ping", th[0]["subject"].(map[string]any)["title"])
	search := func(tok string) []string {
		t.Helper()
		return titles(t, e.send(tok, "GET", "/api/v1/repos/issues/search?mentioned=true&state=all", nil, 200))
	}
	assert.Equal(t, []string{"ping"}, search(dave))
	assert.Equal(t, []string{"ping"}, search(e.bob))
	assert.Empty(t, search(e.alice), "never the writer")

	// A comment mentions too.
	e.send(e.bob, "POST", issues+"/1/comments", map[string]any{"body": "@acme/devs FYI"}, 201)
	assert.Len(t, e.threads(dave, ""), 2)
	assert.ElementsMatch(t, []string{"ping", "quiet"}, search(dave))
	assert.Equal(t, []string{"ping"}, search(e.bob), "bob wrote the comment")

	// eve writes the repository but is no member of acme: she may not see
	// its teams, so her mention reaches nobody.
	e.send(e.eve, "POST", issues, map[string]any{"title": "stranger", "body": "@acme/devs"}, 201)
	assert.Len(t, e.threads(dave, ""), 2)
	assert.ElementsMatch(t, []string{"ping", "quiet"}, search(dave))
}
