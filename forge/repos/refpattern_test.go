package repos_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

// Branch rules match as Forgejo's ProtectedBranch.Match (F2).
func TestMatchBranchRule(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		rule, branch string
		want         bool
	}{
		{"main", "main", true},
		{"main", "MAIN", true}, // a plain name ignores case
		{"main", "Main", true},
		{"main", "main2", false},
		{"release-1", "RELEASE-1", true}, // '-' is not a glob character
		{"release/*", "release/v1.17", true},
		{"release/*", "release/1.0/hotfix", false}, // '*' stays within a component
		{"release/**", "release/1.0/hotfix", true},
		{"release/**", "release/1.0", true},
		{"release/**/v1.17", "release/test/1/v1.17", true},
		{"{stable,lts}-*", "stable-1", true},
		{"{stable,lts}-*", "lts-2", true},
		{"{stable,lts}-*", "beta-1", false},
		{"Rel*", "rel1", false}, // a glob is case-sensitive
		{"v?", "v1", true},
		{"v[0-9]", "v7", true},
		{"v[0-9]", "vx", false},
		{"rel-[", "rel-[", true}, // an invalid glob is its literal text
		{"rel-[", "rel-x", false},
		{"rel-[", "rel-", false},
		{`a\*`, "a*", true},
		{`a\*`, "ab", false},
	} {
		assert.Equal(t, tc.want, repos.MatchBranchRule(tc.rule, tc.branch), "rule %q, branch %q", tc.rule, tc.branch)
		assert.Equal(t, tc.want, (&repos.BranchProtection{RuleName: tc.rule}).Matches(tc.branch), "Matches %q %q", tc.rule, tc.branch)
	}
}

// Tag patterns match as Forgejo's ProtectedTag (F2): a glob without
// separator, or a regular expression between slashes; a broken pattern
// covers every tag.
func TestMatchTagPattern(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		pattern, tag string
		want         bool
	}{
		{"v*", "v1", true},
		{"v*", "v1/x", true}, // '*' spans '/'
		{"v*", "v2/final", true},
		{"v*", "x1", false},
		{"v1.*", "v1.0", true},
		{"{v,r}1", "r1", true},
		{"V*", "v1", false},
		{`/^v\d+$/`, "v12", true},
		{`/^v\d+$/`, "v1.0", false},
		{"/rc/", "1-rc-2", true}, // unanchored
		{"//", "anything", true}, // Forgejo: two slashes are an empty expression
		{"/", "/", true},         // a lone slash is a glob
		{"rel-[", "x", true},     // does not compile: covers everything
		{"/(/", "x", true},
	} {
		assert.Equal(t, tc.want, repos.MatchTagPattern(tc.pattern, tc.tag), "pattern %q, tag %q", tc.pattern, tc.tag)
	}
}

func TestCheckTagPatternRefusesBrokenPatterns(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		p  string
		ok bool
	}{{"v*", true}, {" v* ", true}, {`/^v\d+$/`, true}, {"{a,b}*", true}, {"", false}, {" ", false},
		{"rel-[", false}, {"/(/", false}} {
		err := repos.CheckTagPattern(tc.p)
		assert.Equal(t, tc.ok, err == nil, "CheckTagPattern(%q) = %v", tc.p, err)
		if err != nil {
			assert.ErrorIs(t, err, forge.ErrInvalid)
		}
	}
}

// ProtectionFor picks as Forgejo: plain names first, then by rule name.
func TestProtectionForOrder(t *testing.T) {
	t.Parallel()
	star := &repos.BranchProtection{ID: 2, RuleName: "*"}
	mStar := &repos.BranchProtection{ID: 1, RuleName: "m*"}
	plain := &repos.BranchProtection{ID: 3, RuleName: "MAIN"}
	rules := []*repos.BranchProtection{mStar, star, plain}
	assert.Same(t, plain, repos.ProtectionFor(rules, "main"))
	assert.Same(t, star, repos.ProtectionFor(rules, "master"), "globs by name, not by creation")
	assert.Same(t, star, repos.ProtectionFor(rules, "dev"))
	assert.Nil(t, repos.ProtectionFor(rules[:1], "dev"))
}

// CanChangeTag is Forgejo's IsUserAllowedToControlTag over user ids: a
// rule covering the tag that whitelists the user lets them through.
func TestCanChangeTagByID(t *testing.T) {
	t.Parallel()
	vAnn := &repos.TagProtection{NamePattern: "v*", WhitelistUserIDs: []forge.ID{1}}
	v1Bob := &repos.TagProtection{NamePattern: "v1*", WhitelistUserIDs: []forge.ID{2}}
	noone := &repos.TagProtection{NamePattern: "x*"}
	rules := []*repos.TagProtection{vAnn, v1Bob, noone}
	for _, tc := range []struct {
		user forge.ID
		tag  string
		want bool
	}{
		{1, "v1", true}, {2, "v1", true}, {2, "v2", false}, {3, "v1", false}, {0, "v1", false},
		{1, "x", false}, {3, "nightly", true}, {0, "nightly", true},
	} {
		assert.Equal(t, tc.want, repos.CanChangeTag(rules, tc.user, tc.tag), "user %d, tag %q", tc.user, tc.tag)
	}
	assert.True(t, repos.CanPushBranch(&repos.BranchProtection{EnablePush: true, EnablePushWhitelist: true,
		PushWhitelistUserIDs: []forge.ID{5}}, 5))
	assert.False(t, repos.CanPushBranch(&repos.BranchProtection{EnablePush: true, EnablePushWhitelist: true,
		PushWhitelistUsernames: []string{"ann"}}, 1), "names are never checked")
}

// F11: a push creates only names the API accepts and leaves the reserved
// namespaces alone.
func TestCheckRefUpdateNamesAndNamespaces(t *testing.T) {
	t.Parallel()
	const zero, a, b = "0000000000000000000000000000000000000000", "1111111111111111111111111111111111111111", "2222222222222222222222222222222222222222"
	for _, tc := range []struct {
		u    repos.RefUpdate
		want repos.RefRefusal
	}{
		{repos.RefUpdate{Ref: "refs/heads/HEAD", OldID: zero, NewID: a}, repos.RefBadName},
		{repos.RefUpdate{Ref: "refs/heads/-n", OldID: "", NewID: a}, repos.RefBadName},
		{repos.RefUpdate{Ref: "refs/heads/a..b", OldID: zero, NewID: a}, repos.RefBadName},
		{repos.RefUpdate{Ref: "refs/heads/refs/heads/x", OldID: zero, NewID: a}, repos.RefBadName},
		{repos.RefUpdate{Ref: "refs/tags/-n", OldID: zero, NewID: a}, repos.RefBadName},
		{repos.RefUpdate{Ref: "refs/tags/@", OldID: zero, NewID: a}, repos.RefBadName},
		{repos.RefUpdate{Ref: "refs/heads/HEAD", OldID: a, NewID: b}, repos.RefAllowed},  // exists already
		{repos.RefUpdate{Ref: "refs/heads/-n", OldID: a, NewID: zero}, repos.RefAllowed}, // deleting it
		{repos.RefUpdate{Ref: "refs/pull/1/head", OldID: zero, NewID: a}, repos.RefPull}, // the forge's
		{repos.RefUpdate{Ref: "refs/pull/1/head", OldID: a, NewID: zero}, repos.RefPull}, // also deleting
		{repos.RefUpdate{Ref: "refs/for/main", OldID: zero, NewID: a}, repos.RefAGit},    // AGit: not served
		{repos.RefUpdate{Ref: "refs/notes/commits", OldID: zero, NewID: a}, repos.RefAllowed},
		{repos.RefUpdate{Ref: "refs/heads/feature/x", OldID: zero, NewID: a}, repos.RefAllowed},
	} {
		_, why := repos.CheckRefUpdate(repos.RefRules{DefaultBranch: "main"}, 1, tc.u)
		assert.Equal(t, tc.want, why, "%+v", tc.u)
	}
	for _, tc := range []struct {
		err  repos.RefChangeError
		want string
	}{
		{repos.RefChangeError{Ref: "refs/pull/1/head", Refusal: repos.RefPull}, "Unable to get pull request 1"},
		{repos.RefChangeError{Ref: "refs/pull/x", Refusal: repos.RefPull}, "Invalid ref: refs/pull/x"},
		{repos.RefChangeError{Ref: "refs/for/main", Refusal: repos.RefAGit}, "AGit pull requests are not supported: refs/for/main"},
		{repos.RefChangeError{Ref: "refs/heads/HEAD", Refusal: repos.RefBadName}, `invalid reference name "HEAD": reserved name`},
	} {
		assert.Equal(t, tc.want, tc.err.Error())
		assert.True(t, errors.Is(&tc.err, forge.ErrForbidden))
	}
}

// F3 on the in-memory store: the rename attack fails, the renamed user
// keeps the right, the API view shows the current name.
func TestMemWhitelistFollowsUser(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newMemEnv(t)
	ann := e.user(t, "ann")
	bob := e.user(t, "bob")
	dave := e.user(t, "dave")
	e.repo(t, ann, "tools", false)
	for _, w := range []string{"bob", "dave"} {
		require.NoError(t, e.svc.AddCollaborator(ctx, ann, "ann", "tools", w, forge.AccessModeWrite))
	}
	_, err := e.svc.CreateTagProtection(ctx, ann, "ann", "tools", repos.TagProtection{NamePattern: "v*",
		WhitelistUsernames: []string{"DAVE"}})
	require.NoError(t, err)
	_, err = e.svc.CreateProtection(ctx, ann, "ann", "tools", repos.BranchProtection{RuleName: "main", EnablePush: true,
		EnablePushWhitelist: true, PushWhitelistUsernames: []string{"dave"}})
	require.NoError(t, err)
	rename := func(u *forge.User, to string) {
		require.NoError(t, e.store.Auth().Update(ctx, func(tx auth.Tx) error {
			cur, err := tx.UserByID(ctx, u.ID)
			if err != nil {
				return err
			}
			cur.Name = to
			return tx.UpdateUser(ctx, cur)
		}))
	}
	rename(dave.User, "david")
	rename(bob.User, "dave")

	const zero, a = "0000000000000000000000000000000000000000", "1111111111111111111111111111111111111111"
	tag := []repos.RefUpdate{{Ref: "refs/tags/v1", OldID: zero, NewID: a}}
	_, err = e.svc.CheckPush(ctx, bob, "ann", "tools", tag)
	assert.ErrorIs(t, err, forge.ErrForbidden, "the name's new holder has no right")
	_, err = e.svc.CheckPush(ctx, bob, "ann", "tools", []repos.RefUpdate{{Ref: "refs/heads/main", OldID: a, NewID: a}})
	assert.ErrorIs(t, err, forge.ErrForbidden)
	_, err = e.svc.CheckPush(ctx, dave, "ann", "tools", tag)
	assert.NoError(t, err, "the renamed user keeps the right")

	tags, err := e.svc.ListTagProtections(ctx, ann, "ann", "tools")
	require.NoError(t, err)
	assert.Equal(t, []string{"david"}, tags[0].WhitelistUsernames)
	p, err := e.svc.GetProtection(ctx, ann, "ann", "tools", "main")
	require.NoError(t, err)
	assert.Equal(t, []string{"david"}, p.PushWhitelistUsernames)
	assert.Equal(t, []forge.ID{dave.User.ID}, p.PushWhitelistUserIDs)

	// Editing another list keeps the ids; editing the whitelist by name
	// resolves the names again.
	yes := true
	p, err = e.svc.EditProtection(ctx, ann, "ann", "tools", "main", repos.ProtectionEdit{EnableMergeWhitelist: &yes})
	require.NoError(t, err)
	assert.Equal(t, []string{"david"}, p.PushWhitelistUsernames)
	p, err = e.svc.EditProtection(ctx, ann, "ann", "tools", "main", repos.ProtectionEdit{PushWhitelistUsernames: &[]string{"dave"}})
	require.NoError(t, err)
	assert.Equal(t, []forge.ID{bob.User.ID}, p.PushWhitelistUserIDs)
	_, err = e.svc.EditProtection(ctx, ann, "ann", "tools", "main", repos.ProtectionEdit{PushWhitelistUsernames: &[]string{"bob"}})
	assert.ErrorIs(t, err, repos.ErrWhitelistUserMissing, "bob is a free name now")
}

// TestBrokenGlobsFailClosed: gobwas/glob panics matching some names against
// a pattern with an unclosed `{`; a rule like that covers the name (it
// protects) instead of failing the push or the request.
func TestBrokenGlobsFailClosed(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ rule, name string }{
		{"v{", "v"},
		{"release/{", "release/"},
	} {
		if !repos.MatchBranchRule(tt.rule, tt.name) {
			t.Errorf("MatchBranchRule(%q, %q) = false, want true (fail closed)", tt.rule, tt.name)
		}
		if !repos.MatchTagPattern(tt.rule, tt.name) {
			t.Errorf("MatchTagPattern(%q, %q) = false, want true (fail closed)", tt.rule, tt.name)
		}
	}
}
