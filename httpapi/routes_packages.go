package httpapi

// packageRoutes are the /packages operations (Forgejo's
// routers/api/v1/packages): reads need read:package, writes write:package;
// who may read or write an owner's packages is forge/packages' rule.
func (a *API) packageRoutes() []route {
	if a.cfg.Packages == nil {
		return nil
	}
	const pv = "/packages/{owner}/{type}/{name}/{version}"
	return []route{
		{Method: "GET", Path: "/packages/{owner}", Op: "listPackages", h: a.listPackages},
		{Method: "GET", Path: pv, Op: "getPackage", h: a.getPackage},
		{Method: "DELETE", Path: pv, Op: "deletePackage", h: a.deletePackage},
		{Method: "GET", Path: pv + "/files", Op: "listPackageFiles", h: a.listPackageFiles},
		{Method: "POST", Path: "/packages/{owner}/{type}/{name}/-/link/{repo_name}", Op: "linkPackage", h: a.linkPackage},
		{Method: "POST", Path: "/packages/{owner}/{type}/{name}/-/unlink", Op: "unlinkPackage", h: a.unlinkPackage},
	}
}
