package httpapi

// wikiRoutes are the wiki operations (Forgejo's /repos/{owner}/{repo}/wiki
// group, behind mustEnableWiki): reads need read:repository, writes
// write:repository and a signed-in writer of the wiki unit. Who may read
// or write a wiki is decided by forge/repos (wiki.go).
func (a *API) wikiRoutes() []route {
	if a.cfg.Repos == nil {
		return nil
	}
	const rp = "/repos/{owner}/{repo}/wiki"
	return []route{
		{Method: "GET", Path: rp + "/pages", Op: "repoGetWikiPages", h: a.listWikiPages},
		{Method: "GET", Path: rp + "/page/{pageName}", Op: "repoGetWikiPage", h: a.getWikiPage},
		{Method: "POST", Path: rp + "/new", Op: "repoCreateWikiPage", h: a.createWikiPage},
		{Method: "PATCH", Path: rp + "/page/{pageName}", Op: "repoEditWikiPage", h: a.editWikiPage},
		{Method: "DELETE", Path: rp + "/page/{pageName}", Op: "repoDeleteWikiPage", h: a.deleteWikiPage},
		{Method: "GET", Path: rp + "/revisions/{pageName}", Op: "repoGetWikiPageRevisions", h: a.listWikiRevisions},
	}
}
