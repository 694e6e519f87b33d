package repos_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

func TestMemBranchProtection(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newMemEnv(t)
	ann := e.user(t, "ann")
	bob := e.user(t, "bob")
	carl := e.user(t, "carl")
	v := e.repo(t, ann, "tools", false)
	require.NoError(t, e.svc.AddCollaborator(ctx, ann, "ann", "tools", "bob", forge.AccessModeWrite))
	require.NoError(t, e.svc.AddCollaborator(ctx, ann, "ann", "tools", "carl", forge.AccessModeWrite))

	_, err := e.svc.CreateProtection(ctx, bob, "ann", "tools", repos.BranchProtection{RuleName: "main"})
	assert.ErrorIs(t, err, forge.ErrForbidden, "writers do not manage protection")
	_, err = e.svc.CreateProtection(ctx, ann, "ann", "tools", repos.BranchProtection{})
	assert.ErrorIs(t, err, repos.ErrRuleNameEmpty)
	_, err = e.svc.CreateProtection(ctx, ann, "ann", "tools", repos.BranchProtection{RuleName: "main",
		EnablePush: true, EnablePushWhitelist: true, PushWhitelistUsernames: []string{"ghost"}})
	assert.ErrorIs(t, err, forge.ErrInvalid, "whitelisted users must exist")

	p, err := e.svc.CreateProtection(ctx, ann, "ann", "tools", repos.BranchProtection{RuleName: "main",
		EnablePush: true, EnablePushWhitelist: true, PushWhitelistUsernames: []string{"bob"}})
	require.NoError(t, err)
	assert.Equal(t, v.Repo.ID, p.RepoID)
	_, err = e.svc.CreateProtection(ctx, ann, "ann", "tools", repos.BranchProtection{RuleName: "main"})
	assert.ErrorIs(t, err, forge.ErrConflict)

	zero := strings.Repeat("0", 40)
	push := func(a forge.Actor, ref, old, new string) error {
		_, err := e.svc.CheckPush(ctx, a, "ann", "tools", []repos.RefUpdate{{Ref: ref, OldID: old, NewID: new}})
		return err
	}
	oid := strings.Repeat("a", 40)
	assert.NoError(t, push(bob, "refs/heads/main", zero, oid), "whitelisted")
	assert.ErrorIs(t, push(carl, "refs/heads/main", zero, oid), forge.ErrForbidden, "not whitelisted")
	assert.NoError(t, push(carl, "refs/heads/topic", zero, oid), "unprotected branch")
	assert.ErrorIs(t, push(bob, "refs/heads/main", oid, zero), forge.ErrForbidden, "protected branches are not deleted")

	got, err := e.svc.EditProtection(ctx, ann, "ann", "tools", "main", repos.ProtectionEdit{
		PushWhitelistUsernames: &[]string{"carl"},
		RequiredApprovals:      new(int64(2)),
	})
	require.NoError(t, err)
	assert.EqualValues(t, 2, got.RequiredApprovals)
	assert.NoError(t, push(carl, "refs/heads/main", zero, oid), "the edit applies at once")
	assert.ErrorIs(t, push(bob, "refs/heads/main", zero, oid), forge.ErrForbidden)

	list, err := e.svc.ListProtections(ctx, ann, "ann", "tools")
	require.NoError(t, err)
	require.Len(t, list, 1)
	assert.Equal(t, []string{"carl"}, list[0].PushWhitelistUsernames)
	_, err = e.svc.GetProtection(ctx, bob, "ann", "tools", "main")
	assert.ErrorIs(t, err, forge.ErrForbidden)

	require.NoError(t, e.svc.DeleteProtection(ctx, ann, "ann", "tools", "main"))
	assert.ErrorIs(t, e.svc.DeleteProtection(ctx, ann, "ann", "tools", "main"), forge.ErrNotFound)
	_, err = e.svc.GetProtection(ctx, ann, "ann", "tools", "main")
	assert.ErrorIs(t, err, forge.ErrNotFound)
	assert.NoError(t, push(bob, "refs/heads/main", zero, oid), "unprotected again")
}

func TestMemTagProtection(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newMemEnv(t)
	ann := e.user(t, "ann")
	bob := e.user(t, "bob")
	e.repo(t, ann, "tools", false)
	require.NoError(t, e.svc.AddCollaborator(ctx, ann, "ann", "tools", "bob", forge.AccessModeWrite))

	_, err := e.svc.CreateTagProtection(ctx, ann, "ann", "tools", repos.TagProtection{NamePattern: " "})
	assert.ErrorIs(t, err, forge.ErrInvalid)
	p, err := e.svc.CreateTagProtection(ctx, ann, "ann", "tools", repos.TagProtection{NamePattern: "v*", WhitelistUsernames: []string{"ann"}})
	require.NoError(t, err)

	zero, oid := strings.Repeat("0", 40), strings.Repeat("b", 40)
	push := func(a forge.Actor, ref string) error {
		_, err := e.svc.CheckPush(ctx, a, "ann", "tools", []repos.RefUpdate{{Ref: ref, OldID: zero, NewID: oid}})
		return err
	}
	assert.ErrorIs(t, push(bob, "refs/tags/v1.0"), forge.ErrForbidden)
	assert.NoError(t, push(ann, "refs/tags/v1.0"))
	assert.NoError(t, push(bob, "refs/tags/nightly"))

	_, err = e.svc.EditTagProtection(ctx, ann, "ann", "tools", p.ID, repos.TagProtectionEdit{
		WhitelistUsernames: &[]string{"ann", "bob"},
	})
	require.NoError(t, err)
	assert.NoError(t, push(bob, "refs/tags/v1.0"))
	got, err := e.svc.GetTagProtection(ctx, ann, "ann", "tools", p.ID)
	require.NoError(t, err)
	assert.Equal(t, []string{"ann", "bob"}, got.WhitelistUsernames)
	list, err := e.svc.ListTagProtections(ctx, ann, "ann", "tools")
	require.NoError(t, err)
	assert.Len(t, list, 1)

	require.NoError(t, e.svc.DeleteTagProtection(ctx, ann, "ann", "tools", p.ID))
	assert.ErrorIs(t, e.svc.DeleteTagProtection(ctx, ann, "ann", "tools", p.ID), forge.ErrNotFound)
}
