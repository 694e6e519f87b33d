package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/actions"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/forge/hooks"
	"github.com/hearthforge/hearth/forge/orgs"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/issues"
	"github.com/hearthforge/hearth/mirror"
	"github.com/hearthforge/hearth/quota"
)

// The suite's fixtures: one transaction helper for every store, and the
// accounts, repositories, organisations, teams and issues the cases seed
// the same way.

// txStore is what every domain store offers: Update and View run fn in
// one transaction of the domain's type Tx.
type txStore[Tx any] interface {
	Update(ctx context.Context, fn func(Tx) error) error
	View(ctx context.Context, fn func(Tx) error) error
}

// mustUpdate runs fn in an Update of s; an error fails the test.
func mustUpdate[Tx any](t *testing.T, s txStore[Tx], fn func(Tx) error) {
	t.Helper()
	require.NoError(t, s.Update(context.Background(), fn))
}

// mustView runs fn in a View of s; an error fails the test.
func mustView[Tx any](t *testing.T, s txStore[Tx], fn func(Tx) error) {
	t.Helper()
	require.NoError(t, s.View(context.Background(), fn))
}

// The domains' names for mustUpdate and mustView.
var (
	update       = mustUpdate[auth.Tx]
	repoUpdate   = mustUpdate[repos.Tx]
	orgUpdate    = mustUpdate[orgs.Tx]
	orgView      = mustView[orgs.Tx]
	issueUpdate  = mustUpdate[issues.Tx]
	issueView    = mustView[issues.Tx]
	hookUpdate   = mustUpdate[hooks.Tx]
	mirrorUpdate = mustUpdate[mirror.Tx]
	quotaUpdate  = mustUpdate[quota.Tx]
	quotaView    = mustView[quota.Tx]
)

// actUpdate and actView are mustUpdate and mustView on b's actions store.
func actUpdate(t *testing.T, b Backend, fn func(actions.Tx) error) {
	t.Helper()
	mustUpdate(t, b.Actions(), fn)
}

func actView(t *testing.T, b Backend, fn func(actions.Tx) error) {
	t.Helper()
	mustView(t, b.Actions(), fn)
}

// newUser creates the account forgetest.User(name, opts...) describes.
func newUser(t *testing.T, b Backend, name string, opts ...func(*forge.User)) *forge.User {
	t.Helper()
	return createUser(t, b.Auth(), forgetest.User(name, opts...))
}

// createUser creates u in s with the password hash "hash-"+u.Name and
// returns it with its new ID.
func createUser(t *testing.T, s auth.Store, u *forge.User) *forge.User {
	t.Helper()
	update(t, s, func(tx auth.Tx) error { return tx.CreateUser(context.Background(), u, "hash-"+u.Name) })
	require.NotZero(t, u.ID)
	return u
}

// newRepo creates a user-owned public repository for tests that need one.
func newRepo(t *testing.T, b Backend, owner *forge.User, name string) *forge.Repository {
	t.Helper()
	at := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
	r := &forge.Repository{OwnerID: owner.ID, Name: name, DefaultBranch: "main", ObjectFormat: forge.SHA1,
		Empty: true, Topics: []string{}, Created: at, Updated: at}
	repoUpdate(t, b.Repos(), func(tx repos.Tx) error { return tx.CreateRepo(context.Background(), r) })
	return r
}

// newUserRepo creates the account user and a public repository of it
// (newRepo).
func newUserRepo(t *testing.T, b Backend, user, repo string) (*forge.User, *forge.Repository) {
	t.Helper()
	u := newUser(t, b, user)
	return u, newRepo(t, b, u, repo)
}

// newUserRepos creates the account user and two public repositories of
// it, repo1 then repo2.
func newUserRepos(t *testing.T, b Backend, user, repo1, repo2 string) (*forge.User, *forge.Repository, *forge.Repository) {
	t.Helper()
	u, r1 := newUserRepo(t, b, user, repo1)
	return u, r1, newRepo(t, b, u, repo2)
}

// newOrg creates an organisation named name with no e-mail.
func newOrg(t *testing.T, b Backend, name string, opts ...func(*forge.User)) *forge.User {
	t.Helper()
	org := forgetest.User(name, append([]func(*forge.User){func(u *forge.User) {
		u.Type, u.Email = forge.UserTypeOrganization, ""
	}}, opts...)...)
	orgUpdate(t, b.Orgs(), func(tx orgs.Tx) error { return tx.CreateOrg(context.Background(), org) })
	require.NotZero(t, org.ID)
	return org
}

// newTeam creates a team with read access to the code.
func newTeam(t *testing.T, b Backend, org *forge.User, name string) *forge.Team {
	t.Helper()
	tm := &forge.Team{OrgID: org.ID, Name: name, Mode: forge.AccessModeRead,
		Units: map[forge.Unit]forge.AccessMode{forge.UnitCode: forge.AccessModeRead}}
	orgUpdate(t, b.Orgs(), func(tx orgs.Tx) error { return tx.CreateTeam(context.Background(), tm) })
	require.NotZero(t, tm.ID)
	return tm
}

// newIssue reserves the next index of repo and creates an issue there, as
// the service does, in one transaction.
func newIssue(t *testing.T, s issues.Store, repoID, posterID forge.ID, title string, opts ...func(*issues.Issue)) *issues.Issue {
	t.Helper()
	ctx := context.Background()
	i := &issues.Issue{RepoID: repoID, PosterID: posterID, Title: title, Created: issueAt, Updated: issueAt}
	for _, o := range opts {
		o(i)
	}
	issueUpdate(t, s, func(tx issues.Tx) error {
		n, err := tx.NextIssueIndex(ctx, repoID)
		if err != nil {
			return err
		}
		i.Index = n
		return tx.CreateIssue(ctx, i)
	})
	require.NotZero(t, i.ID)
	return i
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

// viewValue returns what read returns in a View of s; an error fails the
// test.
func viewValue[Tx, V any](t *testing.T, s txStore[Tx], read func(context.Context, Tx) (V, error)) V {
	t.Helper()
	var v V
	mustView(t, s, func(tx Tx) (err error) { v, err = read(context.Background(), tx); return err })
	return v
}

// viewPage returns the page read returns in a View of s and the count of
// every match; an error or a nil page (a page is never nil) fails the
// test.
func viewPage[Tx, T any](t *testing.T, s txStore[Tx], read func(context.Context, Tx) ([]T, int64, error)) ([]T, int64) {
	t.Helper()
	var list []T
	var total int64
	mustView(t, s, func(tx Tx) (err error) { list, total, err = read(context.Background(), tx); return err })
	require.NotNil(t, list, "a page is never nil")
	return list, total
}

// filterCase is one row of a filter table: a filter, and the names of
// every row it matches, in order.
type filterCase[F, N any] struct {
	f    F
	want []N
}

// checkFilters reads, for each named case, the page list returns for the
// case's filter in a View of s and checks it with wantPage: the page holds
// every match, named by names.
func checkFilters[Tx, F, T, N any](t *testing.T, s txStore[Tx], cases map[string]filterCase[F, N], names func([]T) []N,
	list func(context.Context, Tx, F) ([]T, int64, error)) {
	t.Helper()
	for name, tc := range cases {
		mustView(t, s, func(tx Tx) error {
			got, total, err := list(context.Background(), tx, tc.f)
			wantPage(t, name, tc.want, names, got, total, err)
			return nil
		})
	}
}

// orgSeed is what seedOrgs writes, in one orgs transaction and in this
// order: teams, memberships, team members (a team and a user's id) and
// team repositories (a team and a repository's id), and blocks.
type orgSeed struct {
	teams       []*forge.Team
	members     []forge.Membership
	teamMembers []teamPair
	teamRepos   []teamPair
	blocks      []forge.Block
}

// teamPair is a team and the id of one of its members or repositories;
// the team may be one orgSeed creates.
type teamPair struct {
	team *forge.Team
	id   forge.ID
}

// seedOrgs writes seed; an error fails the test.
func seedOrgs(t *testing.T, b Backend, seed orgSeed) {
	t.Helper()
	orgUpdate(t, b.Orgs(), func(tx orgs.Tx) error {
		ctx := context.Background()
		for _, tm := range seed.teams {
			if err := tx.CreateTeam(ctx, tm); err != nil {
				return err
			}
		}
		for _, m := range seed.members {
			if err := tx.SetMember(ctx, m); err != nil {
				return err
			}
		}
		for _, tm := range seed.teamMembers {
			if err := tx.AddTeamMember(ctx, tm.team.ID, tm.id); err != nil {
				return err
			}
		}
		for _, tr := range seed.teamRepos {
			if err := tx.AddTeamRepo(ctx, tr.team.ID, tr.id); err != nil {
				return err
			}
		}
		for _, bl := range seed.blocks {
			if err := tx.SetBlock(ctx, bl); err != nil {
				return err
			}
		}
		return nil
	})
}

// wantNotFound checks that read, run in a View of s, is
// forge.ErrNotFound; msg says why, as in assert.
func wantNotFound[Tx any](t *testing.T, s txStore[Tx], read func(context.Context, Tx) error, msg ...any) {
	t.Helper()
	mustView(t, s, func(tx Tx) error {
		assert.ErrorIs(t, read(context.Background(), tx), forge.ErrNotFound, msg...)
		return nil
	})
}

// wantRoundTrip checks a read of what was written: no error, and got is
// want (cmp.Diff with opts); what names the row in the failure.
func wantRoundTrip[V any](t *testing.T, what string, want, got V, err error, opts ...cmp.Option) {
	t.Helper()
	require.NoError(t, err, what)
	if diff := cmp.Diff(want, got, opts...); diff != "" {
		t.Errorf("%s round trip (-want +got):\n%s", what, diff)
	}
}

// wantDeleteOnce runs del in an Update of s twice: the first deletes, the
// second finds nothing to delete (forge.ErrNotFound); msg says why, as in
// assert.
func wantDeleteOnce[Tx any](t *testing.T, s txStore[Tx], del func(context.Context, Tx) error, msg ...any) {
	t.Helper()
	mustUpdate(t, s, func(tx Tx) error { return del(context.Background(), tx) })
	err := s.Update(context.Background(), func(tx Tx) error { return del(context.Background(), tx) })
	assert.ErrorIs(t, err, forge.ErrNotFound, msg...)
}

// deleteOnce calls del twice in the caller's transaction: the first
// deletes, the second finds nothing to delete (forge.ErrNotFound).
func deleteOnce(t *testing.T, del func() error) {
	t.Helper()
	require.NoError(t, del())
	assert.ErrorIs(t, del(), forge.ErrNotFound)
}
