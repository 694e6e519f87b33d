package httpapi

// cronRoutes are Forgejo's /admin/cron operations: what each requires (a
// signed-in site administrator, the admin scope) is declared by
// forge/cron. Nil without a cron registry (501).
func (a *API) cronRoutes() []route {
	if a.cfg.Cron == nil {
		return nil
	}
	return []route{
		{Method: "GET", Path: "/admin/cron", Op: "adminCronList", h: a.listCron},
		{Method: "POST", Path: "/admin/cron/{task}", Op: "adminCronRun", h: a.runCron},
	}
}
