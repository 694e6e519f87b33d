package httpapi_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestGetUserOrganisationVisibility: GET /users/{username} answers an
// organisation by the organisation's visibility rule (Forgejo's
// IsUserVisibleToViewer: public ones to everyone, private ones to their
// members and site administrators, limited ones to signed-in users who are
// not restricted)
// under read:user alone, as Forgejo's route does; a public-only token gets
// 403 for one it may see that is not public, and what the actor may not see
// answers as a missing user. (The lookup was assembled in httpapi as a
// fallback from the user service to the organisation service, whose
// read:organization check hid a private organisation from its own member's
// read:user token, and which let a restricted user see a limited one.)
func TestGetUserOrganisationVisibility(t *testing.T) {
	t.Parallel()
	e := newOrgEnv(t)
	for _, name := range []string{"olga", "stan", "rita"} {
		e.createUser(name)
	}
	e.expect(e.do(rootReq("PATCH", "/admin/users/rita", map[string]any{"login_name": "rita", "source_id": 0, "restricted": true})),
		http.StatusOK, "")
	e.createOrg("olga", "privorg", "private")
	e.createOrg("olga", "limorg", "limited")
	e.createOrg("olga", "puborg", "public")
	olgaUser := e.token("olga", "read:user")
	olgaPublic := e.token("olga", "read:user", "public-only")
	stanUser := e.token("stan", "read:user")

	byPassword := func(name string) func(string) req {
		return func(path string) req { return as(name, "GET", path, nil) }
	}
	byToken := func(tok string) func(string) req {
		return func(path string) req { return req{method: "GET", path: "/api/v1" + path, token: tok} }
	}
	anonymous := func(path string) req { return req{method: "GET", path: "/api/v1" + path} }
	root := func(path string) req { return rootReq("GET", path, nil) }
	cases := []struct {
		who    string
		as     func(string) req
		org    string
		status int
		msg    string
	}{
		{"member by password", byPassword("olga"), "privorg", http.StatusOK, ""},
		{"member with read:user", byToken(olgaUser), "privorg", http.StatusOK, ""},
		{"member with a public-only token", byToken(olgaPublic), "privorg", http.StatusForbidden, "token scope is limited to public users"},
		{"site administrator", root, "privorg", http.StatusOK, ""},
		{"stranger", byPassword("stan"), "privorg", http.StatusNotFound, "user redirect does not exist [name: privorg]"},
		{"stranger with read:user", byToken(stanUser), "privorg", http.StatusNotFound, "user redirect does not exist [name: privorg]"},
		{"anonymous", anonymous, "privorg", http.StatusNotFound, "user redirect does not exist [name: privorg]"},
		{"restricted", byPassword("rita"), "privorg", http.StatusNotFound, "user redirect does not exist [name: privorg]"},
		{"stranger", byPassword("stan"), "limorg", http.StatusOK, ""},
		{"member with a public-only token", byToken(olgaPublic), "limorg", http.StatusForbidden, "token scope is limited to public users"},
		{"anonymous", anonymous, "limorg", http.StatusNotFound, "user redirect does not exist [name: limorg]"},
		{"restricted", byPassword("rita"), "limorg", http.StatusNotFound, "user redirect does not exist [name: limorg]"},
		{"anonymous", anonymous, "puborg", http.StatusOK, ""},
		{"restricted", byPassword("rita"), "puborg", http.StatusOK, ""},
		{"member with a public-only token", byToken(olgaPublic), "puborg", http.StatusOK, ""},
	}
	for _, c := range cases {
		r := e.do(c.as("/users/" + c.org))
		if !assert.Equal(t, c.status, r.StatusCode, "%s GET /users/%s: %s", c.who, c.org, r.body) {
			continue
		}
		if c.msg != "" {
			assert.Equal(t, c.msg, r.json(t)["message"], "%s GET /users/%s", c.who, c.org)
		}
		if c.status == http.StatusOK {
			got := r.json(t)
			assert.Equal(t, c.org, got["login"], c.who)
		}
	}
}
