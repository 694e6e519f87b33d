package actions_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/actions"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/storage/memstore"
)

// fakeRepos answers RepoAccess from a table: owner/name → repository and
// the permission of each user id (anonymous: 0).
type fakeRepos map[string]struct {
	repo  *forge.Repository
	perms map[forge.ID]forge.Permission
}

func (f fakeRepos) RepoAccess(_ context.Context, actor forge.Actor, owner, name string) (*forge.Repository, forge.Permission, error) {
	e, ok := f[owner+"/"+name]
	if !ok {
		return nil, forge.Permission{}, forge.Errorf(forge.ErrNotFound, "repository does not exist")
	}
	p, ok := e.perms[actor.UserID()]
	if !ok && !e.repo.Private {
		p = forge.Permission{Mode: forge.AccessModeRead}
	} else if !ok {
		return nil, forge.Permission{}, forge.Errorf(forge.ErrNotFound, "repository does not exist")
	}
	return e.repo, p, nil
}

// fakeOrgs answers MemberRole: org name → id and owner ids.
type fakeOrgs map[string]struct {
	id     forge.ID
	owners []forge.ID
}

func (f fakeOrgs) MemberRole(_ context.Context, actor forge.Actor, org string) (*forge.User, bool, bool, error) {
	e, ok := f[org]
	if !ok {
		return nil, false, false, forge.Errorf(forge.ErrNotFound, "org does not exist")
	}
	owner := actor.IsSiteAdmin()
	for _, id := range e.owners {
		owner = owner || id == actor.UserID()
	}
	return &forge.User{ID: e.id, Name: org, Type: forge.UserTypeOrganization}, owner, owner, nil
}

type fixture struct {
	svc                 *actions.Service
	store               *memstore.Store
	owner, other, admin *forge.User
	ownerA, otherA, adm forge.Actor
	repo                actions.Target
	org                 actions.Target
	key                 []byte
	repoID              forge.ID
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	f := &fixture{store: memstore.New(), key: []byte("server-secret-key")}
	ctx := context.Background()
	f.owner, f.other, f.admin = forgetest.User("owner"), forgetest.User("other"), forgetest.User("root", forgetest.Admin)
	require.NoError(t, f.store.Auth().Update(ctx, func(tx auth.Tx) error {
		for _, u := range []*forge.User{f.owner, f.other, f.admin} {
			if err := tx.CreateUser(ctx, u, ""); err != nil {
				return err
			}
		}
		return nil
	}))
	f.ownerA, f.otherA, f.adm = forgetest.ActorFor(f.owner), forgetest.ActorFor(f.other), forgetest.ActorFor(f.admin)
	repo := &forge.Repository{OwnerID: f.owner.ID, OwnerName: "owner", Name: "r"}
	priv := &forge.Repository{OwnerID: f.owner.ID, OwnerName: "owner", Name: "p", Private: true}
	require.NoError(t, f.store.Repos().Update(ctx, func(tx repos.Tx) error {
		if err := tx.CreateRepo(ctx, repo); err != nil {
			return err
		}
		return tx.CreateRepo(ctx, priv)
	}))
	f.repoID = repo.ID
	own, adm := forge.Permission{Mode: forge.AccessModeOwner}, forge.Permission{Mode: forge.AccessModeAdmin}
	rs := fakeRepos{
		"owner/r": {repo, map[forge.ID]forge.Permission{f.owner.ID: own, f.other.ID: adm, f.admin.ID: own}},
		"owner/p": {priv, map[forge.ID]forge.Permission{f.owner.ID: own, f.admin.ID: own}},
	}
	orgs := fakeOrgs{"org": {id: 1000, owners: []forge.ID{f.owner.ID}}}
	svc, err := actions.New(actions.Config{Store: f.store.Actions(), Key: f.key, Repos: rs, Orgs: orgs, Clock: forgetest.NewClock()})
	require.NoError(t, err)
	f.svc, f.repo, f.org = svc, actions.RepoTarget("owner", "r"), actions.OrgTarget("org")
	return f
}

func TestSecretsCreateThenUpdateAndSealed(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t)
	for _, target := range []actions.Target{f.repo, f.org, actions.UserTarget()} {
		created, err := f.svc.PutSecret(ctx, f.ownerA, target, "my_secret", "line1\r\nline2")
		require.NoError(t, err)
		assert.True(t, created)
		created, err = f.svc.PutSecret(ctx, f.ownerA, target, "MY_SECRET", "second value")
		require.NoError(t, err)
		assert.False(t, created, "the name ignores case: an update")
		list, total, err := f.svc.ListSecrets(ctx, f.ownerA, target, forge.ListOptions{})
		require.NoError(t, err)
		assert.EqualValues(t, 1, total)
		require.Len(t, list, 1)
		assert.Equal(t, "MY_SECRET", list[0].Name)
		assert.Empty(t, list[0].Sealed, "lists never carry the value")
		v, err := f.svc.SecretValue(ctx, f.ownerA, target, "my_secret")
		require.NoError(t, err)
		assert.Equal(t, "second value", v)
	}
	// At rest the value is sealed.
	require.NoError(t, f.store.Actions().View(ctx, func(tx actions.Tx) error {
		s, err := tx.SecretByName(ctx, actions.Scope{RepoID: f.repoID}, "MY_SECRET")
		require.NoError(t, err)
		assert.NotContains(t, s.Sealed, "second value")
		plain, err := forge.Unseal(f.key, s.Sealed)
		require.NoError(t, err)
		assert.Equal(t, "second value", string(plain))
		return nil
	}))
	// CRLF became LF.
	created, err := f.svc.PutSecret(ctx, f.ownerA, f.repo, "CRLF", "a\r\nb")
	require.NoError(t, err)
	require.True(t, created)
	v, err := f.svc.SecretValue(ctx, f.ownerA, f.repo, "crlf")
	require.NoError(t, err)
	assert.Equal(t, "a\nb", v)

	require.NoError(t, f.svc.DeleteSecret(ctx, f.ownerA, f.repo, "my_secret"))
	err = f.svc.DeleteSecret(ctx, f.ownerA, f.repo, "my_secret")
	assert.ErrorIs(t, err, forge.ErrNotFound)
	assert.EqualError(t, err, "secret was not found [name: ]")
}

func TestSecretRefusals(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t)
	for _, tc := range []struct {
		name   string
		actor  forge.Actor
		target actions.Target
		secret string
		data   string
		kind   error
		msg    string
	}{
		{"dash", f.ownerA, f.repo, "A-B", "x", forge.ErrInvalid, "invalid secret name"},
		{"leading digit", f.ownerA, f.repo, "1A", "x", forge.ErrInvalid, "invalid secret name"},
		{"reserved", f.ownerA, f.repo, "gitea_x", "x", forge.ErrInvalid, "invalid secret name"},
		{"empty data", f.ownerA, f.repo, "A", "", forge.ErrInvalid, "data is required"},
		{"too long", f.ownerA, f.repo, "A", strings.Repeat("x", actions.MaxDataBytes+1), forge.ErrInvalid, "data too long"},
		{"repo admin collaborator", f.otherA, f.repo, "A", "x", forge.ErrForbidden, "user should be the owner of the repo"},
		{"stranger on private repo", f.otherA, actions.RepoTarget("owner", "p"), "A", "x", forge.ErrNotFound, ""},
		{"anonymous", forge.Anonymous, f.repo, "A", "x", forge.ErrUnauthenticated, "token is required"},
		{"org non-owner", f.otherA, f.org, "A", "x", forge.ErrForbidden, "Must be an organization owner"},
		{"unknown org", f.ownerA, actions.OrgTarget("nope"), "A", "x", forge.ErrNotFound, ""},
		{"wrong token scope", forgetest.TokenActor(f.owner, "read:repository"), f.repo, "A", "x", forge.ErrForbidden,
			"token does not have at least one of required scope(s): [write:repository]"},
		{"org needs organization scope", forgetest.TokenActor(f.owner, "write:repository"), f.org, "A", "x", forge.ErrForbidden,
			"token does not have at least one of required scope(s): [write:organization]"},
		{"global secrets", f.adm, actions.GlobalTarget(), "A", "x", forge.ErrInvalid, "global secrets are not supported"},
	} {
		_, err := f.svc.PutSecret(ctx, tc.actor, tc.target, tc.secret, tc.data)
		assert.ErrorIs(t, err, tc.kind, tc.name)
		if tc.msg != "" {
			assert.EqualError(t, err, tc.msg, tc.name)
		}
	}
	// Site administrators and scoped tokens with the right scope pass.
	_, err := f.svc.PutSecret(ctx, f.adm, f.repo, "ADMIN", "x")
	assert.NoError(t, err)
	_, err = f.svc.PutSecret(ctx, f.adm, f.org, "ADMIN", "x")
	assert.NoError(t, err)
	_, err = f.svc.PutSecret(ctx, forgetest.TokenActor(f.owner, "write:repository"), f.repo, "TOK", "x")
	assert.NoError(t, err)
	// A user's secrets are their own.
	_, err = f.svc.PutSecret(ctx, f.otherA, actions.UserTarget(), "MINE", "x")
	require.NoError(t, err)
	list, _, err := f.svc.ListSecrets(ctx, f.ownerA, actions.UserTarget(), forge.ListOptions{})
	require.NoError(t, err)
	assert.Empty(t, list)
	// Without a key nothing is stored in the clear.
	noKey, err := actions.New(actions.Config{Store: f.store.Actions(), Repos: fakeRepos{}})
	require.NoError(t, err)
	_, err = noKey.PutSecret(ctx, f.ownerA, actions.UserTarget(), "K", "x")
	assert.ErrorIs(t, err, forge.ErrPrecondition)
}

func TestVariables(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t)
	v, err := f.svc.CreateVariable(ctx, f.ownerA, f.repo, "my_var", "a\r\nb")
	require.NoError(t, err)
	assert.Equal(t, "MY_VAR", v.Name)
	assert.Equal(t, "a\nb", v.Data)
	_, err = f.svc.CreateVariable(ctx, f.ownerA, f.repo, "My_Var", "x")
	assert.ErrorIs(t, err, forge.ErrConflict)
	assert.EqualError(t, err, "variable name My_Var already exists")
	_, err = f.svc.CreateVariable(ctx, f.ownerA, f.repo, "CI_X", "x")
	assert.Equal(t, actions.ErrCIName, err)
	_, err = f.svc.CreateVariable(ctx, f.ownerA, f.repo, "GITHUB_X", "x")
	assert.Equal(t, actions.ErrInvalidName, err)

	_, err = f.svc.UpdateVariable(ctx, f.ownerA, f.repo, "nope", "", "x")
	assert.Equal(t, actions.ErrVariableNotFound, err)
	v, err = f.svc.UpdateVariable(ctx, f.ownerA, f.repo, "my_var", "renamed", "new")
	require.NoError(t, err)
	assert.Equal(t, "RENAMED", v.Name)
	got, err := f.svc.Variable(ctx, f.ownerA, f.repo, "renamed")
	require.NoError(t, err)
	assert.Equal(t, "new", got.Data)
	_, err = f.svc.CreateVariable(ctx, f.ownerA, f.repo, "OTHER", "o")
	require.NoError(t, err)
	_, err = f.svc.UpdateVariable(ctx, f.ownerA, f.repo, "other", "renamed", "o")
	assert.ErrorIs(t, err, forge.ErrConflict)

	list, total, err := f.svc.ListVariables(ctx, f.ownerA, f.repo, forge.ListOptions{})
	require.NoError(t, err)
	assert.EqualValues(t, 2, total)
	assert.Equal(t, []string{"OTHER", "RENAMED"}, []string{list[0].Name, list[1].Name})

	assert.Equal(t, actions.ErrInvalidName, f.svc.DeleteVariable(ctx, f.ownerA, f.repo, "a-b"))
	require.NoError(t, f.svc.DeleteVariable(ctx, f.ownerA, f.repo, "renamed"))
	assert.Equal(t, actions.ErrVariableNotFound, f.svc.DeleteVariable(ctx, f.ownerA, f.repo, "renamed"))
	_, err = f.svc.Variable(ctx, f.otherA, f.repo, "other")
	assert.Equal(t, actions.ErrNotRepoOwner, err)
}

func TestRegistrationTokensPerLevelStableUntilReset(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t)
	levels := []struct {
		actor  forge.Actor
		target actions.Target
	}{{f.ownerA, f.repo}, {f.ownerA, f.org}, {f.ownerA, actions.UserTarget()}, {f.adm, actions.GlobalTarget()}}
	seen := map[string]bool{}
	for _, l := range levels {
		a, err := f.svc.RegistrationToken(ctx, l.actor, l.target)
		require.NoError(t, err)
		assert.Len(t, a, 40)
		b, err := f.svc.RegistrationToken(ctx, l.actor, l.target)
		require.NoError(t, err)
		assert.Equal(t, a, b, "stable until reset")
		assert.False(t, seen[a], "each level has its own token")
		seen[a] = true
		c, err := f.svc.ResetRegistrationToken(ctx, l.actor, l.target)
		require.NoError(t, err)
		assert.NotEqual(t, a, c)
		d, err := f.svc.RegistrationToken(ctx, l.actor, l.target)
		require.NoError(t, err)
		assert.Equal(t, c, d)
	}
	_, err := f.svc.RegistrationToken(ctx, f.ownerA, actions.GlobalTarget())
	assert.ErrorIs(t, err, forge.ErrForbidden)
	_, err = f.svc.RegistrationToken(ctx, f.otherA, f.repo)
	assert.Equal(t, actions.ErrNotRepoOwner, err)
	_, err = f.svc.RegistrationToken(ctx, forge.Anonymous, actions.UserTarget())
	assert.ErrorIs(t, err, forge.ErrUnauthenticated)
}

func TestRunners(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t)
	rr, tok, err := f.svc.RegisterRunner(ctx, f.ownerA, f.repo, actions.RegisterRunner{Name: "r1", Description: "d"})
	require.NoError(t, err)
	assert.Len(t, tok, 40)
	assert.Equal(t, actions.HashRunnerToken(tok), rr.TokenHash)
	assert.Len(t, rr.UUID, 36)
	ur, _, err := f.svc.RegisterRunner(ctx, f.ownerA, actions.UserTarget(), actions.RegisterRunner{Name: "u1", Ephemeral: true})
	require.NoError(t, err)
	gr, _, err := f.svc.RegisterRunner(ctx, f.adm, actions.GlobalTarget(), actions.RegisterRunner{Name: "g1"})
	require.NoError(t, err)
	_, _, err = f.svc.RegisterRunner(ctx, f.ownerA, f.repo, actions.RegisterRunner{})
	assert.ErrorIs(t, err, forge.ErrInvalid)

	list, total, err := f.svc.ListRunners(ctx, f.ownerA, f.repo, false, forge.ListOptions{})
	require.NoError(t, err)
	assert.EqualValues(t, 1, total)
	assert.Equal(t, rr.ID, list[0].ID)
	list, total, err = f.svc.ListRunners(ctx, f.ownerA, f.repo, true, forge.ListOptions{})
	require.NoError(t, err)
	assert.EqualValues(t, 3, total, "the repository sees its owner's and the global runners")
	list, total, err = f.svc.ListRunners(ctx, f.adm, actions.GlobalTarget(), false, forge.ListOptions{})
	require.NoError(t, err)
	assert.EqualValues(t, 3, total)

	got, err := f.svc.Runner(ctx, f.ownerA, f.repo, gr.ID)
	require.NoError(t, err)
	assert.Equal(t, "g1", got.Name)
	_, err = f.svc.Runner(ctx, f.ownerA, actions.UserTarget(), rr.ID)
	assert.Equal(t, actions.ErrRunnerNotFound, err)
	err = f.svc.DeleteRunner(ctx, f.ownerA, f.repo, gr.ID)
	assert.EqualError(t, err, "No permission to delete this runner")
	require.NoError(t, f.svc.DeleteRunner(ctx, f.ownerA, actions.UserTarget(), ur.ID))
	require.NoError(t, f.svc.DeleteRunner(ctx, f.adm, actions.GlobalTarget(), rr.ID))
	assert.Equal(t, actions.ErrRunnerNotFound, f.svc.DeleteRunner(ctx, f.adm, actions.GlobalTarget(), rr.ID))
	_ = list
}

func TestDispatchRecordsRun(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t)
	f2 := f
	run, err := f2.svc.DispatchWorkflow(ctx, f2.ownerA, "owner", "r", "ci.yml", actions.Dispatch{Ref: "main"})
	require.NoError(t, err)
	assert.Equal(t, int64(1), run.Index)
	assert.Equal(t, actions.StatusWaiting, run.Status)
	assert.Equal(t, "workflow_dispatch", run.Event)
	run2, err := f2.svc.DispatchWorkflow(ctx, f2.ownerA, "owner", "r", "ci.yml", actions.Dispatch{Ref: "main"})
	require.NoError(t, err)
	assert.Equal(t, int64(2), run2.Index)
	_, err = f2.svc.DispatchWorkflow(ctx, f2.ownerA, "owner", "r", "ci.yml", actions.Dispatch{})
	assert.EqualError(t, err, "ref is required parameter")
	_, err = f2.svc.DispatchWorkflow(ctx, forge.Anonymous, "owner", "r", "ci.yml", actions.Dispatch{Ref: "main"})
	assert.Error(t, err, "anonymous readers may not dispatch")

	list, total, _, err := f2.svc.ListRuns(ctx, forge.Anonymous, "owner", "r", actions.RunFilter{}, forge.ListOptions{})
	require.NoError(t, err, "a public repository's runs are readable")
	assert.EqualValues(t, 2, total)
	assert.Equal(t, run2.ID, list[0].ID)
	got, _, err := f2.svc.Run(ctx, f2.otherA, "owner", "r", run.ID)
	require.NoError(t, err)
	assert.Equal(t, "ci.yml", got.WorkflowID)
	_, _, err = f2.svc.Run(ctx, f2.otherA, "owner", "r", 999)
	assert.Equal(t, actions.ErrRunNotFound, err)
	_, _, _, err = f.svc.ListRuns(ctx, f.otherA, "owner", "p", actions.RunFilter{}, forge.ListOptions{})
	assert.ErrorIs(t, err, forge.ErrNotFound, "strangers do not see a private repository")
	tasks, n, err := f2.svc.ListTasks(ctx, f2.ownerA, "owner", "r", forge.ListOptions{})
	require.NoError(t, err)
	assert.Zero(t, n)
	assert.NotNil(t, tasks)
}
