package forge_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
)

// TestRequirementCheck: the scope first (at the requirement's level, every
// category), then a signed-in user, then a site administrator, each with
// Forgejo's refusal.
func TestRequirementCheck(t *testing.T) {
	t.Parallel()
	user := forge.Actor{User: &forge.User{ID: 2, Name: "u", IsActive: true}}
	admin := forge.Actor{User: &forge.User{ID: 1, Name: "a", IsActive: true, IsAdmin: true}}
	scoped := func(a forge.Actor, words ...string) forge.Actor {
		sc, err := forge.ParseScope(words...)
		require.NoError(t, err)
		a.Method, a.Scoped, a.Scope = forge.AuthToken, true, sc
		return a
	}
	repoWrite := forge.Requirement{Level: forge.AccessWrite, Categories: []forge.ScopeCategory{forge.CategoryRepository}, SignedIn: true}
	adminRead := forge.Requirement{Level: forge.AccessRead, Categories: []forge.ScopeCategory{forge.CategoryAdmin}, SignedIn: true, SiteAdmin: true}
	for _, c := range []struct {
		name  string
		req   forge.Requirement
		actor forge.Actor
		kind  error
		msg   string
	}{
		{"user", repoWrite, user, nil, ""},
		{"read token for a write", repoWrite, scoped(user, "read:repository"), forge.ErrForbidden, ""},
		{"write token", repoWrite, scoped(user, "write:repository"), nil, ""},
		{"anonymous", repoWrite, forge.Actor{}, forge.ErrUnauthenticated, "token is required"},
		{"not an administrator", adminRead, user, forge.ErrForbidden, "user should be the site admin"},
		{"administrator", adminRead, admin, nil, ""},
		{"administrator's token without admin scope", adminRead, scoped(admin, "read:user"), forge.ErrForbidden, ""},
		{"no requirement", forge.Requirement{}, forge.Actor{}, nil, ""},
	} {
		err := c.req.Check(c.actor)
		if c.kind == nil {
			assert.NoError(t, err, c.name)
			continue
		}
		assert.ErrorIs(t, err, c.kind, c.name)
		if c.msg != "" && err != nil {
			assert.Equal(t, c.msg, err.Error(), c.name)
		}
	}
}

// TestRequirementConstructors: Anyone, SignedInTo and SiteAdminTo state
// Forgejo's three kinds of operation; an owner-scoped requirement asks no
// category of its own (the method asks the owner's).
func TestRequirementConstructors(t *testing.T) {
	t.Parallel()
	repo, user := forge.CategoryRepository, forge.CategoryUser
	assert.Equal(t, forge.Requirement{Level: forge.AccessRead, Categories: []forge.ScopeCategory{repo}}, forge.Anyone(forge.AccessRead, repo))
	assert.Equal(t, forge.Requirement{Level: forge.AccessWrite, Categories: []forge.ScopeCategory{user, repo}, SignedIn: true},
		forge.SignedInTo(forge.AccessWrite, user, repo))
	assert.Equal(t, forge.Requirement{Level: forge.AccessRead, Categories: []forge.ScopeCategory{forge.CategoryAdmin}, SignedIn: true, SiteAdmin: true},
		forge.SiteAdminTo(forge.AccessRead))
	sc, err := forge.ParseScope("write:misc")
	require.NoError(t, err)
	token := forge.Actor{User: &forge.User{ID: 2, Name: "u", IsActive: true}, Method: forge.AuthToken, Scoped: true, Scope: sc}
	assert.NoError(t, forge.Requirement{Level: forge.AccessWrite, OwnerScope: true, SignedIn: true}.Check(token))
	assert.ErrorIs(t, forge.SignedInTo(forge.AccessWrite, repo).Check(token), forge.ErrForbidden)
}

// TestDeclareGated: Declare marks Gate on exactly the operations Gated
// lists, whatever the probes' values.
func TestDeclareGated(t *testing.T) {
	t.Parallel()
	ops := map[string]forge.AccessLevel{"a": forge.AccessRead, "b": forge.AccessWrite, "c": forge.AccessWrite}
	got := forge.Declare(ops, func(l forge.AccessLevel) forge.Requirement { return forge.Anyone(l) }, forge.Gated(map[string]int{"b": 0, "c": 7}))
	assert.Equal(t, map[string]forge.Requirement{
		"a": {Level: forge.AccessRead}, "b": {Level: forge.AccessWrite, Gate: true}, "c": {Level: forge.AccessWrite, Gate: true},
	}, got)
	assert.Equal(t, map[string]bool{}, forge.Gated(map[string]string{}))
}
