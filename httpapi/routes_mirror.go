package httpapi

// mirrorRoutes are the migration and mirror operations: POST /repos/migrate,
// mirror-sync, convert and the push mirrors. Who may do what (signed in,
// write or admin access, the address policy, the feature switches) is
// decided by package mirror and forge/repos, which declares what each
// requires (mirror.Requirements). Nil without a mirror service
// or a repository service: the operations then answer 501.
func (a *API) mirrorRoutes() []route {
	if a.cfg.Mirror == nil || a.cfg.Repos == nil {
		return nil
	}
	const rp = "/repos/{owner}/{repo}"
	return []route{
		{Method: "POST", Path: "/repos/migrate", Op: "repoMigrate", h: a.migrateRepo},
		{Method: "POST", Path: rp + "/mirror-sync", Op: "repoMirrorSync", h: a.mirrorSync},
		{Method: "POST", Path: rp + "/convert", Op: "repoConvert", h: a.convertMirror},
		{Method: "GET", Path: rp + "/push_mirrors", Op: "repoListPushMirrors", h: a.listPushMirrors},
		{Method: "POST", Path: rp + "/push_mirrors", Op: "repoAddPushMirror", h: a.addPushMirror},
		{Method: "POST", Path: rp + "/push_mirrors-sync", Op: "repoPushMirrorSync", h: a.syncPushMirrors},
		{Method: "GET", Path: rp + "/push_mirrors/{name}", Op: "repoGetPushMirrorByRemoteName", h: a.getPushMirror},
		{Method: "DELETE", Path: rp + "/push_mirrors/{name}", Op: "repoDeletePushMirror", h: a.deletePushMirror},
	}
}

// syncForkRoutes are /repos/{owner}/{repo}/sync_fork[/{branch}]: reading
// the sync information needs read access to the code, syncing write
// access (forge/repos decides). Nil without a repository service.
func (a *API) syncForkRoutes() []route {
	if a.cfg.Repos == nil {
		return nil
	}
	const rp = "/repos/{owner}/{repo}/sync_fork"
	return []route{
		{Method: "GET", Path: rp, Op: "repoSyncForkDefaultInfo", h: a.syncForkInfo},
		{Method: "POST", Path: rp, Op: "repoSyncForkDefault", h: a.syncFork},
		{Method: "GET", Path: rp + "/{branch}", Op: "repoSyncForkBranchInfo", h: a.syncForkInfo},
		{Method: "POST", Path: rp + "/{branch}", Op: "repoSyncForkBranch", h: a.syncFork},
	}
}
