package httpapi_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

// TestGetRepoOneTransaction: GET /repos/{owner}/{repo} reads the
// repository, its owner, the actor's permission, the parent and the
// pending transfer in one read transaction (repos.Service.GetRelated), and
// answers exactly what Get followed by the list conversion (RelatedOf)
// answers: for a plain repository, a fork whose parent is shown, a fork
// whose parent turned private, and a repository with a pending transfer,
// as its owner, another user and anonymously.
func TestGetRepoOneTransaction(t *testing.T) {
	t.Parallel()
	cs := &countingStore{}
	e := newEnvWith(t, func(rc *repos.Config) { cs.Store = rc.Store; rc.Store = cs })
	e.createUser("lister")
	e.createUser("other")
	tok := e.token("lister", "write:repository", "write:user")
	otok := e.token("other", "write:repository", "read:user")
	for _, name := range []string{"plain", "parent", "moving", "hidden"} {
		r := e.do(req{method: "POST", path: "/api/v1/user/repos", token: tok, body: map[string]any{"name": name}})
		e.expect(r, http.StatusCreated, "")
	}
	for _, name := range []string{"parent", "hidden"} {
		r := e.do(req{method: "POST", path: "/api/v1/repos/lister/" + name + "/forks", token: otok, body: map[string]any{"name": name + "-fork"}})
		e.expect(r, http.StatusAccepted, "")
	}
	r := e.do(req{method: "PATCH", path: "/api/v1/repos/lister/hidden", token: tok, body: map[string]any{"private": true}})
	e.expect(r, http.StatusOK, "")
	r = e.do(req{method: "POST", path: "/api/v1/repos/lister/moving/transfer", token: tok, body: map[string]any{"new_owner": "other"}})
	e.expect(r, http.StatusCreated, "")

	ctx := context.Background()
	actorOf := func(name string) forge.Actor {
		a, err := e.auth.Authenticate(ctx, auth.Credentials{Basic: true, Username: name, Password: name + "-password"})
		require.NoError(t, err)
		return a
	}
	actors := []struct {
		name  string
		token string
		actor forge.Actor
	}{{"lister", tok, actorOf("lister")}, {"other", otok, actorOf("other")}, {"anonymous", "", forge.Actor{}}}
	paths := []struct{ owner, name string }{
		{"lister", "plain"}, {"other", "parent-fork"}, {"other", "hidden-fork"}, {"lister", "moving"},
	}
	for _, a := range actors {
		for _, p := range paths {
			cs.reset()
			r := e.do(req{method: "GET", path: "/api/v1/repos/" + p.owner + "/" + p.name, token: a.token})
			require.Equal(t, int64(1), cs.cost().txs, "%s GET %s/%s: transactions", a.name, p.owner, p.name)
			v, err := e.repos.Get(ctx, a.actor, p.owner, p.name)
			if p.name == "hidden-fork" && a.name != "other" {
				// Made private with its parent: only its owner sees it.
				e.expect(r, http.StatusNotFound, "")
				require.ErrorIs(t, err, forge.ErrNotFound)
				continue
			}
			require.Equal(t, http.StatusOK, r.StatusCode, "%s GET %s/%s: %s", a.name, p.owner, p.name, r.body)
			require.NoError(t, err)
			page, err := e.api.RepoPage(httptest.NewRequest("GET", e.srv.URL+"/api/v1/repos/"+p.owner+"/"+p.name, nil), a.actor, []*repos.View{v})
			require.NoError(t, err)
			want, err := json.Marshal(page[0])
			require.NoError(t, err)
			require.JSONEq(t, string(want), string(r.body), "%s GET %s/%s", a.name, p.owner, p.name)
			var got map[string]any
			require.NoError(t, json.Unmarshal(r.body, &got))
			switch p.name {
			case "parent-fork":
				require.NotNil(t, got["parent"], "%s: parent shown", a.name)
			case "hidden-fork":
				require.Nil(t, got["parent"], "%s: private parent hidden", a.name)
			}
		}
	}
}
