package httpapi

import (
	"net/http"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/httpapi/wire"
)

// toAccessToken converts t as Forgejo's API does. Repositories is null
// for tokens that are not limited to repositories (all of Hearth's, for
// now).
func toAccessToken(t *auth.AccessToken) wire.AccessToken {
	scopes := t.Scope.Words()
	if len(scopes) == 0 {
		scopes = []string{""} // Forgejo splits the empty stored scope
	}
	return wire.AccessToken{ID: t.ID, Name: t.Name, Token: t.Token, TokenLastEight: t.LastEight, Scopes: scopes}
}

// listTokens is GET /users/{username}/tokens: X-Total-Count, no Link header
// (as Forgejo).
func (a *API) listTokens(c *call) {
	list, total, err := a.cfg.Auth.ListTokens(c.r.Context(), c.actor, c.pathValue("username"), c.listOptions())
	totalAs(c, list, total, err, with(c.writeError), each(toAccessToken))
}

// createToken is POST /users/{username}/tokens: 201 with the clear token in
// `sha1`, shown this once.
func (a *API) createToken(c *call) {
	// Forgejo's order: user lookup (404), reqSelfOrAdmin (403), binding
	// (422), then the password-auth rule (401).
	var opt wire.CreateAccessTokenOption
	if !c.decode(&opt) {
		return
	}
	if len(valueOf(opt.Repositories)) > 0 {
		c.errorStatus(http.StatusBadRequest, "repository-specific access tokens are not supported yet")
		return
	}
	t, err := a.cfg.Auth.CreateToken(c.r.Context(), c.actor, c.pathValue("username"),
		auth.CreateTokenOptions{Name: opt.Name, Scopes: valueOf(opt.Scopes)})
	jsonAs(c, http.StatusCreated, t, err, with(c.writeError, on(auth.ErrTokenRequest, http.StatusBadRequest)), toAccessToken)
}

// deleteToken is DELETE /users/{username}/tokens/{token}; {token} is an id
// or a name.
func (a *API) deleteToken(c *call) {
	c.noContentOr(a.cfg.Auth.DeleteToken(c.r.Context(), c.actor, c.pathValue("username"), c.pathValue("token")), with(c.writeError, on(forge.ErrInvalid, http.StatusUnprocessableEntity)))
}
