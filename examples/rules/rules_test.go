package rules_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/examples/rules"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/storage/memgit"
	"github.com/hearthforge/hearth/storage/memstore"
)

// The product's pure decision, tested as a table over Hearth's rules.
func TestMayPublish(t *testing.T) {
	t.Parallel()
	owner := &forge.User{ID: 1, Name: "ann", Visibility: forge.VisibilityPublic}
	dev := &forge.User{ID: 2, Name: "dev", Visibility: forge.VisibilityPublic}
	public := &forge.Repository{ID: 10, OwnerID: 1, Name: "app"}
	private := &forge.Repository{ID: 11, OwnerID: 1, Name: "secret", Private: true}
	archived := &forge.Repository{ID: 12, OwnerID: 1, Name: "old", Archived: true}
	vOnly := []*repos.TagProtection{{NamePattern: "v*", WhitelistUserIDs: []forge.ID{owner.ID}}}

	for _, c := range []struct {
		name  string
		actor forge.Actor
		t     rules.Target
		tag   string
		ok    bool
	}{
		{"owner publishes", forgetest.ActorFor(owner), rules.Target{Repo: public, Owner: owner}, "v1", true},
		{"anonymous", forge.Actor{}, rules.Target{Repo: public, Owner: owner}, "v1", false},
		{"reader", forgetest.ActorFor(dev), rules.Target{Repo: public, Owner: owner}, "v1", false},
		{"writer", forgetest.ActorFor(dev), rules.Target{Repo: public, Owner: owner, Collab: forge.AccessModeWrite}, "v1", true},
		{"stranger to a private repo", forgetest.ActorFor(dev), rules.Target{Repo: private, Owner: owner}, "v1", false},
		{"read-only token", forgetest.TokenActor(owner, "read:repository"), rules.Target{Repo: public, Owner: owner}, "v1", false},
		{"write token", forgetest.TokenActor(owner, "write:repository"), rules.Target{Repo: public, Owner: owner}, "v1", true},
		{"archived", forgetest.ActorFor(owner), rules.Target{Repo: archived, Owner: owner}, "v1", false},
		{"protected tag, not whitelisted", forgetest.ActorFor(dev),
			rules.Target{Repo: public, Owner: owner, Collab: forge.AccessModeWrite, TagRules: vOnly}, "v1", false},
		{"protected tag, whitelisted", forgetest.ActorFor(owner), rules.Target{Repo: public, Owner: owner, TagRules: vOnly}, "v1", true},
		{"unprotected tag", forgetest.ActorFor(dev),
			rules.Target{Repo: public, Owner: owner, Collab: forge.AccessModeWrite, TagRules: vOnly}, "nightly", true},
	} {
		err := rules.MayPublish(c.actor, c.t, c.tag)
		if c.ok {
			assert.NoError(t, err, c.name)
		} else {
			assert.ErrorIs(t, err, rules.ErrNotAllowed, c.name)
		}
	}
}

func TestReleaseBranchGuarded(t *testing.T) {
	t.Parallel()
	rs := []*repos.BranchProtection{
		{RuleName: "release/*", EnablePush: true, EnablePushWhitelist: true},
		{RuleName: "release/legacy", EnablePush: true},
	}
	assert.True(t, rules.ReleaseBranchGuarded(rs, "release/2"), "pattern rule with a whitelist")
	assert.False(t, rules.ReleaseBranchGuarded(rs, "release/legacy"), "an exact rule wins over the pattern")
	assert.False(t, rules.ReleaseBranchGuarded(rs, "main"), "no rule")
}

// newOnboarding wires Hearth's services on memstore and memgit: no
// database, no git binary, no server.
func newOnboarding(t *testing.T) *rules.Onboarding {
	t.Helper()
	ctx := context.Background()
	store := memstore.New()
	git := memgit.New()
	users, err := auth.New(auth.Config{Store: store.Auth(), Password: auth.PasswordParams{Time: 1, MemoryKiB: 64, Threads: 1}})
	require.NoError(t, err)
	_, err = users.EnsureAdmin(ctx, auth.CreateUserOptions{Name: "root", Email: "root@example.com", Password: "root-password", MustChangePassword: new(bool)})
	require.NoError(t, err)
	admin, err := users.Authenticate(ctx, auth.Credentials{Basic: true, Username: "root", Password: "root-password"})
	require.NoError(t, err)
	rs, err := repos.New(repos.Config{Store: store.Repos(), Git: git})
	require.NoError(t, err)
	return &rules.Onboarding{Users: users, Repos: rs,
		Admin: admin}
}

func TestOnboard(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	o := newOnboarding(t)

	v, err := o.Onboard(ctx, "dana", "dana@example.com", "long-enough")
	require.NoError(t, err)
	assert.Equal(t, "dana/starter", v.Repo.FullName())
	assert.True(t, v.Repo.Private)

	dana, err := o.Users.User(ctx, o.Admin, "dana")
	require.NoError(t, err)
	got, err := o.Repos.Get(ctx, forgetest.ActorFor(dana), "dana", "starter")
	require.NoError(t, err)
	assert.False(t, got.Repo.Empty, "the starter repository has a first commit")
	_, err = o.Repos.Get(ctx, forge.Actor{}, "dana", "starter")
	assert.ErrorIs(t, err, forge.ErrNotFound, "private")
	rs, err := o.Repos.ListProtections(ctx, o.Admin, "dana", "starter")
	require.NoError(t, err)
	assert.True(t, rules.ReleaseBranchGuarded(rs, "main"))

	_, err = o.Onboard(ctx, "DANA", "other@example.com", "long-enough")
	assert.ErrorIs(t, err, forge.ErrConflict, "names ignore case")
	_, err = o.Onboard(ctx, "bad name", "x@example.com", "long-enough")
	assert.ErrorIs(t, err, forge.ErrInvalid)
	_, err = o.Onboard(ctx, "erin", "not-an-address", "long-enough")
	assert.ErrorIs(t, err, forge.ErrInvalid)
	_, err = o.Onboard(ctx, "erin", "erin@example.com", "short")
	assert.True(t, errors.Is(err, auth.ErrPasswordPolicy), "Hearth's password policy applies: %v", err)
	_, err = o.Users.User(ctx, o.Admin, "erin")
	assert.ErrorIs(t, err, forge.ErrNotFound, "a refused onboarding leaves no account")
}
