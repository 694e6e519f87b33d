package httpapi

// repoGitRoutes are the operations on a repository's git that
// forge/repos serves beside the contents API: git notes, blobs by ids,
// diffpatch, editorconfig, issue templates and config. All sit in
// Forgejo's /repos group (repository scope); who may read or write is
// decided by forge/repos (reqRepoReader(code), reqRepoWriter(code) in
// Forgejo; issue templates and config only ask that the repository be
// visible). What each requires, and the gates of the writes with a body
// (Forgejo's reqRepoWriter runs before it binds the body), are declared
// by forge/repos (repos.Requirements).
func (a *API) repoGitRoutes() []route {
	if a.cfg.Repos == nil {
		return nil
	}
	const rp = "/repos/{owner}/{repo}"
	return []route{
		{Method: "GET", Path: rp + "/git/notes/{sha}", Op: "repoGetNote", h: a.getNote},
		{Method: "POST", Path: rp + "/git/notes/{sha}", Op: "repoSetNote", h: a.setNote},
		{Method: "DELETE", Path: rp + "/git/notes/{sha}", Op: "repoRemoveNote", h: a.removeNote},
		{Method: "GET", Path: rp + "/git/blobs", Op: "GetBlobs", h: a.getBlobs},
		{Method: "POST", Path: rp + "/diffpatch", Op: "repoApplyDiffPatch", h: a.applyDiffPatch},
		{Method: "GET", Path: rp + "/editorconfig/{filepath}", Op: "repoGetEditorConfig", Wild: "filepath", h: a.getEditorconfig},
		{Method: "GET", Path: rp + "/issue_templates", Op: "repoGetIssueTemplates", h: a.getIssueTemplates},
		{Method: "GET", Path: rp + "/issue_config", Op: "repoGetIssueConfig", h: a.getIssueConfig},
		{Method: "GET", Path: rp + "/issue_config/validate", Op: "repoValidateIssueConfig", h: a.validateIssueConfig},
	}
}
