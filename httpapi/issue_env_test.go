package httpapi_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/site"
	"github.com/hearthforge/hearth/httpapi"
	"github.com/hearthforge/hearth/issues"
)

// issueEnv is env with the issue tracker wired: real services on an
// in-memory SQLite database, every response checked against the OpenAPI
// document. Users are alice (owner of alice/proj), bob (a write
// collaborator of alice/proj) and eve (no access); root is the site
// administrator. Tokens carry every scope.
type issueEnv struct {
	*env
	issues           *issues.Service
	root, alice, bob string
	eve              string
	proj             string // "/api/v1/repos/alice/proj"
}

// fakeOrgs answers issues.OrgRoles with users as organisations: the user
// named org is its own organisation, whose owner is that user (and the site
// administrators). The organisation helpers build the real service; labels
// of organisations only need the role.
type fakeOrgs struct{ auth *auth.Service }

func (f fakeOrgs) MemberRole(ctx context.Context, actor forge.Actor, org string) (*forge.User, bool, bool, error) {
	u, err := f.auth.User(ctx, forge.Actor{}, org)
	if err != nil {
		return nil, false, false, err
	}
	owner := actor.IsSiteAdmin() || (actor.User != nil && actor.User.ID == u.ID)
	return u, owner, owner, nil
}

// newIssueEnv builds the environment; mutate may change the issue
// service's Config (wrap its Store) before it is built.
func newIssueEnv(t *testing.T, mutate ...func(*issues.Config)) *issueEnv {
	t.Helper()
	b := newBase(t, ":memory:", testSecret)
	db, clock, svc, git, blobs := b.db, b.clock, b.auth, b.git, b.blobs
	repoSvc, _ := b.repoService(t)
	ic := issues.Config{Store: db.Issues(), Repos: repoSvc, Orgs: fakeOrgs{svc}, Search: site.IssueRepos{Repos: repoSvc}, Clock: clock, Blobs: blobs}
	for _, m := range mutate {
		m(&ic)
	}
	issueSvc, err := issues.New(ic)
	require.NoError(t, err)
	e := issueUsers(b.serve(t, httpapi.Config{Auth: svc, Repos: repoSvc, Git: git, Issues: issueSvc}), issueSvc, "/api/v1/repos/alice/proj")
	e.createProj()
	return e
}

// issueUsers is the issueEnv of e and the issue service svc with the
// users alice, bob and eve, and an all-scope token of each and of root;
// proj is the API path of the repository the tests work in.
func issueUsers(e *env, svc *issues.Service, proj string) *issueEnv {
	ie := &issueEnv{env: e, issues: svc, proj: proj}
	for _, name := range []string{"alice", "bob", "eve"} {
		ie.createUser(name)
	}
	ie.root, ie.alice, ie.bob, ie.eve = ie.token("root", "all"), ie.token("alice", "all"), ie.token("bob", "all"), ie.token("eve", "all")
	return ie
}

// createProj creates alice's alice/proj with bob as a write collaborator.
func (e *issueEnv) createProj() {
	e.send(e.alice, "POST", "/api/v1/user/repos", map[string]any{"name": "proj"}, 201)
	e.send(e.alice, "PUT", e.proj+"/collaborators/bob", map[string]any{"permission": "write"}, 204)
}

// send is do with a token, failing unless the status is want; it returns
// the response.
func (e *issueEnv) send(tok, method, path string, body any, want int) resp {
	e.t.Helper()
	r := e.do(req{method: method, path: path, token: tok, body: body})
	require.Equal(e.t, want, r.StatusCode, "%s %s: %s", method, path, r.body)
	return r
}

// newIssue creates an issue in alice/proj as the token's user and returns
// its number.
func (e *issueEnv) newIssue(tok, title string) int {
	e.t.Helper()
	r := e.send(tok, "POST", e.proj+"/issues", map[string]any{"title": title, "body": "about " + title}, 201)
	return int(r.json(e.t)["number"].(float64))
}

// newLabel creates a label of alice/proj and returns its id.
func (e *issueEnv) newLabel(name string, exclusive bool) int64 {
	e.t.Helper()
	r := e.send(e.alice, "POST", e.proj+"/labels", map[string]any{"name": name, "color": "#00aabb", "exclusive": exclusive}, 201)
	return int64(r.json(e.t)["id"].(float64))
}

// issuePath is the API path of issue n of alice/proj, with suffix.
func (e *issueEnv) issuePath(n int, suffix string) string {
	return fmt.Sprintf("%s/issues/%d%s", e.proj, n, suffix)
}

// listNames returns the "name" field of each object of a JSON list.
func listNames(t *testing.T, r resp) []string {
	t.Helper()
	var out []string
	for _, m := range r.list(t) {
		out = append(out, m["name"].(string))
	}
	return out
}

// titles returns the "title" field of each object of a JSON list.
func titles(t *testing.T, r resp) []string {
	t.Helper()
	var out []string
	for _, m := range r.list(t) {
		out = append(out, m["title"].(string))
	}
	return out
}
