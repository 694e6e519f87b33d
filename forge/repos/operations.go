package repos

import (
	"context"

	"github.com/hearthforge/hearth/forge"
)

// The levels, and the scope categories of this package's operations
// (Forgejo's route groups in routers/api/v1/api.go): /repos/** repository;
// /user/repos, /user/starred/** and /users/{username}/repos user and
// repository; the other /user/** and /users/** user; /orgs/{org}/repos
// organization and the deprecated /org/{org}/repos organization and
// repository; /admin/** admin. DELETE /repos/{owner}/{repo} asks the
// owner's (OwnerScope).
const (
	r = forge.AccessRead
	w = forge.AccessWrite

	catRepo  = forge.CategoryRepository
	catUser  = forge.CategoryUser
	catOrg   = forge.CategoryOrganization
	catAdmin = forge.CategoryAdmin
)

// operations are the operations this package serves, by Forgejo's
// operationId, with what each requires of its actor before the
// repository, owner or organisation it names is resolved. Who may do what
// on a repository (reader, writer, administrator, owner; archived
// repositories refuse writes) is the methods'.
var operations = map[string]forge.Requirement{
	"createCurrentUserRepo":        forge.SignedInTo(w, catUser, catRepo),
	"userCurrentListRepos":         forge.SignedInTo(r, catUser, catRepo),
	"userListRepos":                forge.Anyone(r, catUser, catRepo),
	"adminCreateRepo":              forge.SiteAdminTo(w),
	"repoSearch":                   forge.Anyone(r, catRepo),
	"repoGetByID":                  forge.SignedInTo(r, catRepo),
	"userCurrentListStarred":       forge.SignedInTo(r, catUser, catRepo),
	"userCurrentListSubscriptions": forge.SignedInTo(r, catUser),
	"userListStarred":              forge.SignedInTo(r, catUser),
	"userListSubscriptions":        forge.SignedInTo(r, catUser),
	"userCurrentCheckStarring":     forge.SignedInTo(r, catUser, catRepo),
	"userCurrentPutStar":           forge.SignedInTo(w, catUser, catRepo),
	"userCurrentDeleteStar":        forge.SignedInTo(w, catUser, catRepo),

	"orgListRepos":            forge.Anyone(r, catOrg),
	"createOrgRepo":           forge.SignedInTo(w, catOrg),
	"createOrgRepoDeprecated": forge.SignedInTo(w, catOrg, catRepo),

	"repoGet":                 forge.Anyone(r, catRepo),
	"repoEdit":                forge.SignedInTo(w, catRepo),
	"repoDelete":              forge.Requirement{Level: w, OwnerScope: true, SignedIn: true},
	"repoTransfer":            forge.SignedInTo(w, catRepo),
	"acceptRepoTransfer":      forge.SignedInTo(w, catRepo),
	"rejectRepoTransfer":      forge.SignedInTo(w, catRepo),
	"repoUpdateAvatar":        forge.SignedInTo(w, catRepo),
	"repoDeleteAvatar":        forge.SignedInTo(w, catRepo),
	"listForks":               forge.Anyone(r, catRepo),
	"createFork":              forge.SignedInTo(w, catRepo),
	"repoListTagProtection":   forge.SignedInTo(r, catRepo),
	"repoCreateTagProtection": forge.SignedInTo(w, catRepo),
	"repoGetTagProtection":    forge.SignedInTo(r, catRepo),
	"repoEditTagProtection":   forge.SignedInTo(w, catRepo),
	"repoDeleteTagProtection": forge.SignedInTo(w, catRepo),

	"repoListReleases":            forge.Anyone(r, catRepo),
	"repoCreateRelease":           forge.SignedInTo(w, catRepo),
	"repoGetLatestRelease":        forge.Anyone(r, catRepo),
	"repoGetReleaseByTag":         forge.Anyone(r, catRepo),
	"repoDeleteReleaseByTag":      forge.SignedInTo(w, catRepo),
	"repoGetRelease":              forge.Anyone(r, catRepo),
	"repoEditRelease":             forge.SignedInTo(w, catRepo),
	"repoDeleteRelease":           forge.SignedInTo(w, catRepo),
	"repoListReleaseAttachments":  forge.Anyone(r, catRepo),
	"repoCreateReleaseAttachment": forge.SignedInTo(w, catRepo),
	"repoGetReleaseAttachment":    forge.Anyone(r, catRepo),
	"repoEditReleaseAttachment":   forge.SignedInTo(w, catRepo),
	"repoDeleteReleaseAttachment": forge.SignedInTo(w, catRepo),

	"repoListBranches":           forge.Anyone(r, catRepo),
	"repoCreateBranch":           forge.SignedInTo(w, catRepo),
	"repoGetBranch":              forge.Anyone(r, catRepo),
	"repoDeleteBranch":           forge.SignedInTo(w, catRepo),
	"repoUpdateBranch":           forge.SignedInTo(w, catRepo),
	"repoListBranchProtection":   forge.SignedInTo(r, catRepo),
	"repoCreateBranchProtection": forge.SignedInTo(w, catRepo),
	"repoGetBranchProtection":    forge.SignedInTo(r, catRepo),
	"repoEditBranchProtection":   forge.SignedInTo(w, catRepo),
	"repoDeleteBranchProtection": forge.SignedInTo(w, catRepo),

	"repoListCollaborators":  forge.SignedInTo(r, catRepo),
	"repoCheckCollaborator":  forge.SignedInTo(r, catRepo),
	"repoAddCollaborator":    forge.SignedInTo(w, catRepo),
	"repoDeleteCollaborator": forge.SignedInTo(w, catRepo),
	"repoGetRepoPermissions": forge.SignedInTo(r, catRepo),

	"repoGetContentsList": forge.Anyone(r, catRepo),
	"repoChangeFiles":     forge.SignedInTo(w, catRepo),
	"repoGetContents":     forge.Anyone(r, catRepo),
	"repoCreateFile":      forge.SignedInTo(w, catRepo),
	"repoUpdateFile":      forge.SignedInTo(w, catRepo),
	"repoDeleteFile":      forge.SignedInTo(w, catRepo),
	"repoGetRawFile":      forge.Anyone(r, catRepo),
	"repoGetRawFileOrLFS": forge.Anyone(r, catRepo),
	"repoGetArchive":      forge.Anyone(r, catRepo),

	"repoGetAllCommits":             forge.Anyone(r, catRepo),
	"repoGetSingleCommit":           forge.Anyone(r, catRepo),
	"repoDownloadCommitDiffOrPatch": forge.Anyone(r, catRepo),
	"repoListAllGitRefs":            forge.Anyone(r, catRepo),
	"repoListGitRefs":               forge.Anyone(r, catRepo),
	"GetTree":                       forge.Anyone(r, catRepo),
	"GetBlob":                       forge.Anyone(r, catRepo),
	"repoListTags":                  forge.Anyone(r, catRepo),
	"repoCreateTag":                 forge.SignedInTo(w, catRepo),
	"repoGetTag":                    forge.Anyone(r, catRepo),
	"repoDeleteTag":                 forge.SignedInTo(w, catRepo),
	"GetAnnotatedTag":               forge.Anyone(r, catRepo),
	"repoGetLanguages":              forge.Anyone(r, catRepo),
	"repoCreateStatus":              forge.SignedInTo(w, catRepo),
	"repoListStatuses":              forge.Anyone(r, catRepo),
	"repoListStatusesByRef":         forge.Anyone(r, catRepo),
	"repoGetCombinedStatusByRef":    forge.Anyone(r, catRepo),

	"repoListTopics":   forge.Anyone(r, catRepo),
	"repoUpdateTopics": forge.SignedInTo(w, catRepo),
	"repoAddTopic":     forge.SignedInTo(w, catRepo),
	"repoDeleteTopic":  forge.SignedInTo(w, catRepo),

	"userCurrentCheckSubscription":  forge.SignedInTo(r, catRepo),
	"userCurrentPutSubscription":    forge.SignedInTo(w, catRepo),
	"userCurrentDeleteSubscription": forge.SignedInTo(w, catRepo),
	"repoListSubscribers":           forge.Anyone(r, catRepo),
	"repoListStargazers":            forge.Anyone(r, catRepo),

	"repoSyncForkDefaultInfo": forge.Anyone(r, catRepo),
	"repoSyncForkDefault":     forge.SignedInTo(w, catRepo),
	"repoSyncForkBranchInfo":  forge.Anyone(r, catRepo),
	"repoSyncForkBranch":      forge.SignedInTo(w, catRepo),

	"repoGetNote":             forge.Anyone(r, catRepo),
	"repoSetNote":             forge.SignedInTo(w, catRepo),
	"repoRemoveNote":          forge.SignedInTo(w, catRepo),
	"GetBlobs":                forge.Anyone(r, catRepo),
	"repoApplyDiffPatch":      forge.SignedInTo(w, catRepo),
	"repoGetEditorConfig":     forge.Anyone(r, catRepo),
	"repoGetIssueTemplates":   forge.Anyone(r, catRepo),
	"repoGetIssueConfig":      forge.Anyone(r, catRepo),
	"repoValidateIssueConfig": forge.Anyone(r, catRepo),

	"repoGetWikiPages":         forge.Anyone(r, catRepo),
	"repoGetWikiPage":          forge.Anyone(r, catRepo),
	"repoGetWikiPageRevisions": forge.Anyone(r, catRepo),
	"repoCreateWikiPage":       forge.SignedInTo(w, catRepo),
	"repoEditWikiPage":         forge.SignedInTo(w, catRepo),
	"repoDeleteWikiPage":       forge.SignedInTo(w, catRepo),
	"generateRepo":             forge.SignedInTo(w, catRepo),
	"topicSearch":              forge.Anyone(r, catRepo),
	// Flags: the repository and admin scopes at the route; the site
	// administrator is checked after the repository is found (Forgejo's
	// reqSiteAdmin inside repoAssignment), by the methods.
	"repoListFlags":       forge.Anyone(r, catRepo, catAdmin),
	"repoReplaceAllFlags": forge.Anyone(w, catRepo, catAdmin),
	"repoDeleteAllFlags":  forge.Anyone(w, catRepo, catAdmin),
	"repoCheckFlag":       forge.Anyone(r, catRepo, catAdmin),
	"repoAddFlag":         forge.Anyone(w, catRepo, catAdmin),
	"repoDeleteFlag":      forge.Anyone(w, catRepo, catAdmin),
}

// probe is what a gated operation's probe (Authorize) checks on the
// repository it names: need, on the unit for NeedWrite; or, for the
// operations whose refusal is their own method's, that method's check.
type probe struct {
	need  Need
	unit  forge.Unit
	check func(s *Service, ctx context.Context, actor forge.Actor, owner, name string) error
}

// gated are the operations whose check of the repository runs before
// their body is read (Forgejo's repoAssignment, reqRepoWriter, reqAdmin
// and reqOwner middlewares), with what Authorize checks for each.
// Forgejo binds the file operations' bodies before reqRepoBranchWriter
// (whose answer depends on the branch the body names): only
// repoAssignment runs first. createOrgRepo's middleware is the
// organisation's (orgAssignment): its visibility is forge/orgs' to decide
// (orgs.Service.Get), and Authorize answers ErrInvalid for it.
var gated = map[string]probe{
	"createFork": {need: NeedVisible}, "repoChangeFiles": {need: NeedVisible}, "repoCreateFile": {need: NeedVisible},
	"repoUpdateFile": {need: NeedVisible}, "repoDeleteFile": {need: NeedVisible},

	"repoCreateBranch": {need: NeedWrite, unit: forge.UnitCode}, "repoUpdateBranch": {need: NeedWrite, unit: forge.UnitCode},
	"repoCreateStatus": {need: NeedWrite, unit: forge.UnitCode}, "repoCreateTag": {need: NeedWrite, unit: forge.UnitCode},
	"repoSetNote": {need: NeedWrite, unit: forge.UnitCode}, "repoApplyDiffPatch": {need: NeedWrite, unit: forge.UnitCode},
	"repoCreateRelease": {need: NeedWrite, unit: forge.UnitReleases}, "repoEditRelease": {need: NeedWrite, unit: forge.UnitReleases},
	"repoEditReleaseAttachment": {need: NeedWrite, unit: forge.UnitReleases},

	"repoEdit": {need: NeedAdmin}, "repoUpdateAvatar": {need: NeedAdmin}, "repoAddCollaborator": {need: NeedAdmin},
	"repoCreateBranchProtection": {need: NeedAdmin}, "repoEditBranchProtection": {need: NeedAdmin},
	"repoCreateTagProtection": {need: NeedAdmin}, "repoEditTagProtection": {need: NeedAdmin}, "repoUpdateTopics": {need: NeedAdmin},

	"repoTransfer": {need: NeedOwner},

	"createOrgRepo": {},

	"repoCreateWikiPage":  {check: (*Service).authorizeWikiWrite},
	"repoEditWikiPage":    {check: (*Service).authorizeWikiWrite},
	"repoReplaceAllFlags": {check: (*Service).authorizeFlags},
	// generateRepo's repository is the template the path names.
	"generateRepo": {check: (*Service).authorizeGenerate},
}

// Requirements returns what each operation this package serves requires,
// by Forgejo's operationId: the one statement of it, which the API
// derives its routes' scopes, token and administrator checks and gates
// (Requirement.Gate: Authorize, createOrgRepo's aside) from. The methods
// check the same scope, sign-in and administrator rules themselves. A new
// map at each call.
func Requirements() map[string]forge.Requirement {
	return forge.Declare(operations, func(r forge.Requirement) forge.Requirement { return r }, forge.Gated(gated))
}
