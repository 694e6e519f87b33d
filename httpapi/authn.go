package httpapi

import (
	"encoding/base64"
	"errors"
	"net/http"
	"strings"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
)

// credentials reads what the request presents, in Forgejo's order: the
// `token` then `access_token` query parameters (unless disabled), then the
// Authorization header (`token <t>`, `Bearer <t>` or `Basic <b64>`, scheme
// case-insensitive, exactly two fields; anything else is ignored).
func (c *call) credentials() auth.Credentials {
	var cr auth.Credentials
	if !c.a.cfg.DisableQueryAuthToken {
		q := c.r.URL.Query()
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

// authenticate resolves the actor. Wrong credentials answer 401 with the
// authentication error; accounts that may not act answer 403 with a bare
// message, as Forgejo's verifyAuth. It returns false when it answered.
func (c *call) authenticate() bool {
	actor, err := c.a.cfg.Auth.Authenticate(c.r.Context(), c.credentials())
	if err != nil {
		if errors.Is(err, forge.ErrUnauthenticated) {
			c.errorStatus(http.StatusUnauthorized, err.Error())
		} else {
			c.writeError(err)
		}
		return false
	}
	if err := auth.CheckAccountState(actor.User, c.rootURL()+"user/change_password"); err != nil {
		c.bareError(http.StatusForbidden, err.Error())
		return false
	}
	c.actor = actor
	return true
}
