package httpapi_test

import (
	"context"
	"net/http"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/forge/orgs"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/httpapi"
)

// newOrgsEnv is newEnv keeping the database, whose orgs.Store seeds
// organisations and teams (their routes belong to another package of
// work).
func newOrgsEnv(t *testing.T) (*env, orgs.Store) {
	t.Helper()
	b := newBase(t, ":memory:", testSecret)
	db, svc, git := b.db, b.auth, b.git
	repoSvc, _ := b.repoService(t)
	return b.serve(t, httpapi.Config{Auth: svc, Repos: repoSvc, Git: git}), db.Orgs()
}

// seedOrg creates the organisation name with an Owners team of owners and
// returns it.
func seedOrg(t *testing.T, os orgs.Store, name string, owners ...forge.ID) (*forge.User, *forge.Team) {
	t.Helper()
	ctx := context.Background()
	o := forgetest.User(name, func(u *forge.User) { u.Type = forge.UserTypeOrganization })
	owners2 := &forge.Team{Name: forge.OwnersTeam, Mode: forge.AccessModeOwner, IncludesAllRepos: true, CanCreateOrgRepo: true,
		Units: map[forge.Unit]forge.AccessMode{forge.UnitCode: forge.AccessModeOwner}}
	require.NoError(t, os.Update(ctx, func(tx orgs.Tx) error {
		if err := tx.CreateOrg(ctx, o); err != nil {
			return err
		}
		owners2.OrgID = o.ID
		if err := tx.CreateTeam(ctx, owners2); err != nil {
			return err
		}
		for _, id := range owners {
			if err := tx.SetMember(ctx, forge.Membership{OrgID: o.ID, UserID: id}); err != nil {
				return err
			}
			if err := tx.AddTeamMember(ctx, owners2.ID, id); err != nil {
				return err
			}
		}
		return nil
	}))
	return o, owners2
}

func userID(t *testing.T, e *env, name string) forge.ID {
	t.Helper()
	r := e.do(req{method: "GET", path: "/api/v1/users/" + name, user: "root", pass: "rootpassword"})
	e.expect(r, http.StatusOK, "")
	return forge.ID(r.json(t)["id"].(float64))
}

// TestOrgReposOverHTTP: forks into an organisation (CreateForkOption's
// organization), transfers with team_ids, and the permissions of
// team members in the repository JSON.
func TestOrgReposOverHTTP(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e, os := newOrgsEnv(t)
	for _, n := range []string{"alice", "bob", "carol"} {
		e.createUser(n)
	}
	alice, bob, carol := userID(t, e, "alice"), userID(t, e, "bob"), userID(t, e, "carol")
	acme, _ := seedOrg(t, os, "acme", alice)
	tok := e.token("alice", "write:repository", "write:user", "write:organization")
	bobTok := e.token("bob", "write:repository")
	carolTok := e.token("carol", "write:repository")
	triage := &forge.Team{OrgID: acme.ID, Name: "triage", Mode: forge.AccessModeRead,
		Units: map[forge.Unit]forge.AccessMode{forge.UnitIssues: forge.AccessModeWrite}}
	writers := &forge.Team{OrgID: acme.ID, Name: "writers", Mode: forge.AccessModeWrite,
		Units: map[forge.Unit]forge.AccessMode{forge.UnitCode: forge.AccessModeWrite, forge.UnitIssues: forge.AccessModeWrite}}
	require.NoError(t, os.Update(ctx, func(tx orgs.Tx) error {
		for _, tm := range []*forge.Team{triage, writers} {
			if err := tx.CreateTeam(ctx, tm); err != nil {
				return err
			}
		}
		for _, m := range [][2]forge.ID{{triage.ID, bob}, {writers.ID, carol}} {
			if err := tx.SetMember(ctx, forge.Membership{OrgID: acme.ID, UserID: m[1]}); err != nil {
				return err
			}
			if err := tx.AddTeamMember(ctx, m[0], m[1]); err != nil {
				return err
			}
		}
		return nil
	}))

	r := e.do(req{method: "POST", path: "/api/v1/user/repos", token: tok, body: map[string]any{"name": "app", "private": true, "auto_init": true}})
	e.expect(r, http.StatusCreated, "")

	// Transfer to acme with team_ids: alice owns acme, so it moves at once.
	r = e.do(req{method: "POST", path: "/api/v1/repos/alice/app/transfer", token: tok,
		body: map[string]any{"new_owner": "acme", "team_ids": []int64{triage.ID, writers.ID}}})
	e.expect(r, http.StatusAccepted, "")
	assert.Equal(t, "acme", r.json(t)["owner"].(map[string]any)["login"])
	r = e.do(req{method: "POST", path: "/api/v1/repos/acme/app/transfer", token: tok,
		body: map[string]any{"new_owner": "bob", "team_ids": []int64{triage.ID}}})
	e.expect(r, http.StatusUnprocessableEntity, "Teams can only be added to organization-owned repositories")
	r = e.do(req{method: "POST", path: "/api/v1/repos/acme/app/transfer", token: tok, body: map[string]any{"new_owner": "ghost"}})
	e.expect(r, http.StatusNotFound, "The new owner does not exist or cannot be found")

	// permissions follow the code unit: the triage team sees the
	// repository, not its code; the writers team pushes.
	perms := func(token string) map[string]any {
		r := e.do(req{method: "GET", path: "/api/v1/repos/acme/app", token: token})
		e.expect(r, http.StatusOK, "")
		return r.json(t)["permissions"].(map[string]any)
	}
	assert.Equal(t, map[string]any{"admin": false, "push": false, "pull": false}, perms(bobTok))
	assert.Equal(t, map[string]any{"admin": false, "push": true, "pull": true}, perms(carolTok))
	assert.Equal(t, map[string]any{"admin": true, "push": true, "pull": true}, perms(tok))
	r = e.do(req{method: "GET", path: "/api/v1/repos/acme/app/branches", token: bobTok})
	e.expect(r, http.StatusForbidden, "user should have specific read permission or be a repo admin or a site admin")
	r = e.do(req{method: "GET", path: "/api/v1/repos/acme/app/branches", token: carolTok})
	e.expect(r, http.StatusOK, "")

	// Forks into an organisation: members may, others get Forgejo's 403,
	// names of no organisation a 422.
	r = e.do(req{method: "POST", path: "/api/v1/user/repos", token: e.token("bob", "write:repository", "write:user"),
		body: map[string]any{"name": "lib", "auto_init": true}})
	e.expect(r, http.StatusCreated, "")
	r = e.do(req{method: "POST", path: "/api/v1/repos/bob/lib/forks", token: carolTok, body: map[string]any{"organization": "acme"}})
	e.expect(r, http.StatusAccepted, "")
	fork := r.json(t)
	assert.Equal(t, "acme/lib", fork["full_name"])
	assert.Equal(t, true, fork["fork"])
	assert.Equal(t, map[string]any{"admin": true, "push": true, "pull": true}, fork["permissions"])
	e.createUser("dave")
	r = e.do(req{method: "POST", path: "/api/v1/repos/bob/lib/forks", token: e.token("dave", "write:repository"),
		body: map[string]any{"organization": "acme", "name": "lib2"}})
	e.expect(r, http.StatusForbidden, "user is no member of organisation 'acme'")
	r = e.do(req{method: "POST", path: "/api/v1/repos/bob/lib/forks", token: carolTok, body: map[string]any{"organization": "alice"}})
	e.expect(r, http.StatusUnprocessableEntity, "org does not exist [id: 0, name: alice]")

	// A pending transfer shows its teams as a list (Forgejo's ToTeams),
	// never null.
	r = e.do(req{method: "POST", path: "/api/v1/repos/bob/lib/transfer", token: bobTok, body: map[string]any{"new_owner": "carol"}})
	e.expect(r, http.StatusCreated, "")
	assert.Equal(t, []any{}, r.json(t)["repo_transfer"].(map[string]any)["teams"])

	// The organisation's repositories as each member sees them.
	list, _, err := e.repos.List(ctx, forgetest.ActorFor(&forge.User{ID: bob, Name: "bob", IsActive: true}),
		repos.RepoFilter{OwnerID: acme.ID}, forge.ListOptions{Page: 1, Limit: 10})
	require.NoError(t, err)
	assert.Len(t, list, 2, "bob sees app through his team, and the public fork: "+strconv.Itoa(len(list)))
}
