package httpapi

// generateRoutes are POST /repos/{template_owner}/{template_repo}/generate
// (Forgejo's Generate: the repository scope, a signed-in reader of the
// template's code; forge/repos decides the rest, generate.go).
func (a *API) generateRoutes() []route {
	if a.cfg.Repos == nil {
		return nil
	}
	return []route{{Method: "POST", Path: "/repos/{template_owner}/{template_repo}/generate", Op: "generateRepo", h: a.generateRepo}}
}
