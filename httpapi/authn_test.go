package httpapi_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/pquerna/otp/totp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/httpapi"
)

func (e *env) actor(name, password string) auth.Credentials {
	return auth.Credentials{Basic: true, Username: name, Password: password}
}

func TestTwoFactorBasicAuth(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t)
	e.createUser("quinn")
	q, err := e.auth.Authenticate(ctx, e.actor("quinn", "quinn-password"))
	require.NoError(t, err)
	enr, err := e.auth.BeginTOTP(ctx, q, "Hearth")
	require.NoError(t, err)
	code := func() string { c, _ := totp.GenerateCode(enr.Secret, e.clock.Now()); return c }
	_, err = e.auth.EnableTOTP(ctx, q, enr.Secret, code())
	require.NoError(t, err)
	e.clock.Step(time.Minute)

	basic := req{method: "GET", path: "/api/v1/user", user: "quinn", pass: "quinn-password"}
	e.expect(e.do(basic), http.StatusUnauthorized, "invalid provided OTP")
	wrong := basic
	wrong.header = map[string]string{"X-Forgejo-OTP": "000000"}
	e.expect(e.do(wrong), http.StatusUnauthorized, "invalid provided OTP")
	right := basic
	right.header = map[string]string{"X-Forgejo-OTP": code()}
	r := e.do(right)
	e.expect(r, http.StatusOK, "")
	assert.Equal(t, "quinn", r.json(t)["login"])

	// Legacy header, next window.
	e.clock.Step(time.Minute)
	legacy := basic
	legacy.header = map[string]string{"X-Gitea-OTP": code()}
	e.expect(e.do(legacy), http.StatusOK, "")

	// Token creation with password + OTP, then the token needs no OTP.
	e.clock.Step(time.Minute)
	r = e.do(req{method: "POST", path: "/api/v1/users/quinn/tokens", user: "quinn", pass: "quinn-password",
		header: map[string]string{"X-Forgejo-OTP": code()}, body: map[string]any{"name": "q", "scopes": []string{"read:user"}}})
	e.expect(r, http.StatusCreated, "")
	tok := r.json(t)["sha1"].(string)
	e.expect(e.do(req{method: "GET", path: "/api/v1/user", token: tok}), http.StatusOK, "")
}

func TestReverseProxyAuth(t *testing.T) {
	t.Parallel()
	proxied := func(name string) req {
		return req{method: "GET", path: "/api/v1/user", header: map[string]string{
			"X-WEBAUTH-USER": name, "X-WEBAUTH-EMAIL": name + "@corp.example", "X-WEBAUTH-FULLNAME": "Full " + name}}
	}

	off := newEnv(t)
	off.createUser("rae")
	off.expect(off.do(proxied("rae")), http.StatusUnauthorized, "token is required")

	on := newEnv(t, func(c *httpapi.Config) { c.ReverseProxy = &httpapi.ReverseProxyAuth{} })
	on.createUser("rae")
	r := on.do(proxied("rae"))
	on.expect(r, http.StatusOK, "")
	assert.Equal(t, "rae", r.json(t)["login"])
	on.expect(on.do(proxied("stranger")), http.StatusUnauthorized, "token is required")
	// Credentials win over the header.
	tok := on.token("root", "read:user")
	withTok := proxied("rae")
	withTok.token = tok
	assert.Equal(t, "root", on.do(withTok).json(t)["login"])
	// Reverse-proxy sign-in may manage tokens, as password basic auth.
	r = on.do(req{method: "POST", path: "/api/v1/users/rae/tokens", header: proxied("rae").header,
		body: map[string]any{"name": "p", "scopes": []string{"read:user"}}})
	on.expect(r, http.StatusCreated, "")

	reg := newEnv(t, func(c *httpapi.Config) {
		c.ReverseProxy = &httpapi.ReverseProxyAuth{UserHeader: "X-Remote-User", AutoRegister: true}
	})
	r = reg.do(req{method: "GET", path: "/api/v1/user", header: map[string]string{
		"X-Remote-User": "stranger", "X-WEBAUTH-EMAIL": "s@corp.example", "X-WEBAUTH-FULLNAME": "S Tranger"}})
	reg.expect(r, http.StatusOK, "")
	u := r.json(t)
	assert.Equal(t, "stranger", u["login"])
	assert.Equal(t, "s@corp.example", u["email"])
	assert.Equal(t, "S Tranger", u["full_name"])
}

func TestSudo(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.createUser("sam")
	e.createUser("tess")
	rootTok := e.token("root", "all")
	samTok := e.token("sam", "all")

	r := e.do(req{method: "GET", path: "/api/v1/user?sudo=sam", token: rootTok})
	e.expect(r, http.StatusOK, "")
	assert.Equal(t, "sam", r.json(t)["login"])
	r = e.do(req{method: "GET", path: "/api/v1/user", token: rootTok, header: map[string]string{"Sudo": "tess"}})
	assert.Equal(t, "tess", r.json(t)["login"])

	r = e.do(req{method: "GET", path: "/api/v1/user?sudo=tess", token: samTok})
	e.expect(r, http.StatusForbidden, "Only administrators allowed to sudo.")
	_, hasURL := r.json(t)["url"]
	assert.False(t, hasURL)
	e.expect(e.do(req{method: "GET", path: "/api/v1/users/tess?sudo=nobody", token: rootTok}), http.StatusNotFound,
		"The target couldn't be found.")
	// Acting as sam, the administrator's powers are gone.
	e.expect(e.do(req{method: "GET", path: "/api/v1/admin/users?sudo=sam", token: rootTok}), http.StatusForbidden,
		"user should be the site admin")
	// Public-only tokens never sudo.
	po := e.token("root", "all", "public-only")
	e.expect(e.do(req{method: "GET", path: "/api/v1/user?sudo=sam", token: po}), http.StatusForbidden,
		"Only administrators allowed to sudo.")
}

func TestPublicOnlyToken(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.createUser("uma")
	e.expect(e.do(req{method: "PATCH", path: "/api/v1/admin/users/uma", user: "root", pass: "rootpassword",
		body: map[string]any{"visibility": "limited"}}), http.StatusOK, "")
	po := e.token("root", "read:user", "public-only")
	e.expect(e.do(req{method: "GET", path: "/api/v1/users/uma", token: po}), http.StatusForbidden,
		"token scope is limited to public users")
	e.expect(e.do(req{method: "GET", path: "/api/v1/users/root", token: po}), http.StatusOK, "")
	full := e.token("root", "read:user")
	e.expect(e.do(req{method: "GET", path: "/api/v1/users/uma", token: full}), http.StatusOK, "")
	poAdmin := e.token("root", "all", "public-only")
	e.expect(e.do(req{method: "GET", path: "/api/v1/admin/users", token: poAdmin}), http.StatusForbidden,
		"user should be the site admin")
}

func TestThrottledSignIn(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.createUser("vic")
	for range 5 {
		e.expect(e.do(req{method: "GET", path: "/api/v1/user", user: "vic", pass: "nope"}), http.StatusUnauthorized, "")
	}
	r := e.do(req{method: "GET", path: "/api/v1/user", user: "vic", pass: "vic-password"})
	e.expect(r, http.StatusTooManyRequests, "too many failed sign-in attempts, retry in 1 seconds")
	assert.Equal(t, "1", r.Header.Get("Retry-After"))
	e.clock.Step(time.Second)
	e.expect(e.do(req{method: "GET", path: "/api/v1/user", user: "vic", pass: "vic-password"}), http.StatusOK, "")
}

func TestExternalSourceUserNeedsNoPassword(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t)
	root, err := e.auth.Authenticate(ctx, e.actor("root", "rootpassword"))
	require.NoError(t, err)
	src, err := e.auth.CreateLoginSource(ctx, root, auth.LoginSource{Type: auth.SourceLDAP, Name: "corp", IsActive: true})
	require.NoError(t, err)
	r := e.do(req{method: "POST", path: "/api/v1/admin/users", user: "root", pass: "rootpassword",
		body: map[string]any{"username": "wes", "email": "wes@example.com", "source_id": src.ID, "login_name": "w.es"}})
	e.expect(r, http.StatusCreated, "")
	u := r.json(t)
	assert.Equal(t, float64(src.ID), u["source_id"])
	assert.Equal(t, "w.es", u["login_name"])
	r = e.do(req{method: "POST", path: "/api/v1/admin/users", user: "root", pass: "rootpassword",
		body: map[string]any{"username": "xan", "email": "xan@example.com"}})
	e.expect(r, http.StatusBadRequest, "PasswordIsRequired") // Forgejo's message for a local account without one
	e.expect(e.do(req{method: "PATCH", path: "/api/v1/admin/users/wes", user: "root", pass: "rootpassword",
		body: map[string]any{"source_id": 99, "login_name": "x"}}), http.StatusUnprocessableEntity, "login source does not exist [id: 99]")
}
