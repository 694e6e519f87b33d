package httpapi

import (
	"cmp"
	"encoding/base64"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
)

// credentials reads what the request presents, in Forgejo's order: the
// `token` then `access_token` query parameters (unless disabled), then the
// Authorization header (`token <t>`, `Bearer <t>` or `Basic <b64>`, scheme
// case-insensitive, exactly two fields; anything else is ignored).
func (c *call) credentials() auth.Credentials {
	cr := auth.Credentials{
		OTP:        cmp.Or(c.r.Header.Get("X-Forgejo-OTP"), c.r.Header.Get("X-Gitea-OTP")),
		RemoteAddr: clientAddr(c.r.RemoteAddr, c.r.Header.Values("X-Forwarded-For"), c.a.cfg.TrustedProxies),
	}
	if !c.a.cfg.DisableQueryAuthToken {
		q := c.query()
		if t := q.Get("token"); t != "" {
			cr.Token = t
		} else if t := q.Get("access_token"); t != "" {
			cr.Token = t
		}
	}
	fields := strings.Fields(c.r.Header.Get("Authorization"))
	if len(fields) != 2 {
		return cr
	}
	switch strings.ToLower(fields[0]) {
	case "token", "bearer":
		if cr.Token == "" {
			cr.Token = fields[1]
		}
	case "basic":
		raw, err := base64.StdEncoding.DecodeString(fields[1])
		if err != nil {
			return cr
		}
		user, pass, ok := strings.Cut(string(raw), ":")
		if !ok {
			return cr
		}
		cr.Basic, cr.Username, cr.Password = true, user, pass
	}
	return cr
}

// authenticate resolves the actor, in Forgejo's order: credentials (token,
// then basic), then the reverse-proxy header when enabled and no credentials
// were sent; then sudo. The account state is the auth service's rule
// (Authenticate and AuthenticateProxy refuse with *forge.AccountStateError).
// Wrong credentials answer 401; a locked sign-in 429 with Retry-After; an
// account that may not act 403 with a bare message, as Forgejo's
// verifyAuth. It returns false when it answered.
func (c *call) authenticate() bool {
	ctx := c.r.Context()
	cr := c.credentials()
	actor, err := c.a.cfg.Auth.Authenticate(ctx, cr)
	if err == nil && cr.IsEmpty() && c.a.cfg.ReverseProxy != nil {
		rp := c.a.cfg.ReverseProxy
		actor, err = c.a.cfg.Auth.AuthenticateProxy(ctx, auth.ProxyIdentity{
			Name:     c.r.Header.Get(rp.UserHeader),
			Email:    c.r.Header.Get(rp.EmailHeader),
			FullName: c.r.Header.Get(rp.FullNameHeader),
		}, rp.AutoRegister)
	}
	var (
		throttled *auth.ThrottledError
		state     *forge.AccountStateError
	)
	switch {
	case errors.As(err, &state):
		c.accountStateError(state)
		return false
	case errors.As(err, &throttled):
		c.w.Header().Set("Retry-After", strconv.Itoa(int((throttled.RetryAfter+time.Second-1)/time.Second)))
		c.errorStatus(http.StatusTooManyRequests, err.Error())
		return false
	case errors.Is(err, forge.ErrUnauthenticated):
		c.errorStatus(http.StatusUnauthorized, err.Error())
		return false
	case err != nil:
		c.writeError(err)
		return false
	}
	if name := cmp.Or(c.query().Get("sudo"), c.r.Header.Get("Sudo")); name != "" {
		actor, err = c.a.cfg.Auth.Sudo(ctx, actor, name)
		switch {
		case errors.As(err, &state):
			c.accountStateError(state)
			return false
		case errors.Is(err, forge.ErrNotFound):
			c.notFound()
			return false
		case errors.Is(err, forge.ErrForbidden):
			c.bareError(http.StatusForbidden, err.Error())
			return false
		case err != nil:
			c.writeError(err)
			return false
		}
	}
	c.actor = actor
	return true
}

// accountStateError answers Forgejo's verifyAuth refusal: 403 with a bare
// message; must-change-password says where to change it.
func (c *call) accountStateError(e *forge.AccountStateError) {
	msg := e.Error()
	if e.State == forge.StateMustChangePassword {
		msg += " Change it at: " + c.rootURL() + "user/change_password"
	}
	c.bareError(http.StatusForbidden, msg)
}
