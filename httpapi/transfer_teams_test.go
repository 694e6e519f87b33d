package httpapi_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A transfer into an organisation that waits for acceptance keeps its
// team_ids, lists them in repo_transfer.teams (without their organisation,
// as Forgejo's ToRepoTransfer) and applies them on acceptance; a team of
// another organisation is Forgejo's 403.
func TestPendingTransferTeams(t *testing.T) {
	t.Parallel()
	e := newOrgEnv(t)
	for _, u := range []string{"alice", "carol", "zed"} {
		e.createUser(u)
	}
	e.createOrg("alice", "acme", "public")
	e.createOrg("zed", "zeta", "public")
	crew := e.createTeam("acme", map[string]any{"name": "crew", "permission": "read", "units_map": map[string]string{"repo.code": "read"}})
	zteam := e.createTeam("zeta", map[string]any{"name": "zteam", "permission": "read", "units_map": map[string]string{"repo.code": "read"}})
	e.expect(e.do(rootReq("PUT", "/teams/"+tid(crew)+"/members/carol", nil)), http.StatusNoContent, "")
	e.expect(e.do(as("carol", "POST", "/user/repos", map[string]any{"name": "gift"})), http.StatusCreated, "")

	e.expect(e.do(as("carol", "POST", "/repos/carol/gift/transfer", map[string]any{"new_owner": "acme", "team_ids": []int64{zteam}})),
		http.StatusForbidden, "team "+tid(zteam)+" belongs not to org "+tid(orgID(t, e, "acme")))
	e.expect(e.do(as("carol", "POST", "/repos/carol/gift/transfer", map[string]any{"new_owner": "acme", "team_ids": []int64{987654}})),
		http.StatusUnprocessableEntity, "team 987654 not found")

	r := e.do(as("carol", "POST", "/repos/carol/gift/transfer", map[string]any{"new_owner": "acme", "team_ids": []int64{crew}}))
	e.expect(r, http.StatusCreated, "")
	t.Run("teams in the JSON", func(t *testing.T) {
		for _, got := range []map[string]any{r.json(t), e.do(as("carol", "GET", "/repos/carol/gift", nil)).json(t)} {
			tr, ok := got["repo_transfer"].(map[string]any)
			require.True(t, ok, "pending: %v", got["repo_transfer"])
			teams := tr["teams"].([]any)
			require.Len(t, teams, 1)
			team := teams[0].(map[string]any)
			assert.Equal(t, "crew", team["name"])
			assert.Nil(t, team["organization"])
		}
	})
	e.expect(e.do(as("alice", "POST", "/repos/carol/gift/transfer/accept", nil)), http.StatusAccepted, "")
	e.expect(e.do(as("alice", "GET", "/teams/"+tid(crew)+"/repos/acme/gift", nil)), http.StatusOK, "")
}

func orgID(t *testing.T, e *env, name string) int64 {
	t.Helper()
	return int64(e.do(rootReq("GET", "/orgs/"+name, nil)).json(t)["id"].(float64))
}
