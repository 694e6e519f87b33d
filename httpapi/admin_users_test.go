package httpapi_test

import (
	"bytes"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAdminCreateUser(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	root := func(method, path string, body any) resp {
		return e.do(req{method: method, path: path, body: body, user: "root", pass: "rootpassword"})
	}
	r := root("POST", "/api/v1/admin/users", map[string]any{"username": "Frank", "email": "frank@example.com",
		"password": "frank-password", "full_name": "Frank F", "visibility": "limited", "created_at": "2020-02-03T04:05:06Z"})
	e.expect(r, http.StatusCreated, "")
	u := r.json(t)
	assert.Equal(t, "Frank", u["login"])
	assert.Equal(t, "Frank F", u["full_name"])
	assert.Equal(t, "frank@example.com", u["email"])
	assert.Equal(t, "limited", u["visibility"])
	assert.Equal(t, "2020-02-03T04:05:06Z", u["created"])
	assert.Equal(t, true, u["active"])
	assert.Equal(t, false, u["is_admin"])

	huge := bytes.Repeat([]byte("x"), 10<<20)
	for _, tt := range []struct {
		name   string
		body   any
		status int
		msg    string
	}{
		{"missing username", map[string]any{"email": "x@example.com", "password": "12345678"}, 422, "[Username]: Required"},
		{"missing email", map[string]any{"username": "x", "password": "12345678"}, 422, "[Email]: Required"},
		{"empty body", "", 422, "[Username]: Required"},
		{"taken name", map[string]any{"username": "frank", "email": "x@example.com", "password": "12345678"}, 422, "user already exists [name: frank]"},
		{"taken email", map[string]any{"username": "x", "email": "FRANK@example.com", "password": "12345678"}, 422, "e-mail already in use [email: FRANK@example.com]"},
		{"reserved name", map[string]any{"username": "admin", "email": "x@example.com", "password": "12345678"}, 422, "name is reserved [name: admin]"},
		{"bad email", map[string]any{"username": "x", "email": "not-an-email", "password": "12345678"}, 422, "e-mail invalid [email: not-an-email]"},
		{"short password", map[string]any{"username": "x", "email": "x@example.com", "password": "short"}, 400, "PasswordIsRequired"},
		{"no password", map[string]any{"username": "x", "email": "x@example.com"}, 400, "PasswordIsRequired"},
		{"no password, reserved name", map[string]any{"username": "admin", "email": "x@example.com"}, 400, "PasswordIsRequired"},
		{"unknown source", map[string]any{"username": "x", "email": "x@example.com", "source_id": 4}, 422, "login source does not exist [id: 4]"},
		{"bad visibility", map[string]any{"username": "x", "email": "x@example.com", "password": "12345678", "visibility": "secret"}, 422, `invalid visibility "secret"`},
		{"malformed JSON", `{"username": "x",`, 422, "[]: unexpected end of JSON input"},
		{"wrong type", `{"username": 5, "email": "x@example.com"}`, 422, ""},
		{"wrong type of date", `{"username": "x", "email": "x@example.com", "created_at": "yesterday"}`, 422, ""},
		{"10 MB body", huge, 413, ""},
	} {
		r := root("POST", "/api/v1/admin/users", tt.body)
		e.expect(r, tt.status, tt.msg)
		assert.Contains(t, r.json(t), "message", tt.name)
	}

	e.createUser("gus")
	r = e.do(req{method: "POST", path: "/api/v1/admin/users", user: "gus", pass: "gus-password",
		body: map[string]any{"username": "x", "email": "x@example.com", "password": "12345678"}})
	e.expect(r, http.StatusForbidden, "user should be the site admin")
	r = e.do(req{method: "POST", path: "/api/v1/admin/users",
		body: map[string]any{"username": "x", "email": "x@example.com", "password": "12345678"}})
	e.expect(r, http.StatusUnauthorized, "token is required")
	userTok := e.token("root", "write:user")
	r = e.do(req{method: "POST", path: "/api/v1/admin/users", token: userTok,
		body: map[string]any{"username": "x", "email": "x@example.com", "password": "12345678"}})
	e.expect(r, http.StatusForbidden, "token does not have at least one of required scope(s): [write:admin]")
	readTok := e.token("root", "read:admin")
	r = e.do(req{method: "POST", path: "/api/v1/admin/users", token: readTok,
		body: map[string]any{"username": "x", "email": "x@example.com", "password": "12345678"}})
	e.expect(r, http.StatusForbidden, "token does not have at least one of required scope(s): [write:admin]")
}

func TestAdminEditAndDeleteUser(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.createUser("hana")
	root := func(method, path string, body any) resp {
		return e.do(req{method: method, path: path, body: body, user: "root", pass: "rootpassword"})
	}
	r := root("PATCH", "/api/v1/admin/users/hana", map[string]any{"full_name": "Hana H", "location": "Kyoto", "admin": true})
	e.expect(r, http.StatusOK, "")
	u := r.json(t)
	assert.Equal(t, "Hana H", u["full_name"])
	assert.Equal(t, "Kyoto", u["location"])
	assert.Equal(t, true, u["is_admin"])
	assert.Equal(t, "hana@example.com", u["email"], "fields not sent stay")

	for _, tt := range []struct {
		user   string
		body   any
		status int
		msg    string
	}{
		{"nobody", map[string]any{"full_name": "x"}, 404, "user redirect does not exist [name: nobody]"},
		{"hana", map[string]any{"source_id": 0}, 422, "source_id and login_name must be specified together"},
		{"hana", map[string]any{"password": "short"}, 400, "password must be at least 8 characters"},
		{"hana", map[string]any{"email": "bad"}, 400, "e-mail invalid [email: bad]"},
		{"hana", map[string]any{"email": "ROOT@example.com"}, 400, "e-mail already in use [email: ROOT@example.com]"},
		{"hana", `{"admin": "yes"}`, 422, ""},
	} {
		e.expect(root("PATCH", "/api/v1/admin/users/"+tt.user, tt.body), tt.status, tt.msg)
	}

	// Two admins: one may be demoted; the last one may not.
	e.expect(root("PATCH", "/api/v1/admin/users/hana", map[string]any{"admin": false}), http.StatusOK, "")
	r = root("PATCH", "/api/v1/admin/users/root", map[string]any{"admin": false, "full_name": "changed"})
	e.expect(r, http.StatusBadRequest, "can not delete the last admin user [uid: 1]")
	u = root("GET", "/api/v1/user", nil).json(t)
	assert.Equal(t, true, u["is_admin"])
	assert.Equal(t, "", u["full_name"], "a refused edit changes nothing")

	e.expect(root("DELETE", "/api/v1/admin/users/root", nil), http.StatusUnprocessableEntity, "you cannot delete yourself")
	e.expect(root("DELETE", "/api/v1/admin/users/nobody", nil), http.StatusNotFound, "user redirect does not exist [name: nobody]")
	r = root("DELETE", "/api/v1/admin/users/hana", nil)
	e.expect(r, http.StatusNoContent, "")
	e.expect(root("GET", "/api/v1/users/hana", nil), http.StatusNotFound, "")
}

func TestAdminListUsersPaging(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for _, n := range []string{"u1", "u2", "u3", "u4"} {
		e.createUser(n)
	}
	get := func(query string) resp {
		return e.do(req{method: "GET", path: "/api/v1/admin/users" + query, user: "root", pass: "rootpassword"})
	}
	r := get("?page=2&limit=2")
	e.expect(r, http.StatusOK, "")
	assert.Equal(t, "5", r.Header.Get("X-Total-Count"))
	list := r.list(t)
	require.Len(t, list, 2)
	assert.Equal(t, "u2", list[0]["login"])
	base := e.srv.URL + "/api/v1/admin/users?limit=2&page="
	assert.Equal(t, `<`+base+`3>; rel="next",<`+base+`3>; rel="last",<`+base+`1>; rel="first",<`+base+`1>; rel="prev"`, r.Header.Get("Link"))
	assert.Contains(t, r.Header.Get("Access-Control-Expose-Headers"), "X-Total-Count")

	// Out-of-range paging is corrected, as Forgejo: page < 1 is 1, limit > 50 is 50, junk is the default.
	for _, q := range []string{"?page=-1", "?page=0&limit=-5", "?page=abc&limit=1000", "?limit=zz"} {
		r = get(q)
		e.expect(r, http.StatusOK, "")
		assert.Len(t, r.list(t), 5, q)
		assert.Empty(t, r.Header.Get("Link"), q)
	}
	r = get("?sort=alphabetically&limit=1")
	assert.Equal(t, "root", r.list(t)[0]["login"])
	assert.True(t, strings.Contains(r.Header.Get("Link"), `rel="next"`))
	r = get("?source_id=x")
	e.expect(r, http.StatusOK, "")
	assert.Len(t, r.list(t), 5, "a source_id that is no number is no filter, as Forgejo")
	r = get("?source_id=0&login_name=nobody")
	assert.Empty(t, r.list(t))
	r = get("?page=9")
	e.expect(r, http.StatusOK, "")
	assert.Equal(t, "[]\n", string(r.body))
}
