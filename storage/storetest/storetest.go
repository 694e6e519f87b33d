// Package storetest is the conformance suite every Hearth storage backend
// runs: storetest.Run(t, open). A new backend starts by making it pass.
package storetest

import (
	"sync/atomic"
	"testing"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/auth/oauthapps"
	"github.com/hearthforge/hearth/forge/actions"
	"github.com/hearthforge/hearth/forge/actions/artifacts"
	"github.com/hearthforge/hearth/forge/federation"
	"github.com/hearthforge/hearth/forge/feeds"
	"github.com/hearthforge/hearth/forge/gpgkeys"
	"github.com/hearthforge/hearth/forge/hooks"
	"github.com/hearthforge/hearth/forge/lfs"
	"github.com/hearthforge/hearth/forge/notify"
	"github.com/hearthforge/hearth/forge/orgs"
	"github.com/hearthforge/hearth/forge/packages"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/forge/sshkeys"
	"github.com/hearthforge/hearth/issues"
	"github.com/hearthforge/hearth/mirror"
	"github.com/hearthforge/hearth/quota"
)

// Backend is what a storage backend offers the domains.
type Backend interface {
	Auth() auth.Store
	Repos() repos.Store
	Orgs() orgs.Store
	Issues() issues.Store
	Notify() notify.Store
	Federation() federation.Store
	OAuthApps() oauthapps.Store
	Feeds() feeds.Store
	Actions() actions.Store
	Hooks() hooks.Store
	LFS() lfs.Store
	Packages() packages.Store
	Artifacts() artifacts.Store
	Quota() quota.Store
	Mirrors() mirror.Store
	GPGKeys() gpgkeys.Store
	SSHKeys() sshkeys.Store
}

// Run runs the whole suite. open must return a new, empty backend for each
// call (tests run in parallel). Every store is used through a recording
// wrapper, and the Coverage subtest fails when the suite never called a
// method of auth.Tx, repos.Tx, orgs.Tx or an optional store interface the
// backend has: a method added to a store interface must be added to the
// suite. It is skipped when -run selected only part of the suite.
func Run(t *testing.T, open func(t *testing.T) Backend) {
	rec := &recorder{}
	var probe Backend
	var ran atomic.Int64 // cases that ran to the end
	wrapped := func(t *testing.T) Backend {
		b := open(t)
		return recBackend{b, rec}
	}
	t.Run("Suite", func(t *testing.T) {
		probe = open(t)
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) { t.Parallel(); c.run(t, wrapped(t)); ran.Add(1) })
		}
		t.Run("Visibility", func(t *testing.T) { t.Parallel(); testVisibility(t, wrapped); ran.Add(1) })
	})
	t.Run("Coverage", func(t *testing.T) {
		if probe == nil || ran.Load() != int64(len(cases)+1) {
			t.Skip("coverage needs the whole suite to run")
		}
		checkCoverage(t, rec)
	})
}

// cases are the suite's tests, each on a new backend.
var cases = []struct {
	name string
	run  func(t *testing.T, b Backend)
}{
	{"Users", func(t *testing.T, b Backend) { testUsers(t, b.Auth()) }},
	{"People", testPeople},
	{"UserConflicts", func(t *testing.T, b Backend) { testUserConflicts(t, b.Auth()) }},
	{"Rollback", func(t *testing.T, b Backend) { testRollback(t, b.Auth()) }},
	{"ListUsers", func(t *testing.T, b Backend) { testListUsers(t, b.Auth()) }},
	{"CountUsers", func(t *testing.T, b Backend) { testCountUsers(t, b.Auth()) }},
	{"FederationCounts", testFederationCounts},
	{"Tokens", func(t *testing.T, b Backend) { testTokens(t, b.Auth()) }},
	{"Repos", testRepos},
	{"HookTaskClaims", testHookTaskClaims},
	{"SourcesAndTwoFactor", func(t *testing.T, b Backend) { testSourcesAndTwoFactor(t, b.Auth()) }},
	{"BranchProtections", testBranchProtections},
	{"TagProtections", testTagProtections},
	{"RepoLifecycle", testRepoLifecycle},
	{"ReleaseEdits", testReleaseEdits},
	{"Social", testSocial},
	{"RepoFlagsAndTopics", testRepoFlagsAndTopics},
	{"RepoStatus", testRepoStatus},
	{"RepoSearch", testRepoSearch},
	{"BatchReads", testBatchReads},
	{"UserDeletionCounters", testUserDeletionCounters},
	{"OwnsRepositories", testOwnsRepositories},
	{"DefaultVisibility", testDefaultVisibility},
	{"BareErrors", testBareErrors},
	{"OrgAccounts", testOrgAccounts},
	{"OrgMembers", testOrgMembers},
	{"Teams", testTeams},
	{"TeamMembersAndRepos", testTeamMembersAndRepos},
	{"Blocks", testBlocks},
	{"RepoBlocks", testRepoBlocks},
	{"TransferTeams", testTransferTeams},
	{"OrgCascades", testOrgCascades},
	{"Issues", testIssues},
	{"IssueIndexes", testIssueIndexes},
	{"IssueList", testIssueList},
	{"IssueMentions", testIssueMentions},
	{"IssueComments", testIssueComments},
	{"IssueLabels", testIssueLabels},
	{"IssueNames", testIssueNames},
	{"Milestones", testMilestones},
	{"IssueAttachments", testIssueAttachments},
	{"IssueCascades", testIssueCascades},
	{"ActionSecrets", testActionSecrets},
	{"ActionVariables", testActionVariables},
	{"ActionRunnerTokens", testActionRunnerTokens},
	{"ActionRunners", testActionRunners},
	{"ActionRuns", testActionRuns},
	{"IssueBlocks", testIssueBlocks},
	{"Notify", testNotify},
	{"GPGKeys", testGPGKeys},
	{"OAuthApps", testOAuthApps},
	{"Feeds", testFeeds},
	{"NotifyCascades", testNotifyCascades},
	{"SSHKeys", testSSHKeys},
	{"IssueDependencies", testIssueDependencies},
	{"IssueTimes", testIssueTimes},
	{"IssueSocial", testIssueSocial},
	{"Hooks", testHooks},
	{"HookTasks", testHookTasks},
	{"Outbox", testOutbox},
	{"OutboxClaims", testOutboxClaims},
	{"Pulls", testPulls},
	{"PullsQueries", testPullsQueries},
	{"IssueDependencyComments", testIssueDependencyComments},
	{"IssueLabelSearch", testIssueLabelSearch},
	{"IssueAssigneeSearch", testIssueAssigneeSearch},
	{"IssueBroadRepoSearch", testIssueBroadRepoSearch},
	{"LFS", testLFS},
	{"Packages", testPackages},
	{"Artifacts", testArtifacts},
	{"LFSPackageUsage", testLFSPackageUsage},
	{"LFSPackageCascades", testLFSPackageCascades},
	{"QuotaRules", testQuotaRules},
	{"QuotaUsage", testQuotaUsage},
	{"QuotaRandom", testQuotaRandom},
	{"QuotaReservations", testQuotaReservations},
	{"PullsDeletions", testPullsDeletions},
	{"Mirrors", testMirrors},
	{"MirrorLeases", testMirrorLeases},
	{"BlobRefs", testBlobRefs},
	{"IssueKeywordComments", testIssueKeywordComments},
	{"IssueSearchRepos", testIssueSearchRepos},
	{"RepoTeamsWithoutOrgs", testRepoTeamsWithoutOrgs},
	{"RepoTeams", testRepoTeams},
}
