package httpapi_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/httpapi"
)

// outcome is an expected status and, if not empty, message.
type outcome struct {
	status int
	msg    string
}

// sample is how to call one operation in TestRouteTable. Every route needs
// one: an operation added without a sample fails the test.
type sample struct {
	path string
	body any
	// anon is the answer without credentials on routes that do not require
	// a token (those answer 401 `token is required`).
	anon outcome
	// ok is the answer to a token with exactly the required scopes.
	ok outcome
	// basic, if set, is the answer to the administrator's password.
	basic outcome
}

var samples = map[string]sample{
	"getVersion":            {path: "/version", anon: outcome{200, ""}, ok: outcome{200, ""}},
	"getGeneralAPISettings": {path: "/settings/api", anon: outcome{200, ""}, ok: outcome{200, ""}},
	"userGetCurrent":        {path: "/user", ok: outcome{200, ""}},
	"userGet":               {path: "/users/alice", anon: outcome{200, ""}, ok: outcome{200, ""}},
	"userGetTokens": {path: "/users/alice/tokens",
		anon: outcome{403, "doer should be the site admin or be same as the contextUser"}, ok: outcome{200, ""}},
	"userCreateToken": {path: "/users/alice/tokens", body: map[string]any{"name": "new", "scopes": []string{"all"}},
		anon: outcome{403, "doer should be the site admin or be same as the contextUser"},
		ok:   outcome{401, "auth method not allowed"}, basic: outcome{201, ""}},
	"userDeleteAccessToken": {path: "/users/alice/tokens/a1",
		anon: outcome{403, "doer should be the site admin or be same as the contextUser"},
		ok:   outcome{401, "auth method not allowed"}, basic: outcome{204, ""}},
	"adminSearchUsers": {path: "/admin/users", ok: outcome{200, ""}},
	"adminCreateUser": {path: "/admin/users", body: map[string]any{"username": "zoe", "email": "zoe@example.com", "password": "zoe-password"},
		ok: outcome{201, ""}},
	"adminEditUser":   {path: "/admin/users/alice", body: map[string]any{"full_name": "A"}, ok: outcome{200, ""}},
	"adminDeleteUser": {path: "/admin/users/alice", ok: outcome{204, ""}},
	"adminRenameUser": {path: "/admin/users/alice/rename", body: map[string]any{"new_username": "alicia"}, ok: outcome{204, ""}},
}

func scopeWords(cats []forge.ScopeCategory, level string) []string {
	var out []string
	for _, c := range cats {
		out = append(out, level+":"+c.String())
	}
	return out
}

// TestRouteTable checks, for every operation of the route table, the answer
// to no credentials, to a token lacking the category, to a read token on a
// write method, and to a token with exactly the right scopes, with
// Forgejo's statuses and messages.
func TestRouteTable(t *testing.T) {
	t.Parallel()
	routes := httpapi.New(httpapi.Config{Auth: auth.New(auth.Config{})}).Routes()
	for _, rt := range routes {
		if len(rt.Scopes) == 0 && !rt.Public {
			t.Errorf("%s %s (%s) declares no scope category and is not marked Public", rt.Method, rt.Path, rt.Op)
		}
		s, ok := samples[rt.Op]
		if !ok {
			t.Errorf("%s has no sample in TestRouteTable", rt.Op)
			continue
		}
		t.Run(rt.Op, func(t *testing.T) {
			t.Parallel()
			level := strings.ToLower(forge.LevelForMethod(rt.Method).String())
			run := func(name string, r req, want outcome) {
				t.Helper()
				e := newEnv(t)
				e.createUser("alice")
				e.expect(e.do(req{method: "POST", path: "/api/v1/users/alice/tokens", user: "root", pass: "rootpassword",
					body: map[string]any{"name": "a1", "scopes": []string{"read:user"}}}), 201, "")
				if r.token == "scopes" {
					r.token = e.token("root", strings.Split(r.header["scopes"], ",")...)
					r.header = nil
				}
				r.method, r.path, r.body = rt.Method, "/api/v1"+s.path, s.body
				got := e.do(r)
				if !assert.Equal(t, want.status, got.StatusCode, "%s: %s", name, got.body) {
					return
				}
				if want.msg != "" {
					assert.Equal(t, want.msg, got.json(t)["message"], name)
				}
			}
			scoped := func(words ...string) req {
				return req{token: "scopes", header: map[string]string{"scopes": strings.Join(words, ",")}}
			}

			anon := s.anon
			if rt.Token {
				anon = outcome{401, "token is required"}
			}
			run("no credentials", req{}, anon)

			if rt.Public {
				run("any token", scoped("write:misc"), s.ok)
			} else {
				required := "token does not have at least one of required scope(s): [" + strings.Join(scopeWords(rt.Scopes, level), " ") + "]"
				run("token lacking the category", scoped("write:misc"), outcome{403, required})
				if level == "write" {
					run("read token on a write method", scoped(scopeWords(rt.Scopes, "read")...), outcome{403, required})
				}
				run("right token", scoped(scopeWords(rt.Scopes, level)...), s.ok)
			}
			if s.basic.status != 0 {
				run("administrator's password", req{user: "root", pass: "rootpassword"}, s.basic)
			}
		})
	}
}
