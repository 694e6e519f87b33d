package httpapi_test

import "net/http"

// Statuses the Actions operations answer that Forgejo's document does not
// declare, with their reasons.
func init() {
	unknownRepo := "an unknown or invisible repository, or one with the Actions unit off, is 404 (Forgejo's repoAssignment and reqRepoReader); the document omits it"
	unknownOrg := "an unknown {org} is orgAssignment's 404 (spec/auth.md §9); the document omits it"
	taken := "a variable name already taken in its scope is 409 `variable name X already exists` (Forgejo's CreateVariable); the document omits it"
	renameTaken := "renaming a variable to a taken name is 409 (Forgejo answers its unique-constraint error with a 500)"
	allowUndocumented(map[string]map[int]string{
		"createRepoVariable":             {http.StatusConflict: taken},
		"createOrgVariable":              {http.StatusConflict: taken},
		"createUserVariable":             {http.StatusConflict: taken},
		"updateRepoVariable":             {http.StatusConflict: renameTaken},
		"updateOrgVariable":              {http.StatusConflict: renameTaken},
		"updateUserVariable":             {http.StatusConflict: renameTaken},
		"ListActionRuns":                 {http.StatusNotFound: unknownRepo},
		"repoGetRunnerRegistrationToken": {http.StatusNotFound: unknownRepo},
		"repoSearchRunJobs":              {http.StatusNotFound: unknownRepo},
		"orgGetRunnerRegistrationToken":  {http.StatusNotFound: unknownOrg},
		"orgSearchRunJobs":               {http.StatusNotFound: unknownOrg},
	})
}
