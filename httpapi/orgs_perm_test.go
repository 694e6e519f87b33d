package httpapi_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
)

// access is what an actor may do on a repository, in the order of
// Forgejo's access modes.
type access int

const (
	noAccess    access = iota // the repository is invisible: 404
	readAccess                // GET 200; writes 403
	writeAccess               // pushes (branch creation) 201; settings 403
	adminAccess               // settings (PATCH) 200
)

// permActor is one row of the permission table: who, and the access the
// rules give on a repository of an organisation of visibility vis,
// private or not.
type permActor struct {
	name   string
	expect func(vis string, private bool) access
}

func always(a access) func(string, bool) access { return func(string, bool) access { return a } }

// TestOrgPermissionTable walks the permission rule over HTTP: the
// organisation's owner, a member of its Owners team, members of teams with
// read, write and admin access to the repositories, a member of a team
// that includes all repositories, a collaborator, a stranger, an
// anonymous reader and a site administrator, against public, limited and
// private organisations each with a public and a private repository:
// reading the repository (GET), a push-level write (creating a branch)
// and an admin-level write (PATCH of the repository). What an actor may
// not see is 404, whatever the operation.
func TestOrgPermissionTable(t *testing.T) {
	t.Parallel()
	e := newOrgEnv(t)
	actors := []permActor{
		{"root", always(adminAccess)},  // site administrator
		{"alice", always(adminAccess)}, // owner: created the organisations
		{"oscar", always(adminAccess)}, // member of the Owners team
		{"adam", always(adminAccess)},  // team with admin access
		{"wes", always(writeAccess)},   // team with write access
		{"ian", always(writeAccess)},   // team with write access to all repositories
		{"rita", always(readAccess)},   // team with read access
		{"colin", always(writeAccess)}, // collaborator with write access, in no team
		{"sam", func(vis string, private bool) access { // stranger
			if vis == "private" || private {
				return noAccess
			}
			return readAccess
		}},
	}
	for _, a := range actors[1:] {
		e.createUser(a.name)
	}
	for _, vis := range []string{"public", "limited", "private"} {
		org := "org-" + vis
		e.createOrg("alice", org, vis)
		e.expect(e.do(as("alice", "PUT", "/teams/"+tid(e.teamID(org, "Owners"))+"/members/oscar", nil)), http.StatusNoContent, "")
		team := func(name string, body map[string]any, member string) int64 {
			body["name"] = name
			id := e.createTeam(org, body)
			e.expect(e.do(as("alice", "PUT", "/teams/"+tid(id)+"/members/"+member, nil)), http.StatusNoContent, "")
			return id
		}
		code := []string{"repo.code", "repo.issues", "repo.pulls", "repo.releases"}
		// The team that includes all repositories exists before them: new
		// repositories join it.
		team("everything", map[string]any{"permission": "write", "units": code, "includes_all_repositories": true}, "ian")
		readers := team("readers", map[string]any{"permission": "read", "units": code}, "rita")
		writers := team("writers", map[string]any{"units_map": map[string]string{"repo.code": "write", "repo.issues": "read"}}, "wes")
		admins := team("admins", map[string]any{"permission": "admin"}, "adam")
		for _, r := range []struct {
			name    string
			private bool
		}{{"pub", false}, {"priv", true}} {
			e.expect(e.do(as("alice", "POST", "/orgs/"+org+"/repos", map[string]any{"name": r.name, "private": r.private, "auto_init": true})), http.StatusCreated, "")
			for _, id := range []int64{readers, writers, admins} {
				e.expect(e.do(as("alice", "PUT", "/teams/"+tid(id)+"/repos/"+org+"/"+r.name, nil)), http.StatusNoContent, "")
			}
			e.expect(e.do(as("alice", "PUT", "/repos/"+org+"/"+r.name+"/collaborators/colin", map[string]any{"permission": "write"})), http.StatusNoContent, "")
		}
	}

	n := 0
	for _, vis := range []string{"public", "limited", "private"} {
		for _, private := range []bool{false, true} {
			repo := "/repos/org-" + vis + "/pub"
			if private {
				repo = "/repos/org-" + vis + "/priv"
			}
			// Anonymous readers see public repositories of public
			// organisations only.
			want := http.StatusNotFound
			if vis == "public" && !private {
				want = http.StatusOK
			}
			got := e.do(req{method: "GET", path: "/api/v1" + repo})
			assert.Equal(t, want, got.StatusCode, "anonymous GET %s: %s", repo, got.body)

			for _, a := range actors {
				n++
				lvl := a.expect(vis, private)
				who := func(method, path string, body any) req {
					if a.name == "root" {
						return rootReq(method, path, body)
					}
					return as(a.name, method, path, body)
				}
				status := func(ok int, need access) int {
					switch {
					case lvl == noAccess:
						return http.StatusNotFound
					case lvl < need:
						return http.StatusForbidden
					}
					return ok
				}
				cases := []struct {
					op   string
					r    req
					want int
				}{
					{"read", who("GET", repo, nil), status(http.StatusOK, readAccess)},
					{"push", who("POST", repo+"/branches", map[string]any{"new_branch_name": fmt.Sprintf("b-%s-%d", a.name, n)}), status(http.StatusCreated, writeAccess)},
					{"admin", who("PATCH", repo, map[string]any{"description": "by " + a.name}), status(http.StatusOK, adminAccess)},
				}
				for _, c := range cases {
					got := e.do(c.r)
					assert.Equal(t, c.want, got.StatusCode, "%s %s on %s (%s organisation): %s", a.name, c.op, repo, vis, got.body)
				}
			}
		}
	}
}

// teamID finds a team of org by name, as the site administrator.
func (e *env) teamID(org, name string) int64 {
	e.t.Helper()
	r := e.do(rootReq("GET", "/orgs/"+org+"/teams?limit=50", nil))
	e.expect(r, http.StatusOK, "")
	for _, t := range r.list(e.t) {
		if t["name"] == name {
			return int64(t["id"].(float64))
		}
	}
	e.t.Fatalf("no team %s in %s", name, org)
	return 0
}
