package httpapi

// actionsRoutes are the Forgejo Actions operations (Config.Actions):
// secrets, variables, runner registration tokens, runners and their jobs
// at repository, organisation, user and instance level, and a
// repository's runs, tasks and workflow dispatch. Scope groups are
// Forgejo's (routers/api/v1/api.go): repository, organization, user and
// admin. Who may act on a level (repository owners, organisation owners,
// the user, site administrators) is decided by forge/actions.
func (a *API) actionsRoutes() []route {
	const (
		rp = "/repos/{owner}/{repo}/actions"
		op = "/orgs/{org}/actions"
		up = "/user/actions"
	)
	return []route{
		{Method: "GET", Path: rp + "/secrets", Op: "repoListActionsSecrets", Scopes: repo, Token: true, h: a.listSecrets(repoTarget)},
		{Method: "PUT", Path: rp + "/secrets/{secretname}", Op: "updateRepoSecret", Scopes: repo, Token: true, h: a.putSecret(repoTarget)},
		{Method: "DELETE", Path: rp + "/secrets/{secretname}", Op: "deleteRepoSecret", Scopes: repo, Token: true, h: a.deleteSecret(repoTarget)},
		{Method: "GET", Path: rp + "/variables", Op: "getRepoVariablesList", Scopes: repo, Token: true, h: a.listVariables(repoTarget)},
		{Method: "GET", Path: rp + "/variables/{variablename}", Op: "getRepoVariable", Scopes: repo, Token: true, h: a.getVariable(repoTarget)},
		{Method: "POST", Path: rp + "/variables/{variablename}", Op: "createRepoVariable", Scopes: repo, Token: true, h: a.createVariable(repoTarget)},
		{Method: "PUT", Path: rp + "/variables/{variablename}", Op: "updateRepoVariable", Scopes: repo, Token: true, h: a.updateVariable(repoTarget)},
		{Method: "DELETE", Path: rp + "/variables/{variablename}", Op: "deleteRepoVariable", Scopes: repo, Token: true, h: a.deleteVariable(repoTarget)},
		{Method: "GET", Path: rp + "/runners/registration-token", Op: "repoGetRunnerRegistrationToken", Scopes: repo, Token: true, h: a.registrationToken(repoTarget)},
		{Method: "GET", Path: rp + "/runners", Op: "getRepoRunners", Scopes: repo, Token: true, h: a.listRunners(repoTarget)},
		{Method: "POST", Path: rp + "/runners", Op: "registerRepoRunner", Scopes: repo, Token: true, h: a.registerRunner(repoTarget)},
		{Method: "GET", Path: rp + "/runners/jobs", Op: "repoSearchRunJobs", Scopes: repo, Token: true, h: a.runnerJobs(repoTarget)},
		{Method: "GET", Path: rp + "/runners/{runner_id}", Op: "getRepoRunner", Scopes: repo, Token: true, h: a.getRunner(repoTarget)},
		{Method: "DELETE", Path: rp + "/runners/{runner_id}", Op: "deleteRepoRunner", Scopes: repo, Token: true, h: a.deleteRunner(repoTarget)},
		// Runs and tasks are readable by whoever reads the Actions unit;
		// dispatching needs write access to it.
		{Method: "GET", Path: rp + "/runs", Op: "ListActionRuns", Scopes: repo, h: a.listRuns},
		{Method: "GET", Path: rp + "/runs/{run_id}", Op: "ActionRun", Scopes: repo, h: a.getRun},
		{Method: "GET", Path: rp + "/tasks", Op: "ListActionTasks", Scopes: repo, h: a.listTasks},
		{Method: "POST", Path: rp + "/workflows/{workflowfilename}/dispatches", Op: "DispatchWorkflow", Scopes: repo, Token: true, h: a.dispatchWorkflow},

		{Method: "GET", Path: op + "/secrets", Op: "orgListActionsSecrets", Scopes: orgScope, Token: true, h: a.listSecrets(orgTarget)},
		{Method: "PUT", Path: op + "/secrets/{secretname}", Op: "updateOrgSecret", Scopes: orgScope, Token: true, h: a.putSecret(orgTarget)},
		{Method: "DELETE", Path: op + "/secrets/{secretname}", Op: "deleteOrgSecret", Scopes: orgScope, Token: true, h: a.deleteSecret(orgTarget)},
		{Method: "GET", Path: op + "/variables", Op: "getOrgVariablesList", Scopes: orgScope, Token: true, h: a.listVariables(orgTarget)},
		{Method: "GET", Path: op + "/variables/{variablename}", Op: "getOrgVariable", Scopes: orgScope, Token: true, h: a.getVariable(orgTarget)},
		{Method: "POST", Path: op + "/variables/{variablename}", Op: "createOrgVariable", Scopes: orgScope, Token: true, h: a.createVariable(orgTarget)},
		{Method: "PUT", Path: op + "/variables/{variablename}", Op: "updateOrgVariable", Scopes: orgScope, Token: true, h: a.updateVariable(orgTarget)},
		{Method: "DELETE", Path: op + "/variables/{variablename}", Op: "deleteOrgVariable", Scopes: orgScope, Token: true, h: a.deleteVariable(orgTarget)},
		{Method: "GET", Path: op + "/runners/registration-token", Op: "orgGetRunnerRegistrationToken", Scopes: orgScope, Token: true, h: a.registrationToken(orgTarget)},
		{Method: "GET", Path: op + "/runners", Op: "getOrgRunners", Scopes: orgScope, Token: true, h: a.listRunners(orgTarget)},
		{Method: "POST", Path: op + "/runners", Op: "registerOrgRunner", Scopes: orgScope, Token: true, h: a.registerRunner(orgTarget)},
		{Method: "GET", Path: op + "/runners/jobs", Op: "orgSearchRunJobs", Scopes: orgScope, Token: true, h: a.runnerJobs(orgTarget)},
		{Method: "GET", Path: op + "/runners/{runner_id}", Op: "getOrgRunner", Scopes: orgScope, Token: true, h: a.getRunner(orgTarget)},
		{Method: "DELETE", Path: op + "/runners/{runner_id}", Op: "deleteOrgRunner", Scopes: orgScope, Token: true, h: a.deleteRunner(orgTarget)},

		{Method: "PUT", Path: up + "/secrets/{secretname}", Op: "updateUserSecret", Scopes: user, Token: true, h: a.putSecret(userTarget)},
		{Method: "DELETE", Path: up + "/secrets/{secretname}", Op: "deleteUserSecret", Scopes: user, Token: true, h: a.deleteSecret(userTarget)},
		{Method: "GET", Path: up + "/variables", Op: "getUserVariablesList", Scopes: user, Token: true, h: a.listVariables(userTarget)},
		{Method: "GET", Path: up + "/variables/{variablename}", Op: "getUserVariable", Scopes: user, Token: true, h: a.getVariable(userTarget)},
		{Method: "POST", Path: up + "/variables/{variablename}", Op: "createUserVariable", Scopes: user, Token: true, h: a.createVariable(userTarget)},
		{Method: "PUT", Path: up + "/variables/{variablename}", Op: "updateUserVariable", Scopes: user, Token: true, h: a.updateVariable(userTarget)},
		{Method: "DELETE", Path: up + "/variables/{variablename}", Op: "deleteUserVariable", Scopes: user, Token: true, h: a.deleteVariable(userTarget)},
		{Method: "GET", Path: up + "/runners/registration-token", Op: "userGetRunnerRegistrationToken", Scopes: user, Token: true, h: a.registrationToken(userTarget)},
		{Method: "GET", Path: up + "/runners", Op: "getUserRunners", Scopes: user, Token: true, h: a.listRunners(userTarget)},
		{Method: "POST", Path: up + "/runners", Op: "registerUserRunner", Scopes: user, Token: true, h: a.registerRunner(userTarget)},
		{Method: "GET", Path: up + "/runners/jobs", Op: "userSearchRunJobs", Scopes: user, Token: true, h: a.runnerJobs(userTarget)},
		{Method: "GET", Path: up + "/runners/{runner_id}", Op: "getUserRunner", Scopes: user, Token: true, h: a.getRunner(userTarget)},
		{Method: "DELETE", Path: up + "/runners/{runner_id}", Op: "deleteUserRunner", Scopes: user, Token: true, h: a.deleteRunner(userTarget)},

		{Method: "GET", Path: "/admin/runners/registration-token", Op: "adminGetRegistrationToken", Scopes: admin, Token: true, Admin: true, h: a.registrationToken(globalTarget)},
		{Method: "GET", Path: "/admin/runners/jobs", Op: "adminSearchRunJobs", Scopes: admin, Token: true, Admin: true, h: a.runnerJobs(globalTarget)},
		{Method: "GET", Path: "/admin/actions/runners/registration-token", Op: "adminGetRunnerRegistrationToken", Scopes: admin, Token: true, Admin: true, h: a.registrationToken(globalTarget)},
		{Method: "GET", Path: "/admin/actions/runners", Op: "getAdminRunners", Scopes: admin, Token: true, Admin: true, h: a.listRunners(globalTarget)},
		{Method: "POST", Path: "/admin/actions/runners", Op: "registerAdminRunner", Scopes: admin, Token: true, Admin: true, h: a.registerRunner(globalTarget)},
		{Method: "GET", Path: "/admin/actions/runners/jobs", Op: "adminGetActionRunJobs", Scopes: admin, Token: true, Admin: true, h: a.runnerJobs(globalTarget)},
		{Method: "GET", Path: "/admin/actions/runners/{runner_id}", Op: "getAdminRunner", Scopes: admin, Token: true, Admin: true, h: a.getRunner(globalTarget)},
		{Method: "DELETE", Path: "/admin/actions/runners/{runner_id}", Op: "deleteAdminRunner", Scopes: admin, Token: true, Admin: true, h: a.deleteRunner(globalTarget)},
	}
}
