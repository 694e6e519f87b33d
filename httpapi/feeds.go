package httpapi

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/hearthforge/hearth/auth/oauthapps"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/feeds"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/httpapi/wire"
)

// toOAuthApp is Forgejo's convert.ToOAuth2Application: the client secret
// only when the service gives it (creation and edit).
func toOAuthApp(a *oauthapps.App) wire.OAuth2Application {
	uris := a.RedirectURIs
	if uris == nil {
		uris = []string{}
	}
	return wire.OAuth2Application{ID: a.ID, Name: a.Name, ClientID: a.ClientID, ClientSecret: a.Secret,
		RedirectURIs: uris, ConfidentialClient: a.Confidential, Created: a.Created}
}

func toOAuthApps(list []*oauthapps.App) []wire.OAuth2Application {
	out := make([]wire.OAuth2Application, len(list))
	for i, a := range list {
		out[i] = toOAuthApp(a)
	}
	return out
}

// oauthAppOptions decodes CreateOAuth2ApplicationOptions; ok is false
// when it answered.
func (c *call) oauthAppOptions() (oauthapps.Options, bool) {
	var in wire.CreateOAuth2ApplicationOptions
	if !c.decode(&in) {
		return oauthapps.Options{}, false
	}
	var o oauthapps.Options
	if in.Name != nil {
		o.Name = *in.Name
	}
	if in.RedirectURIs != nil {
		o.RedirectURIs = *in.RedirectURIs
	}
	if in.ConfidentialClient != nil {
		o.ConfidentialClient = *in.ConfidentialClient
	}
	return o, true
}

// oauthAppID reads {id} as Forgejo's ParamsInt64: 0 (no application, 404)
// when it is not a number.
func (c *call) oauthAppID() forge.ID {
	id, _ := strconv.ParseInt(c.pathValue("id"), 10, 64)
	return id
}

// oauthAppError maps the service's errors: Forgejo answers its bare 404
// (ctx.NotFound) for an application that is missing or another user's.
func (c *call) oauthAppError(err error) {
	if errors.Is(err, forge.ErrNotFound) {
		c.notFound()
		return
	}
	c.writeError(err)
}

// listOAuthApps is GET /user/applications/oauth2: 200 with X-Total-Count,
// no secrets.
func (a *API) listOAuthApps(c *call) {
	list, total, err := a.cfg.OAuthApps.List(c.r.Context(), c.actor, c.listOptions())
	totalAs(c, list, total, err, c.oauthAppError, toOAuthApps)
}

// createOAuthApp is POST /user/applications/oauth2: 201 with the client
// secret, shown this once; 422 for a missing name or redirect URI (Forgejo's
// binding) or a redirect URI that is not one.
func (a *API) createOAuthApp(c *call) {
	o, ok := c.oauthAppOptions()
	if !ok {
		return
	}
	app, err := a.cfg.OAuthApps.Create(c.r.Context(), c.actor, o)
	jsonAs(c, http.StatusCreated, app, err, c.oauthAppError, toOAuthApp)
}

// getOAuthApp is GET /user/applications/oauth2/{id}: 200 without the
// secret; 404 for none and for another user's.
func (a *API) getOAuthApp(c *call) {
	app, err := a.cfg.OAuthApps.Get(c.r.Context(), c.actor, c.oauthAppID())
	jsonAs(c, http.StatusOK, app, err, c.oauthAppError, toOAuthApp)
}

// updateOAuthApp is PATCH /user/applications/oauth2/{id}: the whole
// application replaced and a new client secret, answered with 200.
func (a *API) updateOAuthApp(c *call) {
	o, ok := c.oauthAppOptions()
	if !ok {
		return
	}
	app, err := a.cfg.OAuthApps.Update(c.r.Context(), c.actor, c.oauthAppID(), o)
	jsonAs(c, http.StatusOK, app, err, c.oauthAppError, toOAuthApp)
}

// deleteOAuthApp is DELETE /user/applications/oauth2/{id}: 204.
func (a *API) deleteOAuthApp(c *call) {
	c.noContentOr(a.cfg.OAuthApps.Delete(c.r.Context(), c.actor, c.oauthAppID()), c.oauthAppError)
}

// feedQuery reads `date`, `only-performed-by` (a FormBool) and paging.
func (c *call) feedQuery() feeds.Query {
	q := c.r.URL.Query()
	return feeds.Query{Date: q.Get("date"), OnlyPerformedBy: formBool(q.Get("only-performed-by")), ListOptions: c.listOptions()}
}

// writeFeed answers a feed page as Forgejo's ToActivities, with Link and
// X-Total-Count: the actions' repositories are read in one batch
// (repos.Service.ViewsByID and their presentation), the doers come with
// the page.
func (a *API) writeFeed(c *call, q feeds.Query, v *feeds.View, err error, fail func(error)) {
	if err != nil {
		fail(err)
		return
	}
	ids := make([]forge.ID, 0, len(v.Actions))
	for _, ac := range v.Actions {
		ids = append(ids, ac.RepoID)
	}
	views, err := a.cfg.Repos.ViewsByID(c.r.Context(), c.actor, ids)
	if err != nil {
		c.writeError(err)
		return
	}
	seen := map[forge.ID]int{}
	var list []*repos.View
	for _, ac := range v.Actions {
		if rv := views[ac.RepoID]; rv != nil {
			if _, ok := seen[ac.RepoID]; !ok {
				seen[ac.RepoID] = len(list)
				list = append(list, rv)
			}
		}
	}
	converted, err := c.toRepos(list)
	if err != nil {
		c.writeError(err)
		return
	}
	out := make([]wire.Activity, 0, len(v.Actions))
	for _, ac := range v.Actions {
		i, ok := seen[ac.RepoID]
		u := v.Users[ac.ActUserID]
		if !ok || u == nil {
			continue // gone since the page was read
		}
		out = append(out, wire.Activity{ID: ac.ID, UserID: ac.UserID, OpType: wire.ActivityOpType(ac.OpType.String()),
			ActUserID: ac.ActUserID, ActUser: c.toUser(u), RepoID: ac.RepoID, Repo: converted[i], CommentID: ac.CommentID,
			RefName: ac.RefName, IsPrivate: ac.IsPrivate, Content: ac.Content, Created: ac.Created})
	}
	c.writePage(v.Total, q.ListOptions, out)
}

// userFeed is GET /users/{username}/activities/feeds.
func (a *API) userFeed(c *call) {
	q := c.feedQuery()
	v, err := a.cfg.Feeds.UserFeed(c.r.Context(), c.actor, c.pathValue("username"), q)
	a.writeFeed(c, q, v, err, with(c.writeError))
}

// orgFeed is GET /orgs/{org}/activities/feeds.
func (a *API) orgFeed(c *call) {
	q := c.feedQuery()
	v, err := a.cfg.Feeds.OrgFeed(c.r.Context(), c.actor, c.org(), q)
	a.writeFeed(c, q, v, err, with(c.orgError))
}

// teamFeed is GET /teams/{id}/activities/feeds: 404 for an {id} that is no
// number.
func (a *API) teamFeed(c *call) {
	id, ok := c.teamID()
	if !ok {
		return
	}
	q := c.feedQuery()
	v, err := a.cfg.Feeds.TeamFeed(c.r.Context(), c.actor, id, q)
	a.writeFeed(c, q, v, err, with(c.orgError))
}

// repoFeed is GET /repos/{owner}/{repo}/activities/feeds.
func (a *API) repoFeed(c *call) {
	q := c.feedQuery()
	v, err := a.cfg.Feeds.RepoFeed(c.r.Context(), c.actor, c.owner(), c.repo(), q)
	a.writeFeed(c, q, v, err, with(c.repoError))
}

// heatmap is GET /users/{username}/heatmap: 200 with the buckets, oldest
// first.
func (a *API) heatmap(c *call) {
	list, err := a.cfg.Feeds.Heatmap(c.r.Context(), c.actor, c.pathValue("username"))
	jsonAs(c, http.StatusOK, list, err, with(c.writeError), func(list []feeds.HeatmapBucket) []wire.UserHeatmapData {
		out := make([]wire.UserHeatmapData, len(list))
		for i, b := range list {
			out[i] = wire.UserHeatmapData{Timestamp: b.Timestamp, Contributions: b.Contributions}
		}
		return out
	})
}
