package httpapi

// notifyRoutes are the notification operations (Forgejo's "Notifications
// (requires notifications scope)" groups): every one needs a token
// (reqToken) and the notification scope, the repository ones included.
// Which threads an actor sees is decided by forge/notify, which declares
// what each operation requires (notify.Requirements): the table derives
// the routes' scopes and token checks from it. Nil when the API
// has no notification service (or no repository service, which the
// threads' repositories need): the operations then answer 501.
func (a *API) notifyRoutes() []route {
	if a.cfg.Notify == nil || a.cfg.Repos == nil {
		return nil
	}
	const rp = "/repos/{owner}/{repo}/notifications"
	return []route{
		{Method: "GET", Path: "/notifications", Op: "notifyGetList", h: a.listNotifications},
		{Method: "PUT", Path: "/notifications", Op: "notifyReadList", h: a.markNotifications},
		{Method: "GET", Path: "/notifications/new", Op: "notifyNewAvailable", h: a.newNotifications},
		{Method: "GET", Path: "/notifications/threads/{id}", Op: "notifyGetThread", h: a.getThread},
		{Method: "PATCH", Path: "/notifications/threads/{id}", Op: "notifyReadThread", h: a.markThread},
		{Method: "GET", Path: rp, Op: "notifyGetRepoList", h: a.listNotifications},
		{Method: "PUT", Path: rp, Op: "notifyReadRepoList", h: a.markNotifications},
	}
}
