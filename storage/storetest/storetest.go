// Package storetest is the conformance suite every Hearth storage backend
// runs: storetest.Run(t, open). A new backend starts by making it pass.
package storetest

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/actions"
	"github.com/hearthforge/hearth/forge/actions/artifacts"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/forge/hooks"
	"github.com/hearthforge/hearth/forge/lfs"
	"github.com/hearthforge/hearth/forge/notify"
	"github.com/hearthforge/hearth/forge/orgs"
	"github.com/hearthforge/hearth/forge/packages"
	"github.com/hearthforge/hearth/forge/repos"
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
	Actions() actions.Store
	Hooks() hooks.Store
	LFS() lfs.Store
	Packages() packages.Store
	Artifacts() artifacts.Store
	Quota() quota.Store
	Mirrors() mirror.Store
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
	{"Tokens", func(t *testing.T, b Backend) { testTokens(t, b.Auth()) }},
	{"Repos", testRepos},
	{"HookTaskClaims", testHookTaskClaims},
	{"SourcesAndTwoFactor", func(t *testing.T, b Backend) { testSourcesAndTwoFactor(t, b.Auth()) }},
	{"BranchProtections", testBranchProtections},
	{"TagProtections", testTagProtections},
	{"RepoLifecycle", testRepoLifecycle},
	{"ReleaseEdits", testReleaseEdits},
	{"Social", testSocial},
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
	{"NotifyCascades", testNotifyCascades},
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

func update(t *testing.T, s auth.Store, fn func(auth.Tx) error) {
	t.Helper()
	require.NoError(t, s.Update(context.Background(), fn))
}

func createUser(t *testing.T, s auth.Store, u *forge.User) *forge.User {
	t.Helper()
	update(t, s, func(tx auth.Tx) error { return tx.CreateUser(context.Background(), u, "hash-"+u.Name) })
	require.NotZero(t, u.ID)
	return u
}

// userReads are the account reads the domain transactions share (auth.Tx,
// repos.Tx, issues.Tx).
type userReads interface {
	UserByName(ctx context.Context, name string) (*forge.User, error)
	UserByID(ctx context.Context, id forge.ID) (*forge.User, error)
}

// checkUserReads: tx finds a by its name in capitals (names compare
// ignoring case) and b by id, and an unknown name or id is
// forge.ErrNotFound.
func checkUserReads(t *testing.T, tx userReads, a, b *forge.User) {
	t.Helper()
	ctx := context.Background()
	u, err := tx.UserByName(ctx, strings.ToUpper(a.Name))
	require.NoError(t, err)
	assert.Equal(t, a.ID, u.ID)
	u, err = tx.UserByID(ctx, b.ID)
	require.NoError(t, err)
	assert.Equal(t, b.Name, u.Name)
	_, err = tx.UserByName(ctx, "nobody")
	assert.ErrorIs(t, err, forge.ErrNotFound)
	_, err = tx.UserByID(ctx, 9999)
	assert.ErrorIs(t, err, forge.ErrNotFound)
}

func testUsers(t *testing.T, s auth.Store) {
	ctx := context.Background()
	created := time.Date(2023, 5, 6, 7, 8, 9, 0, time.UTC)
	in := forgetest.User("Alice", func(u *forge.User) {
		u.FullName, u.Location, u.Website, u.Description, u.Pronouns = "Alice A", "Paris", "https://a.example", "hi", "she/her"
		u.IsAdmin, u.Restricted, u.MustChangePassword, u.HideEmail = true, true, true, true
		u.Visibility, u.LoginName, u.MaxRepoCreation = forge.VisibilityLimited, "alice-ext", 5
		u.Created, u.Updated, u.LastLogin = created, created.Add(time.Hour), created.Add(2*time.Hour)
	})
	want := *in
	createUser(t, s, in)
	want.ID = in.ID

	require.NoError(t, s.View(ctx, func(tx auth.Tx) error {
		for _, get := range []func() (*forge.User, error){
			func() (*forge.User, error) { return tx.UserByID(ctx, in.ID) },
			func() (*forge.User, error) { return tx.UserByName(ctx, "aLiCe") },
			func() (*forge.User, error) { return tx.UserByEmail(ctx, "ALICE@example.com") },
		} {
			got, err := get()
			require.NoError(t, err)
			if diff := cmp.Diff(&want, got); diff != "" {
				t.Errorf("user round trip (-want +got):\n%s", diff)
			}
			assert.Equal(t, time.UTC, got.Created.Location(), "timestamps come back in UTC")
		}
		h, err := tx.PasswordHash(ctx, in.ID)
		assert.Equal(t, "hash-Alice", h)
		return err
	}))

	require.NoError(t, s.View(ctx, func(tx auth.Tx) error {
		_, err := tx.UserByName(ctx, "nobody")
		assert.ErrorIs(t, err, forge.ErrNotFound)
		_, err = tx.UserByID(ctx, 9999)
		assert.ErrorIs(t, err, forge.ErrNotFound)
		_, err = tx.PasswordHash(ctx, 9999)
		assert.ErrorIs(t, err, forge.ErrNotFound)
		return nil
	}))

	want.FullName, want.IsAdmin, want.Email = "Alice B", false, "alice2@example.com"
	want.Updated = created.Add(48 * time.Hour)
	update(t, s, func(tx auth.Tx) error {
		u := want
		if err := tx.UpdateUser(ctx, &u); err != nil {
			return err
		}
		return tx.SetPasswordHash(ctx, u.ID, "new-hash")
	})
	require.NoError(t, s.View(ctx, func(tx auth.Tx) error {
		got, err := tx.UserByID(ctx, in.ID)
		require.NoError(t, err)
		assert.Empty(t, cmp.Diff(&want, got))
		h, _ := tx.PasswordHash(ctx, in.ID)
		assert.Equal(t, "new-hash", h)
		return nil
	}))

	err := s.Update(ctx, func(tx auth.Tx) error {
		u := want
		u.ID = 9999
		return tx.UpdateUser(ctx, &u)
	})
	assert.ErrorIs(t, err, forge.ErrNotFound)

	update(t, s, func(tx auth.Tx) error { return tx.DeleteUser(ctx, in.ID) })
	err = s.Update(ctx, func(tx auth.Tx) error { return tx.DeleteUser(ctx, in.ID) })
	assert.ErrorIs(t, err, forge.ErrNotFound)
}

func testUserConflicts(t *testing.T, s auth.Store) {
	ctx := context.Background()
	createUser(t, s, forgetest.User("bob"))
	other := createUser(t, s, forgetest.User("carol"))
	for name, u := range map[string]*forge.User{
		"same name other case": forgetest.User("BOB", func(u *forge.User) { u.Email = "x@example.com" }),
		"same email":           forgetest.User("bobby", func(u *forge.User) { u.Email = "Bob@Example.com" }),
	} {
		err := s.Update(ctx, func(tx auth.Tx) error { return tx.CreateUser(ctx, u, "") })
		assert.ErrorIs(t, err, forge.ErrConflict, name)
	}
	err := s.Update(ctx, func(tx auth.Tx) error {
		u := *other
		u.Name = "Bob"
		return tx.UpdateUser(ctx, &u)
	})
	assert.ErrorIs(t, err, forge.ErrConflict, "rename onto a taken name")
	err = s.Update(ctx, func(tx auth.Tx) error {
		u := *other
		u.Email = "BOB@example.com"
		return tx.UpdateUser(ctx, &u)
	})
	assert.ErrorIs(t, err, forge.ErrConflict, "change to a taken e-mail, ignoring case")

	org := createUser(t, s, forgetest.User("acme", func(u *forge.User) { u.Type = forge.UserTypeOrganization }))
	require.NoError(t, s.View(ctx, func(tx auth.Tx) error {
		got, err := tx.UserByID(ctx, org.ID)
		require.NoError(t, err)
		assert.Equal(t, forge.UserTypeOrganization, got.Type, "organisations share the accounts table")
		return nil
	}))
}

func testRollback(t *testing.T, s auth.Store) {
	ctx := context.Background()
	boom := errors.New("boom")
	err := s.Update(ctx, func(tx auth.Tx) error {
		if err := tx.CreateUser(ctx, forgetest.User("dave"), ""); err != nil {
			return err
		}
		return boom
	})
	require.ErrorIs(t, err, boom, "Update returns fn's error unchanged")
	require.NoError(t, s.View(ctx, func(tx auth.Tx) error {
		_, err := tx.UserByName(ctx, "dave")
		assert.ErrorIs(t, err, forge.ErrNotFound, "a failed Update leaves nothing behind")
		return nil
	}))
	// A failing statement inside the transaction rolls back earlier ones too.
	createUser(t, s, forgetest.User("erin"))
	err = s.Update(ctx, func(tx auth.Tx) error {
		if err := tx.CreateUser(ctx, forgetest.User("frank"), ""); err != nil {
			return err
		}
		return tx.CreateUser(ctx, forgetest.User("erin"), "")
	})
	require.ErrorIs(t, err, forge.ErrConflict)
	require.NoError(t, s.View(ctx, func(tx auth.Tx) error {
		_, err := tx.UserByName(ctx, "frank")
		assert.ErrorIs(t, err, forge.ErrNotFound)
		return nil
	}))
	// A View never commits: a backend may refuse the write or drop it.
	_ = s.View(ctx, func(tx auth.Tx) error { return tx.CreateUser(ctx, forgetest.User("gus"), "") })
	require.NoError(t, s.View(ctx, func(tx auth.Tx) error {
		_, err := tx.UserByName(ctx, "gus")
		assert.ErrorIs(t, err, forge.ErrNotFound, "a write in a View is never committed")
		return nil
	}))
}

func testListUsers(t *testing.T, s auth.Store) {
	ctx := context.Background()
	names := []string{"u3", "u1", "u5", "u2", "u4"}
	for i, n := range names {
		createUser(t, s, forgetest.User(n, func(u *forge.User) {
			u.IsAdmin = i < 2
			u.ProhibitLogin = i == 1
			if n == "u2" {
				u.LoginName = "ext2"
			}
		}))
	}
	require.NoError(t, s.View(ctx, func(tx auth.Tx) error {
		list, total, err := tx.ListUsers(ctx, auth.UserFilter{}, forge.ListOptions{Page: 2, Limit: 2})
		require.NoError(t, err)
		assert.EqualValues(t, 5, total)
		assert.Equal(t, []string{"u5", "u2"}, userNames(list))

		list, _, err = tx.ListUsers(ctx, auth.UserFilter{Sort: "alphabetically"}, forge.ListOptions{Page: 1, Limit: 3})
		require.NoError(t, err)
		assert.Equal(t, []string{"u1", "u2", "u3"}, userNames(list))

		list, total, err = tx.ListUsers(ctx, auth.UserFilter{LoginName: "ext2"}, forge.ListOptions{})
		require.NoError(t, err)
		assert.EqualValues(t, 1, total)
		assert.Equal(t, []string{"u2"}, userNames(list))

		list, _, err = tx.ListUsers(ctx, auth.UserFilter{}, forge.ListOptions{Page: 9, Limit: 2})
		require.NoError(t, err)
		assert.NotNil(t, list)
		assert.Empty(t, list)

		n, err := tx.CountUsers(ctx, auth.AdminCount())
		require.NoError(t, err)
		assert.EqualValues(t, 1, n, "an admin who may not log in does not count")
		return nil
	}))
}

// pluck returns f of each of list, in order; never nil (a test's expected
// empty list is []T{}).
func pluck[T, V any](list []T, f func(T) V) []V {
	out := make([]V, 0, len(list))
	for _, x := range list {
		out = append(out, f(x))
	}
	return out
}

// wantPage checks a page read against a case: no error, the names of
// list are want, in order, and total is their number (a case's page
// holds every match). name names the case.
func wantPage[T, N any](t *testing.T, name string, want []N, names func([]T) []N, list []T, total int64, err error) {
	t.Helper()
	require.NoError(t, err, name)
	assert.Equal(t, want, names(list), name)
	assert.EqualValues(t, len(want), total, name)
}

func userNames(list []*forge.User) []string {
	return pluck(list, func(u *forge.User) string { return u.Name })
}

func testTokens(t *testing.T, s auth.Store) {
	ctx := context.Background()
	u := createUser(t, s, forgetest.User("gina"))
	other := createUser(t, s, forgetest.User("hank"))
	at := time.Date(2024, 2, 3, 4, 5, 6, 0, time.UTC)
	scope, err := forge.ParseScope("write:repository", "read:user")
	require.NoError(t, err)
	tokens := make([]*auth.AccessToken, 3)
	for i := range tokens {
		tokens[i] = &auth.AccessToken{UserID: u.ID, Name: string(rune('a' + i)), Hash: string(rune('a'+i)) + "hash",
			LastEight: "12345678", Scope: scope, Created: at.Add(time.Duration(i) * time.Second), Updated: at}
		update(t, s, func(tx auth.Tx) error { return tx.CreateToken(ctx, tokens[i]) })
		require.NotZero(t, tokens[i].ID)
	}
	for name, tk := range map[string]*auth.AccessToken{
		"same name, same user": {UserID: u.ID, Name: "a", Hash: "zz", Scope: scope, Created: at, Updated: at},
		"same hash":            {UserID: other.ID, Name: "x", Hash: "ahash", Scope: scope, Created: at, Updated: at},
	} {
		err := s.Update(ctx, func(tx auth.Tx) error { return tx.CreateToken(ctx, tk) })
		assert.ErrorIs(t, err, forge.ErrConflict, name)
	}
	update(t, s, func(tx auth.Tx) error {
		return tx.CreateToken(ctx, &auth.AccessToken{UserID: other.ID, Name: "a", Hash: "otherhash",
			Scope: scope, Created: at, Updated: at})
	})
	err = s.Update(ctx, func(tx auth.Tx) error {
		return tx.CreateToken(ctx, &auth.AccessToken{UserID: 9999, Name: "a", Hash: "h9", Scope: scope, Created: at, Updated: at})
	})
	assert.Error(t, err, "a token needs an existing user")

	require.NoError(t, s.View(ctx, func(tx auth.Tx) error {
		tk, owner, err := tx.TokenByHash(ctx, "bhash")
		require.NoError(t, err)
		assert.Equal(t, u.ID, owner.ID)
		assert.Equal(t, "gina", owner.Name)
		if diff := cmp.Diff(tokens[1], tk, forgetest.CmpOptions); diff != "" {
			t.Errorf("token round trip (-want +got):\n%s", diff)
		}
		assert.Equal(t, "write:repository,read:user", tk.Scope.String())
		_, _, err = tx.TokenByHash(ctx, "nope")
		assert.ErrorIs(t, err, forge.ErrNotFound)

		list, total, err := tx.ListTokens(ctx, u.ID, forge.ListOptions{Page: 1, Limit: 2})
		require.NoError(t, err)
		assert.EqualValues(t, 3, total)
		assert.Equal(t, []forge.ID{tokens[2].ID, tokens[1].ID}, tokenIDs(list), "newest first")

		byName, err := tx.TokensByName(ctx, u.ID, "c")
		require.NoError(t, err)
		assert.Equal(t, []forge.ID{tokens[2].ID}, tokenIDs(byName))
		return nil
	}))

	// The optional single-statement lookup agrees with the transactional one,
	// and sees every update of the user at once.
	if f, ok := s.(auth.TokenFinder); ok {
		tk, owner, err := f.FindToken(ctx, "bhash")
		require.NoError(t, err)
		assert.Equal(t, "gina", owner.Name)
		assert.Empty(t, cmp.Diff(tokens[1], tk, forgetest.CmpOptions))
		_, _, err = f.FindToken(ctx, "nope")
		assert.ErrorIs(t, err, forge.ErrNotFound)
		for _, name := range []string{"Gina G", "Gina H"} {
			update(t, s, func(tx auth.Tx) error {
				v, err := tx.UserByID(ctx, u.ID)
				if err != nil {
					return err
				}
				v.FullName = name
				return tx.UpdateUser(ctx, v)
			})
			_, owner, err = f.FindToken(ctx, "bhash")
			require.NoError(t, err)
			assert.Equal(t, name, owner.FullName, "FindToken sees the committed user")
			owner.FullName = "mutated by the caller"
		}
		err = s.Update(ctx, func(tx auth.Tx) error {
			v, err := tx.UserByID(ctx, u.ID)
			require.NoError(t, err)
			v.FullName = "rolled back"
			if err := tx.UpdateUser(ctx, v); err != nil {
				return err
			}
			if _, owner, err := tx.TokenByHash(ctx, "bhash"); err != nil || owner.FullName != "rolled back" {
				t.Errorf("a transaction sees its own update: %v %v", owner, err)
			}
			return errors.New("roll back")
		})
		require.Error(t, err)
		_, owner, err = f.FindToken(ctx, "bhash")
		require.NoError(t, err)
		assert.Equal(t, "Gina H", owner.FullName, "a rolled-back update is never seen")
	}

	later := at.Add(time.Hour)
	update(t, s, func(tx auth.Tx) error { return tx.TouchToken(ctx, tokens[0].ID, later) })
	err = s.Update(ctx, func(tx auth.Tx) error { return tx.DeleteToken(ctx, other.ID, tokens[1].ID) })
	assert.ErrorIs(t, err, forge.ErrNotFound, "another user's token cannot be deleted")
	update(t, s, func(tx auth.Tx) error { return tx.DeleteToken(ctx, u.ID, tokens[1].ID) })
	require.NoError(t, s.View(ctx, func(tx auth.Tx) error {
		tk, _, err := tx.TokenByHash(ctx, "ahash")
		require.NoError(t, err)
		assert.Equal(t, later, tk.Updated)
		_, _, err = tx.TokenByHash(ctx, "bhash")
		assert.ErrorIs(t, err, forge.ErrNotFound)
		return nil
	}))

	update(t, s, func(tx auth.Tx) error { return tx.DeleteUser(ctx, u.ID) })
	require.NoError(t, s.View(ctx, func(tx auth.Tx) error {
		_, _, err := tx.TokenByHash(ctx, "ahash")
		assert.ErrorIs(t, err, forge.ErrNotFound, "deleting a user deletes its tokens")
		_, _, err = tx.TokenByHash(ctx, "otherhash")
		assert.NoError(t, err, "other users' tokens stay")
		return nil
	}))
}

func tokenIDs(list []*auth.AccessToken) []forge.ID {
	return pluck(list, func(t *auth.AccessToken) forge.ID { return t.ID })
}

func testSourcesAndTwoFactor(t *testing.T, s auth.Store) {
	ctx := context.Background()
	at := time.Date(2024, 3, 4, 5, 6, 7, 0, time.UTC)
	src := &auth.LoginSource{Type: auth.SourceLDAP, Name: "corp", IsActive: true, Created: at, Updated: at}
	update(t, s, func(tx auth.Tx) error { return tx.CreateLoginSource(ctx, src) })
	require.NotZero(t, src.ID)
	err := s.Update(ctx, func(tx auth.Tx) error {
		return tx.CreateLoginSource(ctx, &auth.LoginSource{Type: auth.SourcePAM, Name: "corp", Created: at, Updated: at})
	})
	assert.ErrorIs(t, err, forge.ErrConflict)
	require.NoError(t, s.View(ctx, func(tx auth.Tx) error {
		got, err := tx.LoginSourceByID(ctx, src.ID)
		require.NoError(t, err)
		assert.Equal(t, src, got)
		_, err = tx.LoginSourceByID(ctx, 999)
		assert.ErrorIs(t, err, forge.ErrNotFound)
		list, err := tx.ListLoginSources(ctx)
		require.NoError(t, err)
		assert.Equal(t, []*auth.LoginSource{src}, list)
		return nil
	}))

	u := createUser(t, s, forgetest.User("ivy"))
	tf := &auth.TwoFactor{UserID: u.ID, Secret: "sealed", ScratchHash: "h", Created: at, Updated: at}
	update(t, s, func(tx auth.Tx) error { return tx.PutTwoFactor(ctx, tf) })
	tf.LastUsedPasscode, tf.Updated = "123456", at.Add(time.Minute)
	update(t, s, func(tx auth.Tx) error { return tx.PutTwoFactor(ctx, tf) })
	require.NoError(t, s.View(ctx, func(tx auth.Tx) error {
		got, err := tx.TwoFactor(ctx, u.ID)
		require.NoError(t, err)
		assert.Equal(t, tf, got, "PutTwoFactor replaces")
		return nil
	}))
	update(t, s, func(tx auth.Tx) error { return tx.DeleteTwoFactor(ctx, u.ID) })
	err = s.Update(ctx, func(tx auth.Tx) error { return tx.DeleteTwoFactor(ctx, u.ID) })
	assert.ErrorIs(t, err, forge.ErrNotFound)
	update(t, s, func(tx auth.Tx) error { return tx.PutTwoFactor(ctx, tf) })
	update(t, s, func(tx auth.Tx) error { return tx.DeleteUser(ctx, u.ID) })
	require.NoError(t, s.View(ctx, func(tx auth.Tx) error {
		_, err := tx.TwoFactor(ctx, u.ID)
		assert.ErrorIs(t, err, forge.ErrNotFound, "deleting a user deletes its enrolment")
		return nil
	}))
}
