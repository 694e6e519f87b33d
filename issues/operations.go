package issues

import "github.com/hearthforge/hearth/forge"

// The levels, and the scope categories of this package's operations
// (Forgejo's route groups in routers/api/v1/api.go): the "Issue (requires
// issue scope)" group (/repos/issues/search,
// /repos/{owner}/{repo}/issues/**, labels/**, milestones/**) issue; pull
// requests, reviews, the repository's tracked times, the pinned pull
// requests and new_pin_allowed sit in the repository group, repository;
// /user/times and /user/stopwatches user; the organisation labels
// organization. The label templates are public (Forgejo's "Misc (public
// accessible)" group): no scope.
const (
	r = forge.AccessRead
	w = forge.AccessWrite

	catIssue = forge.CategoryIssue
	catRepo  = forge.CategoryRepository
	catUser  = forge.CategoryUser
	catOrg   = forge.CategoryOrganization
)

// operations are the operations this package serves, by Forgejo's
// operationId, with what each requires of its actor before the
// repository, issue or organisation it names is resolved (Forgejo's
// reqToken is SignedIn). Who may do what on an issue, a comment, a label,
// a milestone or a pull request is the methods'.
var operations = map[string]forge.Requirement{
	"issueSearchIssues": forge.Anyone(r, catIssue),
	"issueListIssues":   forge.Anyone(r, catIssue),
	"issueCreateIssue":  forge.SignedInTo(w, catIssue),
	"issueGetIssue":     forge.Anyone(r, catIssue),
	"issueEditIssue":    forge.SignedInTo(w, catIssue),
	"issueDelete":       forge.SignedInTo(w, catIssue),

	"issueGetRepoComments":         forge.Anyone(r, catIssue),
	"issueGetComment":              forge.Anyone(r, catIssue),
	"issueEditComment":             forge.SignedInTo(w, catIssue),
	"issueDeleteComment":           forge.SignedInTo(w, catIssue),
	"issueGetComments":             forge.Anyone(r, catIssue),
	"issueCreateComment":           forge.SignedInTo(w, catIssue),
	"issueEditCommentDeprecated":   forge.SignedInTo(w, catIssue),
	"issueDeleteCommentDeprecated": forge.SignedInTo(w, catIssue),

	"issueEditIssueDeadline": forge.SignedInTo(w, catIssue),

	"issueListIssueAttachments":         forge.Anyone(r, catIssue),
	"issueCreateIssueAttachment":        forge.SignedInTo(w, catIssue),
	"issueGetIssueAttachment":           forge.Anyone(r, catIssue),
	"issueEditIssueAttachment":          forge.SignedInTo(w, catIssue),
	"issueDeleteIssueAttachment":        forge.SignedInTo(w, catIssue),
	"issueListIssueCommentAttachments":  forge.Anyone(r, catIssue),
	"issueCreateIssueCommentAttachment": forge.SignedInTo(w, catIssue),
	"issueGetIssueCommentAttachment":    forge.Anyone(r, catIssue),
	"issueEditIssueCommentAttachment":   forge.SignedInTo(w, catIssue),
	"issueDeleteIssueCommentAttachment": forge.SignedInTo(w, catIssue),

	"issueGetLabels":     forge.Anyone(r, catIssue),
	"issueAddLabel":      forge.SignedInTo(w, catIssue),
	"issueReplaceLabels": forge.SignedInTo(w, catIssue),
	"issueClearLabels":   forge.SignedInTo(w, catIssue),
	"issueRemoveLabel":   forge.SignedInTo(w, catIssue),

	"issueListLabels":  forge.Anyone(r, catIssue),
	"issueCreateLabel": forge.SignedInTo(w, catIssue),
	"issueGetLabel":    forge.Anyone(r, catIssue),
	"issueEditLabel":   forge.SignedInTo(w, catIssue),
	"issueDeleteLabel": forge.SignedInTo(w, catIssue),

	"issueGetMilestonesList": forge.Anyone(r, catIssue),
	"issueCreateMilestone":   forge.SignedInTo(w, catIssue),
	"issueGetMilestone":      forge.Anyone(r, catIssue),
	"issueEditMilestone":     forge.SignedInTo(w, catIssue),
	"issueDeleteMilestone":   forge.SignedInTo(w, catIssue),

	"orgListLabels":  forge.Anyone(r, catOrg),
	"orgCreateLabel": forge.SignedInTo(w, catOrg),
	"orgGetLabel":    forge.SignedInTo(r, catOrg),
	"orgEditLabel":   forge.SignedInTo(w, catOrg),
	"orgDeleteLabel": forge.SignedInTo(w, catOrg),

	"issueListIssueDependencies":   forge.Anyone(r, catIssue),
	"issueCreateIssueDependencies": forge.SignedInTo(w, catIssue),
	"issueRemoveIssueDependencies": forge.SignedInTo(w, catIssue),
	"issueListBlocks":              forge.Anyone(r, catIssue),
	"issueCreateIssueBlocking":     forge.SignedInTo(w, catIssue),
	"issueRemoveIssueBlocking":     forge.SignedInTo(w, catIssue),

	"issueTrackedTimes":       forge.SignedInTo(r, catIssue),
	"issueAddTime":            forge.SignedInTo(w, catIssue),
	"issueResetTime":          forge.SignedInTo(w, catIssue),
	"issueDeleteTime":         forge.SignedInTo(w, catIssue),
	"repoTrackedTimes":        forge.SignedInTo(r, catRepo),
	"userTrackedTimes":        forge.SignedInTo(r, catRepo),
	"userCurrentTrackedTimes": forge.SignedInTo(r, catUser),

	"issueStartStopWatch":  forge.SignedInTo(w, catIssue),
	"issueStopStopWatch":   forge.SignedInTo(w, catIssue),
	"issueDeleteStopWatch": forge.SignedInTo(w, catIssue),
	"userGetStopWatches":   forge.SignedInTo(r, catUser),

	"issueGetIssueReactions":     forge.Anyone(r, catIssue),
	"issuePostIssueReaction":     forge.SignedInTo(w, catIssue),
	"issueDeleteIssueReaction":   forge.SignedInTo(w, catIssue),
	"issueGetCommentReactions":   forge.Anyone(r, catIssue),
	"issuePostCommentReaction":   forge.SignedInTo(w, catIssue),
	"issueDeleteCommentReaction": forge.SignedInTo(w, catIssue),

	"issueSubscriptions":      forge.Anyone(r, catIssue),
	"issueCheckSubscription":  forge.SignedInTo(r, catIssue),
	"issueAddSubscription":    forge.SignedInTo(w, catIssue),
	"issueDeleteSubscription": forge.SignedInTo(w, catIssue),

	"pinIssue":                   forge.SignedInTo(w, catIssue),
	"unpinIssue":                 forge.SignedInTo(w, catIssue),
	"moveIssuePin":               forge.SignedInTo(w, catIssue),
	"repoListPinnedIssues":       forge.Anyone(r, catIssue),
	"repoListPinnedPullRequests": forge.Anyone(r, catRepo),
	"repoNewPinAllowed":          forge.Anyone(r, catRepo),

	"issueGetCommentsAndTimeline": forge.Anyone(r, catIssue),

	"listLabelTemplates":   forge.Anyone(r),
	"getLabelTemplateInfo": forge.Anyone(r),

	"repoListPullRequests":         forge.Anyone(r, catRepo),
	"repoCreatePullRequest":        forge.SignedInTo(w, catRepo),
	"repoGetPullRequestByBaseHead": forge.Anyone(r, catRepo),
	"repoGetPullRequest":           forge.Anyone(r, catRepo),
	"repoEditPullRequest":          forge.SignedInTo(w, catRepo),
	"repoDownloadPullDiffOrPatch":  forge.Anyone(r, catRepo),
	"repoGetPullRequestCommits":    forge.Anyone(r, catRepo),
	"repoGetPullRequestFiles":      forge.Anyone(r, catRepo),
	"repoPullRequestIsMerged":      forge.Anyone(r, catRepo),
	"repoMergePullRequest":         forge.SignedInTo(w, catRepo),
	"repoCancelScheduledAutoMerge": forge.SignedInTo(w, catRepo),
	"repoUpdatePullRequest":        forge.SignedInTo(w, catRepo),

	"repoCreatePullReviewRequests": forge.SignedInTo(w, catRepo),
	"repoDeletePullReviewRequests": forge.SignedInTo(w, catRepo),
	"repoListPullReviews":          forge.Anyone(r, catRepo),
	"repoCreatePullReview":         forge.SignedInTo(w, catRepo),
	"repoGetPullReview":            forge.Anyone(r, catRepo),
	"repoSubmitPullReview":         forge.SignedInTo(w, catRepo),
	"repoDeletePullReview":         forge.SignedInTo(w, catRepo),
	"repoGetPullReviewComments":    forge.Anyone(r, catRepo),
	"repoCreatePullReviewComment":  forge.SignedInTo(w, catRepo),
	"repoGetPullReviewComment":     forge.Anyone(r, catRepo),
	"repoDeletePullReviewComment":  forge.SignedInTo(w, catRepo),
	"repoDismissPullReview":        forge.SignedInTo(w, catRepo),
	"repoUnDismissPullReview":      forge.SignedInTo(w, catRepo),

	"repoCompareDiff":          forge.Anyone(r, catRepo),
	"repoGetCommitPullRequest": forge.Anyone(r, catRepo),
	"repoGetReviewers":         forge.Anyone(r, catRepo),
	"repoGetAssignees":         forge.Anyone(r, catRepo),
}

// probe is what a gated operation's probe (Authorize) checks.
type probe int

const (
	// probeIssues: a signed-in actor who may see the repository and read
	// its issues or pull requests (Forgejo's repoAssignment and
	// mustEnableIssuesOrPulls; who may act on the issue or comment is
	// checked after binding, in the method).
	probeIssues probe = iota + 1
	// probeIssueWriter: probeIssues, and write access to the issues or
	// pull requests (reqRepoWriter), as labels and milestones need.
	probeIssueWriter
	// probePulls: the pull requests of the repository may be read
	// (mustAllowPulls, reqRepoReader on the code).
	probePulls
	// probeIssueUpload, probeCommentUpload: the actor may attach a file to
	// the issue or comment (Forgejo's canUserWriteIssueAttachment, first
	// in the handler, before the file is read).
	probeIssueUpload
	probeCommentUpload
	// probeOrgLabels: the actor may write the organisation's labels.
	probeOrgLabels
)

// gated are the operations whose check runs before their body is read,
// with what Authorize checks for each.
var gated = map[string]probe{
	"issueCreateLabel": probeIssueWriter, "issueEditLabel": probeIssueWriter,
	"issueCreateMilestone": probeIssueWriter, "issueEditMilestone": probeIssueWriter,

	"issueCreateIssue": probeIssues, "issueCreateComment": probeIssues, "issueEditIssue": probeIssues,
	"issueEditComment": probeIssues, "issueEditCommentDeprecated": probeIssues, "issueAddLabel": probeIssues,
	"issueReplaceLabels": probeIssues, "issueClearLabels": probeIssues, "issueRemoveLabel": probeIssues,
	"issueAddTime": probeIssues, "issueEditIssueDeadline": probeIssues, "issuePostIssueReaction": probeIssues,
	"issueDeleteIssueReaction": probeIssues, "issuePostCommentReaction": probeIssues,
	"issueDeleteCommentReaction": probeIssues, "issueCreateIssueDependencies": probeIssues,
	"issueRemoveIssueDependencies": probeIssues, "issueCreateIssueBlocking": probeIssues,
	"issueRemoveIssueBlocking": probeIssues, "issueEditIssueAttachment": probeIssues,
	"issueEditIssueCommentAttachment": probeIssues,

	"repoCreatePullRequest": probePulls, "repoEditPullRequest": probePulls, "repoMergePullRequest": probePulls,
	"repoCreatePullReview": probePulls, "repoSubmitPullReview": probePulls, "repoDismissPullReview": probePulls,
	"repoCreatePullReviewComment": probePulls, "repoCreatePullReviewRequests": probePulls,
	"repoDeletePullReviewRequests": probePulls,

	"issueCreateIssueAttachment": probeIssueUpload, "issueCreateIssueCommentAttachment": probeCommentUpload,

	"orgCreateLabel": probeOrgLabels, "orgEditLabel": probeOrgLabels,
}

// Requirements returns what each operation this package serves requires,
// by Forgejo's operationId: the one statement of it, which the API
// derives its routes' scopes, token checks and gates (Requirement.Gate:
// Authorize) from. The methods check the same scope and sign-in rules
// themselves. A new map at each call.
func Requirements() map[string]forge.Requirement {
	return forge.Declare(operations, func(r forge.Requirement) forge.Requirement { return r }, forge.Gated(gated))
}
