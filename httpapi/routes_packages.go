package httpapi

import "github.com/hearthforge/hearth/forge"

var pkgScope = []forge.ScopeCategory{forge.CategoryPackage}

// packageRoutes are the /packages operations (Forgejo's
// routers/api/v1/packages): reads need read:package, writes write:package;
// who may read or write an owner's packages is forge/packages' rule.
func (a *API) packageRoutes() []route {
	if a.cfg.Packages == nil {
		return nil
	}
	const pv = "/packages/{owner}/{type}/{name}/{version}"
	return []route{
		{Method: "GET", Path: "/packages/{owner}", Op: "listPackages", Scopes: pkgScope, h: a.listPackages},
		{Method: "GET", Path: pv, Op: "getPackage", Scopes: pkgScope, h: a.getPackage},
		{Method: "DELETE", Path: pv, Op: "deletePackage", Scopes: pkgScope, h: a.deletePackage},
		{Method: "GET", Path: pv + "/files", Op: "listPackageFiles", Scopes: pkgScope, h: a.listPackageFiles},
		{Method: "POST", Path: "/packages/{owner}/{type}/{name}/-/link/{repo_name}", Op: "linkPackage", Scopes: pkgScope, h: a.linkPackage},
		{Method: "POST", Path: "/packages/{owner}/{type}/{name}/-/unlink", Op: "unlinkPackage", Scopes: pkgScope, h: a.unlinkPackage},
	}
}
