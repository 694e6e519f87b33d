package httpapi

// oauthAppRoutes are the user's OAuth2 application records (Forgejo's
// /user/applications/oauth2 routes): auth/oauthapps declares what each
// requires (oauthapps.Requirements: read or write:user and a token), and
// the table derives the routes' scopes and token checks from it. Nil
// without the service: the operations then answer 501.
func (a *API) oauthAppRoutes() []route {
	if a.cfg.OAuthApps == nil {
		return nil
	}
	const p = "/user/applications/oauth2"
	return []route{
		{Method: "GET", Path: p, Op: "userGetOAuth2Applications", h: a.listOAuthApps},
		{Method: "POST", Path: p, Op: "userCreateOAuth2Application", h: a.createOAuthApp},
		{Method: "GET", Path: p + "/{id}", Op: "userGetOAuth2Application", h: a.getOAuthApp},
		{Method: "PATCH", Path: p + "/{id}", Op: "userUpdateOAuth2Application", h: a.updateOAuthApp},
		{Method: "DELETE", Path: p + "/{id}", Op: "userDeleteOAuth2Application", h: a.deleteOAuthApp},
	}
}

// feedRoutes are the activity feeds and the heatmap: forge/feeds
// declares what each requires (feeds.Requirements). Nil without the feed
// service or the repository service (the actions' repositories are
// converted through it): the operations then answer 501.
func (a *API) feedRoutes() []route {
	if a.cfg.Feeds == nil || a.cfg.Repos == nil {
		return nil
	}
	return []route{
		{Method: "GET", Path: "/users/{username}/activities/feeds", Op: "userListActivityFeeds", h: a.userFeed},
		{Method: "GET", Path: "/users/{username}/heatmap", Op: "userGetHeatmapData", h: a.heatmap},
		{Method: "GET", Path: "/orgs/{org}/activities/feeds", Op: "orgListActivityFeeds", h: a.orgFeed},
		{Method: "GET", Path: "/teams/{id}/activities/feeds", Op: "orgListTeamActivityFeeds", h: a.teamFeed},
		{Method: "GET", Path: "/repos/{owner}/{repo}/activities/feeds", Op: "repoListActivityFeeds", h: a.repoFeed},
	}
}
