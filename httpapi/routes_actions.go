package httpapi

// actionsRoutes are the Forgejo Actions operations (Config.Actions):
// secrets, variables, runner registration tokens, runners and their jobs
// at repository, organisation, user and instance level, and a
// repository's runs, tasks and workflow dispatch. Scope groups are
// Forgejo's (routers/api/v1/api.go): repository, organization, user and
// admin. Who may act on a level (repository owners, organisation owners,
// the user, site administrators) is decided by forge/actions. What each
// operation requires (scopes, token, site administrator, gate) is not
// written here: forge/actions declares it (actions.Requirements) and the
// table derives it.
func (a *API) actionsRoutes() []route {
	const (
		rp = "/repos/{owner}/{repo}/actions"
		op = "/orgs/{org}/actions"
		up = "/user/actions"
	)
	return []route{
		{Method: "GET", Path: rp + "/secrets", Op: "repoListActionsSecrets", h: a.listSecrets(repoTarget)},
		{Method: "PUT", Path: rp + "/secrets/{secretname}", Op: "updateRepoSecret", h: a.putSecret(repoTarget)},
		{Method: "DELETE", Path: rp + "/secrets/{secretname}", Op: "deleteRepoSecret", h: a.deleteSecret(repoTarget)},
		{Method: "GET", Path: rp + "/variables", Op: "getRepoVariablesList", h: a.listVariables(repoTarget)},
		{Method: "GET", Path: rp + "/variables/{variablename}", Op: "getRepoVariable", h: a.getVariable(repoTarget)},
		{Method: "POST", Path: rp + "/variables/{variablename}", Op: "createRepoVariable", h: a.createVariable(repoTarget)},
		{Method: "PUT", Path: rp + "/variables/{variablename}", Op: "updateRepoVariable", h: a.updateVariable(repoTarget)},
		{Method: "DELETE", Path: rp + "/variables/{variablename}", Op: "deleteRepoVariable", h: a.deleteVariable(repoTarget)},
		{Method: "GET", Path: rp + "/runners/registration-token", Op: "repoGetRunnerRegistrationToken", h: a.registrationToken(repoTarget)},
		{Method: "GET", Path: rp + "/runners", Op: "getRepoRunners", h: a.listRunners(repoTarget)},
		{Method: "POST", Path: rp + "/runners", Op: "registerRepoRunner", h: a.registerRunner(repoTarget)},
		{Method: "GET", Path: rp + "/runners/jobs", Op: "repoSearchRunJobs", h: a.runnerJobs(repoTarget)},
		{Method: "GET", Path: rp + "/runners/{runner_id}", Op: "getRepoRunner", h: a.getRunner(repoTarget)},
		{Method: "DELETE", Path: rp + "/runners/{runner_id}", Op: "deleteRepoRunner", h: a.deleteRunner(repoTarget)},
		// Runs and tasks are readable by whoever reads the Actions unit;
		// dispatching needs write access to it.
		{Method: "GET", Path: rp + "/runs", Op: "ListActionRuns", h: a.listRuns},
		{Method: "GET", Path: rp + "/runs/{run_id}", Op: "ActionRun", h: a.getRun},
		{Method: "GET", Path: rp + "/tasks", Op: "ListActionTasks", h: a.listTasks},
		{Method: "POST", Path: rp + "/workflows/{workflowfilename}/dispatches", Op: "DispatchWorkflow", h: a.dispatchWorkflow},

		{Method: "GET", Path: op + "/secrets", Op: "orgListActionsSecrets", h: a.listSecrets(orgTarget)},
		{Method: "PUT", Path: op + "/secrets/{secretname}", Op: "updateOrgSecret", h: a.putSecret(orgTarget)},
		{Method: "DELETE", Path: op + "/secrets/{secretname}", Op: "deleteOrgSecret", h: a.deleteSecret(orgTarget)},
		{Method: "GET", Path: op + "/variables", Op: "getOrgVariablesList", h: a.listVariables(orgTarget)},
		{Method: "GET", Path: op + "/variables/{variablename}", Op: "getOrgVariable", h: a.getVariable(orgTarget)},
		{Method: "POST", Path: op + "/variables/{variablename}", Op: "createOrgVariable", h: a.createVariable(orgTarget)},
		{Method: "PUT", Path: op + "/variables/{variablename}", Op: "updateOrgVariable", h: a.updateVariable(orgTarget)},
		{Method: "DELETE", Path: op + "/variables/{variablename}", Op: "deleteOrgVariable", h: a.deleteVariable(orgTarget)},
		{Method: "GET", Path: op + "/runners/registration-token", Op: "orgGetRunnerRegistrationToken", h: a.registrationToken(orgTarget)},
		{Method: "GET", Path: op + "/runners", Op: "getOrgRunners", h: a.listRunners(orgTarget)},
		{Method: "POST", Path: op + "/runners", Op: "registerOrgRunner", h: a.registerRunner(orgTarget)},
		{Method: "GET", Path: op + "/runners/jobs", Op: "orgSearchRunJobs", h: a.runnerJobs(orgTarget)},
		{Method: "GET", Path: op + "/runners/{runner_id}", Op: "getOrgRunner", h: a.getRunner(orgTarget)},
		{Method: "DELETE", Path: op + "/runners/{runner_id}", Op: "deleteOrgRunner", h: a.deleteRunner(orgTarget)},

		{Method: "PUT", Path: up + "/secrets/{secretname}", Op: "updateUserSecret", h: a.putSecret(userTarget)},
		{Method: "DELETE", Path: up + "/secrets/{secretname}", Op: "deleteUserSecret", h: a.deleteSecret(userTarget)},
		{Method: "GET", Path: up + "/variables", Op: "getUserVariablesList", h: a.listVariables(userTarget)},
		{Method: "GET", Path: up + "/variables/{variablename}", Op: "getUserVariable", h: a.getVariable(userTarget)},
		{Method: "POST", Path: up + "/variables/{variablename}", Op: "createUserVariable", h: a.createVariable(userTarget)},
		{Method: "PUT", Path: up + "/variables/{variablename}", Op: "updateUserVariable", h: a.updateVariable(userTarget)},
		{Method: "DELETE", Path: up + "/variables/{variablename}", Op: "deleteUserVariable", h: a.deleteVariable(userTarget)},
		{Method: "GET", Path: up + "/runners/registration-token", Op: "userGetRunnerRegistrationToken", h: a.registrationToken(userTarget)},
		{Method: "GET", Path: up + "/runners", Op: "getUserRunners", h: a.listRunners(userTarget)},
		{Method: "POST", Path: up + "/runners", Op: "registerUserRunner", h: a.registerRunner(userTarget)},
		{Method: "GET", Path: up + "/runners/jobs", Op: "userSearchRunJobs", h: a.runnerJobs(userTarget)},
		{Method: "GET", Path: up + "/runners/{runner_id}", Op: "getUserRunner", h: a.getRunner(userTarget)},
		{Method: "DELETE", Path: up + "/runners/{runner_id}", Op: "deleteUserRunner", h: a.deleteRunner(userTarget)},

		{Method: "GET", Path: "/admin/runners/registration-token", Op: "adminGetRegistrationToken", h: a.registrationToken(globalTarget)},
		{Method: "GET", Path: "/admin/runners/jobs", Op: "adminSearchRunJobs", h: a.runnerJobs(globalTarget)},
		{Method: "GET", Path: "/admin/actions/runners/registration-token", Op: "adminGetRunnerRegistrationToken", h: a.registrationToken(globalTarget)},
		{Method: "GET", Path: "/admin/actions/runners", Op: "getAdminRunners", h: a.listRunners(globalTarget)},
		{Method: "POST", Path: "/admin/actions/runners", Op: "registerAdminRunner", h: a.registerRunner(globalTarget)},
		{Method: "GET", Path: "/admin/actions/runners/jobs", Op: "adminGetActionRunJobs", h: a.runnerJobs(globalTarget)},
		{Method: "GET", Path: "/admin/actions/runners/{runner_id}", Op: "getAdminRunner", h: a.getRunner(globalTarget)},
		{Method: "DELETE", Path: "/admin/actions/runners/{runner_id}", Op: "deleteAdminRunner", h: a.deleteRunner(globalTarget)},
	}
}
