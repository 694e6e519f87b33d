package httpapi_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestMigrateCheckOrder: POST /repos/migrate checks, as Forgejo's Migrate,
// the owner (422 unknown), then the right to create there (403: another
// user, an organisation the doer does not own, also for a member of a
// team that may create repositories), and only then the clone address
// (422): a refused owner wins over a bad address. Nothing is created.
func TestMigrateCheckOrder(t *testing.T) {
	t.Parallel()
	e := newMatrixEnv(t)
	e.createUser("mia")
	e.createUser("max")
	e.createOrg("mia", "miaorg", "public")
	team := e.createTeam("miaorg", map[string]any{"name": "creators", "permission": "write", "can_create_org_repo": true,
		"units": []string{"repo.code"}})
	e.status(e.do(rootReq("PUT", "/teams/"+tid(team)+"/members/max", nil)), http.StatusNoContent, "max joins creators")
	good := e.srv.URL + "/nobody/none.git"
	for _, c := range []struct {
		who, owner, addr string
		status           int
		message          string
	}{
		{"max", "nosuchuser", "ftp://bad", http.StatusUnprocessableEntity, "user does not exist [uid: 0, name: nosuchuser]"},
		{"max", "mia", "ftp://bad", http.StatusForbidden, "Given user is not an organization."},
		{"max", "mia", good, http.StatusForbidden, "Given user is not an organization."},
		{"max", "miaorg", "ftp://bad", http.StatusForbidden, "Given user is not owner of organization."},
		{"max", "miaorg", good, http.StatusForbidden, "Given user is not owner of organization."},
		{"mia", "miaorg", "ftp://bad", http.StatusUnprocessableEntity, ""},
	} {
		r := e.do(as(c.who, "POST", "/repos/migrate", map[string]any{"clone_addr": c.addr, "repo_name": "m", "repo_owner": c.owner}))
		require.Equal(t, c.status, r.StatusCode, "%s into %s from %s: %s", c.who, c.owner, c.addr, r.body)
		if c.message != "" {
			require.Equal(t, c.message, r.json(t)["message"], "%s into %s", c.who, c.owner)
		}
		if c.owner != "nosuchuser" {
			e.status(e.do(as("mia", "GET", "/repos/"+c.owner+"/m", nil)), http.StatusNotFound, "nothing created")
		}
	}
}
