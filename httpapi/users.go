package httpapi

import (
	"net/http"
	"strconv"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/httpapi/convert"
	"github.com/hearthforge/hearth/httpapi/wire"
)

// userJSON is the generated User under the name the handlers of other
// areas (releases, commits, statuses) still use; new code names wire.User.
// Forgejo's User.MarshalJSON also adds an undeclared "username" (a copy of
// login); Hearth leaves it out, as the document and the contract test do.
type userJSON = wire.User

// apiTime is convert.Time, under the name httpapi's handlers use.
var apiTime = convert.Time

// toUser converts u as Forgejo's convert.ToUser for the calling actor. The
// privacy rule is the domain's (forge.User.VisibleTo): users from package
// auth come redacted already, and toUser redacts again whatever it is given
// (the rule is idempotent), so a user another service returned in full
// (a release author, a collaborator) shows no more.
func (c *call) toUser(u *forge.User) wire.User {
	// convert.UserFor, with the placeholder address worked out only when
	// it is shown (a redacted user without an e-mail).
	v := u.VisibleTo(c.actor)
	placeholder := ""
	if v.Redacted && v.Email == "" {
		placeholder = c.placeholderEmail(u)
	}
	return convert.User(c.rootURL(), placeholder, v)
}

// placeholderEmail is Forgejo's `<name>@noreply.<domain>` shown instead of a
// hidden address (the request's host when the root URL names none).
func (c *call) placeholderEmail(u *forge.User) string {
	return convert.NoReplyEmail(c.rootURL(), c.r.Host, u)
}

// getCurrentUser is GET /user.
func (a *API) getCurrentUser(c *call) {
	out := c.toUser(c.actor.User)
	c.jsonUser(http.StatusOK, &out)
}

// getUser is GET /users/{username}: the user or organisation as the
// actor may see it (auth.Service.Profile, which holds the visibility
// rules of both).
func (a *API) getUser(c *call) {
	u, err := a.cfg.Auth.Profile(c.r.Context(), c.actor, c.pathValue("username"))
	if err != nil {
		c.writeError(err)
		return
	}
	c.json(http.StatusOK, c.toUser(u))
}

// userSearchResults is Forgejo's UserSearchResults. It stays hand-written:
// the document declares it inline in userSearch's 200 response, not as a
// definition, so the generator names no type for it.
type userSearchResults struct {
	OK   bool        `json:"ok"`
	Data []wire.User `json:"data"`
}

// searchUsers is GET /users/search (userSearch): query q, uid, sort, page,
// limit; 200 `{"ok":true,"data":[User]}` with X-Total-Count and Link.
// Forgejo reads uid with FormInt64: a value that is not a number is 0 (no
// filter).
func (a *API) searchUsers(c *call) {
	q := c.r.URL.Query()
	uid, _ := strconv.ParseInt(q.Get("uid"), 10, 64)
	opts := c.listOptions()
	users, total, err := a.cfg.Auth.SearchUsers(c.r.Context(), c.actor,
		auth.SearchUsersOptions{Keyword: q.Get("q"), UID: uid, Sort: q.Get("sort")}, opts)
	if err != nil {
		c.writeError(err)
		return
	}
	out := userSearchResults{OK: true, Data: make([]wire.User, len(users))}
	for i, u := range users {
		out.Data[i] = c.toUser(u)
	}
	c.writePage(total, opts, out)
}
