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
	h := c.r.Header
	// The canonical names, read without canonicalising them per request.
	cr := auth.Credentials{
		OTP:        cmp.Or(headerValue(h, "X-Forgejo-Otp"), headerValue(h, "X-Gitea-Otp")),
		RemoteAddr: clientAddr(c.r.RemoteAddr, h["X-Forwarded-For"], c.a.cfg.TrustedProxies),
	}
	if !c.a.cfg.DisableQueryAuthToken {
		q := c.query()
		if t := q.Get("token"); t != "" {
			cr.Token = t
		} else if t := q.Get("access_token"); t != "" {
			cr.Token = t
		}
	}
	scheme, value, ok := twoFields(headerValue(h, "Authorization"))
	if !ok {
		return cr
	}
	switch {
	case strings.EqualFold(scheme, "token"), strings.EqualFold(scheme, "bearer"):
		if cr.Token == "" {
			cr.Token = value
		}
	case strings.EqualFold(scheme, "basic"):
		raw, err := base64.StdEncoding.DecodeString(value)
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

// headerValue is h.Get(name) for a name already in canonical form.
func headerValue(h http.Header, name string) string {
	if v := h[name]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// twoFields splits s as strings.Fields does when s has exactly two fields,
// and reports whether it has: without allocating when they are ASCII and
// separated by one space (the usual `token <t>`).
func twoFields(s string) (first, second string, ok bool) {
	if i := strings.IndexByte(s, ' '); i > 0 && i < len(s)-1 && plainASCII(s[:i]) && plainASCII(s[i+1:]) {
		return s[:i], s[i+1:], true
	}
	f := strings.Fields(s)
	if len(f) != 2 {
		return "", "", false
	}
	return f[0], f[1], true
}

// plainASCII reports whether s holds only ASCII bytes that are not white
// space (for strings.Fields: \t \n \v \f \r and space).
func plainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 0x80, c == ' ', c >= '\t' && c <= '\r':
			return false
		}
	}
	return true
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
	if err != nil {
		c.authError(err)
		return false
	}
	if name := cmp.Or(c.query().Get("sudo"), headerValue(c.r.Header, "Sudo")); name != "" {
		actor, err = c.a.cfg.Auth.Sudo(ctx, actor, name)
		var state *forge.AccountStateError
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

// authError answers an authentication error (see authenticate). (Apart
// from authenticate, so that the error targets are allocated only when
// there is an error.)
func (c *call) authError(err error) {
	var (
		throttled *auth.ThrottledError
		state     *forge.AccountStateError
	)
	switch {
	case errors.As(err, &state):
		c.accountStateError(state)
	case errors.As(err, &throttled):
		c.w.Header().Set("Retry-After", strconv.Itoa(int((throttled.RetryAfter+time.Second-1)/time.Second)))
		c.errorStatus(http.StatusTooManyRequests, err.Error())
	case errors.Is(err, forge.ErrUnauthenticated):
		c.errorStatus(http.StatusUnauthorized, err.Error())
	default:
		c.writeError(err)
	}
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
