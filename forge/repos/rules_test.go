package repos_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/forge/repos"
)

func TestPermission(t *testing.T) {
	t.Parallel()
	owner := forgetest.User("own")
	owner.ID = 1
	limitedOwner := forgetest.User("lim", func(u *forge.User) { u.ID = 5; u.Visibility = forge.VisibilityLimited })
	other := forgetest.User("oth")
	other.ID = 2
	admin := forgetest.User("adm", forgetest.Admin)
	admin.ID = 3
	public := &forge.Repository{ID: 9, OwnerID: 1}
	private := &forge.Repository{ID: 10, OwnerID: 1, Private: true}
	limitedRepo := &forge.Repository{ID: 11, OwnerID: 5}
	tests := []struct {
		name   string
		actor  forge.Actor
		repo   *forge.Repository
		owner  *forge.User
		collab forge.AccessMode
		want   forge.AccessMode
	}{
		{"owner", forgetest.ActorFor(owner), private, owner, 0, forge.AccessModeOwner},
		{"site admin", forgetest.ActorFor(admin), private, owner, 0, forge.AccessModeOwner},
		{"anonymous, public", forge.Anonymous, public, owner, 0, forge.AccessModeRead},
		{"anonymous, private", forge.Anonymous, private, owner, 0, forge.AccessNone},
		{"stranger, private", forgetest.ActorFor(other), private, owner, 0, forge.AccessNone},
		{"write collaborator, private", forgetest.ActorFor(other), private, owner, forge.AccessModeWrite, forge.AccessModeWrite},
		{"read collaborator, public", forgetest.ActorFor(other), public, owner, forge.AccessModeRead, forge.AccessModeRead},
		{"anonymous, limited owner", forge.Anonymous, limitedRepo, limitedOwner, 0, forge.AccessNone},
		{"signed in, limited owner", forgetest.ActorFor(other), limitedRepo, limitedOwner, 0, forge.AccessModeRead},
		{"public-only token, private", forgetest.TokenActor(owner, "all", "public-only"), private, owner, 0, forge.AccessNone},
		{"public-only admin token, public", forgetest.TokenActor(admin, "all", "public-only"), public, owner, 0, forge.AccessModeRead},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, repos.Permission(tt.actor, tt.repo, tt.owner, tt.collab), tt.name)
	}
}

func TestValidateName(t *testing.T) {
	t.Parallel()
	for _, ok := range []string{"a", "my-repo", "my_repo.v2", "A1"} {
		assert.NoError(t, repos.ValidateName(ok), ok)
	}
	for _, bad := range []string{"", ".", "..", "-", "a b", "a/b", "x.git", "x.wiki", "x.rss", "x.atom", string(make([]byte, 101))} {
		assert.ErrorIs(t, repos.ValidateName(bad), forge.ErrInvalid, bad)
	}
}

func TestProtectionRules(t *testing.T) {
	t.Parallel()
	exact := &repos.BranchProtection{RuleName: "release/v1"}
	glob := &repos.BranchProtection{RuleName: "release/*"}
	assert.Same(t, exact, repos.ProtectionFor([]*repos.BranchProtection{glob, exact}, "release/v1"), "a name beats a pattern")
	assert.Same(t, glob, repos.ProtectionFor([]*repos.BranchProtection{glob, exact}, "release/v2"))
	assert.Nil(t, repos.ProtectionFor([]*repos.BranchProtection{glob, exact}, "main"))
	assert.True(t, glob.IsGlob())
	assert.False(t, exact.IsGlob())
}

// TestApprovals is spec/repos.md §6: official, undismissed approvals count;
// stale ones count unless ignore_stale_approvals; dismissed ones never.
func TestApprovals(t *testing.T) {
	t.Parallel()
	reviews := []repos.Review{
		{Approved: true, Official: true},
		{Approved: true, Official: true, Stale: true},
		{Approved: true, Official: true, Dismissed: true},
		{Approved: true, Official: false},
		{Approved: false, Official: true},
	}
	tests := []struct {
		name string
		rule repos.BranchProtection
		want int64
		ok   bool
	}{
		{"neither flag: stale approvals count", repos.BranchProtection{RequiredApprovals: 2}, 2, true},
		{"ignore stale", repos.BranchProtection{RequiredApprovals: 2, IgnoreStaleApprovals: true}, 1, false},
		{"dismiss stale (already dismissed ones never count)", repos.BranchProtection{RequiredApprovals: 2, DismissStaleApprovals: true}, 2, true},
		{"no approvals required", repos.BranchProtection{IgnoreStaleApprovals: true}, 1, true},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, repos.CountApprovals(&tt.rule, reviews), tt.name)
		assert.Equal(t, tt.ok, repos.HasEnoughApprovals(&tt.rule, reviews), tt.name)
	}
	assert.True(t, repos.HasEnoughApprovals(nil, nil), "no rule, no requirement")
}

func TestCombineStatuses(t *testing.T) {
	t.Parallel()
	st := func(id forge.ID, ctx string, s repos.StatusState) *repos.CommitStatus {
		return &repos.CommitStatus{ID: id, Context: ctx, State: s}
	}
	tests := []struct {
		name   string
		in     []*repos.CommitStatus
		want   repos.StatusState
		latest int
	}{
		{"none", nil, repos.StatusPending, 0},
		{"one success", []*repos.CommitStatus{st(1, "a", repos.StatusSuccess)}, repos.StatusSuccess, 1},
		{"a later status replaces its context's", []*repos.CommitStatus{st(1, "a", repos.StatusFailure), st(2, "a", repos.StatusSuccess)}, repos.StatusSuccess, 1},
		{"the worst context wins", []*repos.CommitStatus{st(1, "a", repos.StatusSuccess), st(2, "b", repos.StatusWarning), st(3, "c", repos.StatusPending)}, repos.StatusWarning, 3},
		{"error is worst", []*repos.CommitStatus{st(1, "a", repos.StatusFailure), st(2, "b", repos.StatusError)}, repos.StatusError, 2},
	}
	for _, tt := range tests {
		state, latest := repos.CombineStatuses(tt.in)
		assert.Equal(t, tt.want, state, tt.name)
		assert.Len(t, latest, tt.latest, tt.name)
	}
}

func TestLanguageOf(t *testing.T) {
	t.Parallel()
	for p, want := range map[string]string{
		"main.go": "Go", "src/lib.RS": "Rust", "README.md": "", "Makefile": "Makefile", "vendor/x/y.go": "",
		"web/node_modules/a.js": "", "node_modules/a.js": "",
	} {
		assert.Equal(t, want, repos.LanguageOf(p), p)
	}
}
