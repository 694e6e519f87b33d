package httpapi

// flagRoutes are the repository flag operations (Forgejo's
// /repos/{owner}/{repo}/flags group, reqSiteAdmin inside the repository
// group: its tokens need the repository and the admin scope). Only site
// administrators may use them, which forge/repos checks after finding the
// repository (flags.go), as Forgejo's repoAssignment runs first.
func (a *API) flagRoutes() []route {
	if a.cfg.Repos == nil {
		return nil
	}
	const rp = "/repos/{owner}/{repo}/flags"
	return []route{
		{Method: "GET", Path: rp, Op: "repoListFlags", h: a.listFlags},
		{Method: "PUT", Path: rp, Op: "repoReplaceAllFlags", h: a.replaceFlags},
		{Method: "DELETE", Path: rp, Op: "repoDeleteAllFlags", h: a.deleteAllFlags},
		{Method: "GET", Path: rp + "/{flag}", Op: "repoCheckFlag", h: a.checkFlag},
		{Method: "PUT", Path: rp + "/{flag}", Op: "repoAddFlag", h: a.addFlag},
		{Method: "DELETE", Path: rp + "/{flag}", Op: "repoDeleteFlag", h: a.deleteFlag},
	}
}

// topicRoutes are GET /topics/search (Forgejo's /topics group: the
// repository scope, no sign-in).
func (a *API) topicRoutes() []route {
	if a.cfg.Repos == nil {
		return nil
	}
	return []route{{Method: "GET", Path: "/topics/search", Op: "topicSearch", h: a.searchTopics}}
}
