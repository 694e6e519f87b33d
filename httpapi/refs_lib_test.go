package httpapi_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/storage/dbtest"
	"github.com/hearthforge/hearth/storage/gitstore"
)

// libRepos is a repository service on SQLite and real git with alice (the
// owner of alice/proj) and bob (a writer), for tests through the library
// API alone.
func libRepos(t *testing.T) (svc *repos.Service, alice, bob forge.Actor) {
	t.Helper()
	ctx := context.Background()
	db := dbtest.Open(t, ":memory:")
	clock := forgetest.NewClock()
	as, err := auth.New(auth.Config{Store: db.Auth(), Clock: clock, Password: auth.PasswordParams{Time: 1, MemoryKiB: 64, Threads: 1},
		SecretKey: []byte("refs-lib-test")})
	require.NoError(t, err)
	no := false
	_, err = as.EnsureAdmin(ctx, auth.CreateUserOptions{Name: "root", Email: "root@example.com", Password: "rootpassword", MustChangePassword: &no})
	require.NoError(t, err)
	rootActor, err := as.Authenticate(ctx, auth.Credentials{Basic: true, Username: "root", Password: "rootpassword"})
	require.NoError(t, err)
	user := func(name string) forge.Actor {
		u, err := as.CreateUser(ctx, rootActor, auth.CreateUserOptions{Name: name, Email: name + "@example.com", Password: name + "-password", MustChangePassword: &no})
		require.NoError(t, err)
		return forge.Actor{User: u, Method: forge.AuthPassword}
	}
	alice, bob = user("alice"), user("bob")
	git, err := gitstore.Open(t.TempDir())
	require.NoError(t, err)
	t.Cleanup(func() { git.Close() })
	svc, err = repos.New(repos.Config{Store: db.Repos(), Git: git, Clock: clock})
	require.NoError(t, err)
	_, err = svc.Create(ctx, alice, "", repos.CreateOptions{Name: "proj", AutoInit: true})
	require.NoError(t, err)
	require.NoError(t, svc.AddCollaborator(ctx, alice, "alice", "proj", "bob", forge.AccessModeWrite))
	yes := true
	_, err = svc.CreateProtection(ctx, alice, "alice", "proj", repos.BranchProtection{RuleName: "main", EnablePush: true})
	require.NoError(t, err)
	p := repos.BranchProtection{RuleName: "release/*"}
	repos.ProtectionEdit{EnablePush: &yes, EnablePushWhitelist: &yes, PushWhitelistUsernames: &[]string{"alice"}}.Apply(&p)
	_, err = svc.CreateProtection(ctx, alice, "alice", "proj", p)
	require.NoError(t, err)
	_, err = svc.CreateTagProtection(ctx, alice, "alice", "proj", repos.TagProtection{NamePattern: "v*", WhitelistUsernames: []string{"alice"}})
	require.NoError(t, err)
	return svc, alice, bob
}

// Issue 8 items 3 and 4 through the library: a push gets the same check as
// the API (CheckRefUpdate): no protected branch is created by a writer the
// rule refuses, deleted, or moved except by fast-forward.
func TestCheckPushUsesTheOneRule(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	svc, alice, bob := libRepos(t)
	_, main, err := svc.GetBranch(ctx, bob, "alice", "proj", "main")
	require.NoError(t, err)
	head := main.Commit.ID
	const zero = "0000000000000000000000000000000000000000"

	for _, tc := range []struct {
		name  string
		actor forge.Actor
		u     repos.RefUpdate
		why   repos.RefRefusal
	}{
		{"create protected by writer", bob, repos.RefUpdate{Ref: "refs/heads/release/1", OldID: zero, NewID: head}, repos.RefBranchPush},
		{"delete protected", alice, repos.RefUpdate{Ref: "refs/heads/release/1", OldID: head, NewID: zero}, repos.RefBranchDeletion},
		{"delete default", alice, repos.RefUpdate{Ref: "refs/heads/main", OldID: head, NewID: zero}, repos.RefDefaultBranch},
		{"protected tag", bob, repos.RefUpdate{Ref: "refs/tags/v1", OldID: zero, NewID: head}, repos.RefTag},
	} {
		_, err := svc.CheckPush(ctx, tc.actor, "alice", "proj", []repos.RefUpdate{tc.u})
		var rc *repos.RefChangeError
		if assert.True(t, errors.As(err, &rc), "%s: %v", tc.name, err) {
			assert.Equal(t, tc.why, rc.Refusal, tc.name)
			assert.ErrorIs(t, err, forge.ErrForbidden)
		}
	}
	plan, err := svc.CheckPush(ctx, bob, "alice", "proj", []repos.RefUpdate{
		{Ref: "refs/heads/main", OldID: head, NewID: head},
		{Ref: "refs/heads/dev", OldID: zero, NewID: head},
		{Ref: "refs/tags/nightly", OldID: zero, NewID: head},
	})
	require.NoError(t, err)
	assert.Equal(t, []string{"refs/heads/main"}, plan.FastForwardOnly, "protected branches only fast-forward")
	plan, err = svc.CheckPush(ctx, alice, "alice", "proj", []repos.RefUpdate{{Ref: "refs/heads/release/1", OldID: zero, NewID: head}})
	require.NoError(t, err)
	assert.Empty(t, plan.FastForwardOnly, "a new branch has nothing to fast-forward from")

	// The API paths refuse what the push refuses.
	_, _, err = svc.CreateBranch(ctx, bob, "alice", "proj", "release/1", "")
	assert.ErrorIs(t, err, forge.ErrForbidden)
	_, _, err = svc.CreateTag(ctx, bob, "alice", "proj", "v1", "", "")
	assert.ErrorIs(t, err, forge.ErrInvalid) // Forgejo's 422
	_, _, err = svc.CreateRelease(ctx, bob, "alice", "proj", repos.ReleaseOptions{TagName: ptr("v1")})
	assert.ErrorIs(t, err, forge.ErrInvalid)
}

// Issue 8 item 21 through the library: ListTags and GetTag return git's
// %(contents) of each tag (the message after git's cleanup; a lightweight
// tag's commit message), the same in the list as in get.
func TestListTagsMessages(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	svc, alice, _ := libRepos(t)
	_, _, err := svc.CreateTag(ctx, alice, "alice", "proj", "annotated", "", "line one\n# kept\n")
	require.NoError(t, err)
	_, light, err := svc.CreateTag(ctx, alice, "alice", "proj", "light", "", "")
	require.NoError(t, err)
	_, commit, err := svc.Commit(ctx, alice, "alice", "proj", light.Commit, false)
	require.NoError(t, err)
	require.NotEmpty(t, commit.Message)
	_, tags, total, err := svc.ListTags(ctx, alice, "alice", "proj", forge.ListOptions{Page: 1, Limit: 10})
	require.NoError(t, err)
	assert.EqualValues(t, 2, total)
	msgs := map[string]string{}
	for _, tg := range tags {
		msgs[tg.Name] = tg.Message
	}
	assert.Equal(t, map[string]string{"annotated": "line one\n", "light": commit.Message}, msgs)
	for name, want := range msgs {
		_, tg, err := svc.GetTag(ctx, alice, "alice", "proj", name)
		require.NoError(t, err)
		assert.Equal(t, want, tg.Message, name)
	}
	_, tags, total, err = svc.ListTags(ctx, alice, "alice", "proj", forge.ListOptions{Page: 1 << 62, Limit: 50})
	require.NoError(t, err)
	assert.Empty(t, tags, "a huge page is past the end, not a panic")
	assert.EqualValues(t, 2, total)
}

func ptr[T any](v T) *T { return &v }

// Issue 9 §1 through the library: the ref, protection and release methods
// check the actor's scope and account state themselves.
func TestRefMethodsCheckTheActor(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	svc, alice, _ := libRepos(t)
	readOnly := forgetest.TokenActor(alice.User, "read:repository")
	inactive := *alice.User
	inactive.IsActive = false
	for name, actor := range map[string]forge.Actor{"read-only token": readOnly, "inactive": {User: &inactive, Method: forge.AuthPassword}} {
		_, _, err := svc.CreateBranch(ctx, actor, "alice", "proj", "x", "")
		assert.ErrorIs(t, err, forge.ErrForbidden, name)
		_, _, err = svc.CreateTag(ctx, actor, "alice", "proj", "x", "", "")
		assert.ErrorIs(t, err, forge.ErrForbidden, name)
		_, _, err = svc.CreateRelease(ctx, actor, "alice", "proj", repos.ReleaseOptions{TagName: ptr("x")})
		assert.ErrorIs(t, err, forge.ErrForbidden, name)
		_, err = svc.EditProtection(ctx, actor, "alice", "proj", "main", repos.ProtectionEdit{EnablePush: ptr(false)})
		assert.ErrorIs(t, err, forge.ErrForbidden, name)
		_, err = svc.EditTagProtection(ctx, actor, "alice", "proj", 1, repos.TagProtectionEdit{NamePattern: ptr("*")})
		assert.ErrorIs(t, err, forge.ErrForbidden, name)
		assert.ErrorIs(t, svc.DeleteProtection(ctx, actor, "alice", "proj", "main"), forge.ErrForbidden, name)
	}
	_, _, err := svc.Branches(ctx, readOnly, "alice", "proj")
	assert.NoError(t, err, "reading needs only read:repository")
	rule, err := svc.GetProtection(ctx, alice, "alice", "proj", "main")
	require.NoError(t, err)
	assert.True(t, rule.EnablePush, "nothing changed")
}
