package httpapi

// repoGitRoutes are the operations on a repository's git that
// forge/repos serves beside the contents API: git notes, blobs by ids,
// diffpatch, editorconfig, issue templates and config. All sit in
// Forgejo's /repos group (repository scope); who may read or write is
// decided by forge/repos (reqRepoReader(code), reqRepoWriter(code) in
// Forgejo; issue templates and config only ask that the repository be
// visible). The writes with a body have gates (gates.go): Forgejo's
// reqRepoWriter runs before it binds the body.
func (a *API) repoGitRoutes() []route {
	if a.cfg.Repos == nil {
		return nil
	}
	const rp = "/repos/{owner}/{repo}"
	return []route{
		{Method: "GET", Path: rp + "/git/notes/{sha}", Op: "repoGetNote", Scopes: repo, h: a.getNote},
		{Method: "POST", Path: rp + "/git/notes/{sha}", Op: "repoSetNote", Scopes: repo, Token: true, h: a.setNote},
		{Method: "DELETE", Path: rp + "/git/notes/{sha}", Op: "repoRemoveNote", Scopes: repo, Token: true, h: a.removeNote},
		{Method: "GET", Path: rp + "/git/blobs", Op: "GetBlobs", Scopes: repo, h: a.getBlobs},
		{Method: "POST", Path: rp + "/diffpatch", Op: "repoApplyDiffPatch", Scopes: repo, Token: true, h: a.applyDiffPatch},
		{Method: "GET", Path: rp + "/editorconfig/{filepath}", Op: "repoGetEditorConfig", Scopes: repo, Wild: "filepath", h: a.getEditorconfig},
		{Method: "GET", Path: rp + "/issue_templates", Op: "repoGetIssueTemplates", Scopes: repo, h: a.getIssueTemplates},
		{Method: "GET", Path: rp + "/issue_config", Op: "repoGetIssueConfig", Scopes: repo, h: a.getIssueConfig},
		{Method: "GET", Path: rp + "/issue_config/validate", Op: "repoValidateIssueConfig", Scopes: repo, h: a.validateIssueConfig},
	}
}
