package repos_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/forge/repos"
)

func TestMemCreateGetDelete(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newMemEnv(t)
	ann := e.user(t, "ann")
	bob := e.user(t, "bob")
	admin := e.user(t, "root", forgetest.Admin)

	v, err := e.svc.Create(ctx, ann, "", repos.CreateOptions{Name: "tools", AutoInit: true, Readme: "Default"})
	require.NoError(t, err)
	assert.Equal(t, forge.AccessModeOwner, v.Perm.Mode)
	assert.Equal(t, "ann/tools", v.Repo.FullName())

	got, err := e.svc.Get(ctx, bob, "ANN", "Tools")
	require.NoError(t, err, "names ignore case")
	assert.Equal(t, forge.AccessModeRead, got.Perm.Mode)
	assert.False(t, got.Repo.Empty, "auto-init made a commit")
	assert.Equal(t, forgetest.Epoch, got.Repo.Created, "the service clock stamps the row")

	_, err = e.svc.Create(ctx, ann, "", repos.CreateOptions{Name: "TOOLS"})
	assert.ErrorIs(t, err, forge.ErrConflict)
	assert.EqualError(t, err, "The repository with the same name already exists.")
	_, err = e.svc.Create(ctx, bob, "ann", repos.CreateOptions{Name: "x"})
	assert.ErrorIs(t, err, forge.ErrForbidden, "only admins create for others")
	_, err = e.svc.Create(ctx, admin, "ann", repos.CreateOptions{Name: "given"})
	require.NoError(t, err)
	_, err = e.svc.Create(ctx, forge.Actor{}, "", repos.CreateOptions{Name: "anon"})
	assert.ErrorIs(t, err, forge.ErrUnauthenticated)
	_, err = e.svc.Create(ctx, ann, "", repos.CreateOptions{Name: "bad name"})
	assert.ErrorIs(t, err, forge.ErrInvalid)

	secret := e.repo(t, ann, "secret", true)
	_, err = e.svc.Get(ctx, bob, "ann", "secret")
	assert.ErrorIs(t, err, forge.ErrNotFound, "private repositories are absent to others")
	_, err = e.svc.GetByID(ctx, forge.Actor{}, secret.Repo.ID)
	assert.ErrorIs(t, err, forge.ErrNotFound)
	got, err = e.svc.GetByID(ctx, admin, secret.Repo.ID)
	require.NoError(t, err)
	assert.Equal(t, forge.AccessModeOwner, got.Perm.Mode)

	list, total, err := e.svc.List(ctx, forge.Actor{}, repos.RepoFilter{}, forge.ListOptions{})
	require.NoError(t, err)
	assert.EqualValues(t, 2, total, "anonymous: the public ones")
	assert.Len(t, list, 2)
	_, total, err = e.svc.List(ctx, ann, repos.RepoFilter{}, forge.ListOptions{})
	require.NoError(t, err)
	assert.EqualValues(t, 3, total)

	assert.ErrorIs(t, e.svc.Delete(ctx, bob, "ann", "tools"), forge.ErrForbidden)
	require.NoError(t, e.svc.Delete(ctx, ann, "ann", "tools"))
	_, err = e.svc.Get(ctx, ann, "ann", "tools")
	assert.ErrorIs(t, err, forge.ErrNotFound)
	require.NoError(t, e.svc.Delete(ctx, admin, "ann", "secret"))
}

func TestMemEdit(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newMemEnv(t)
	ann := e.user(t, "ann")
	bob := e.user(t, "bob")
	e.repo(t, ann, "tools", false)
	e.repo(t, ann, "taken", false)

	name, desc, private := "Renamed", "new words", true
	e.clock.Step(3600e9)
	v, err := e.svc.Edit(ctx, ann, "ann", "tools", repos.EditOptions{Name: &name, Description: &desc, Private: &private})
	require.NoError(t, err)
	assert.Equal(t, "Renamed", v.Repo.Name)
	got, err := e.svc.Get(ctx, ann, "ann", "renamed")
	require.NoError(t, err)
	assert.Equal(t, "new words", got.Repo.Description)
	assert.True(t, got.Repo.Private)
	assert.Equal(t, e.clock.Now(), got.Repo.Updated)

	taken := "TAKEN"
	_, err = e.svc.Edit(ctx, ann, "ann", "renamed", repos.EditOptions{Name: &taken})
	assert.ErrorIs(t, err, forge.ErrConflict)
	_, err = e.svc.Edit(ctx, bob, "ann", "taken", repos.EditOptions{Description: &desc})
	assert.ErrorIs(t, err, forge.ErrForbidden, "readers cannot edit")
	bad := "no-such-style"
	_, err = e.svc.Edit(ctx, ann, "ann", "taken", repos.EditOptions{Description: &desc, DefaultMergeStyle: &bad})
	assert.ErrorIs(t, err, forge.ErrInvalid)
	got, err = e.svc.Get(ctx, ann, "ann", "taken")
	require.NoError(t, err)
	assert.Empty(t, got.Repo.Description, "a refused edit writes nothing")

	archived := true
	_, err = e.svc.Edit(ctx, ann, "ann", "taken", repos.EditOptions{Archived: &archived})
	require.NoError(t, err)
	assert.ErrorIs(t, e.svc.AddCollaborator(ctx, ann, "ann", "taken", "bob", forge.AccessModeWrite), forge.ErrArchived)
}

func TestMemTransfer(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newMemEnv(t)
	ann := e.user(t, "ann")
	bob := e.user(t, "bob")
	carl := e.user(t, "carl")
	e.repo(t, ann, "tools", false)
	e.repo(t, bob, "clash", false)
	e.repo(t, ann, "clash", false)

	_, err := e.svc.StartTransfer(ctx, bob, "ann", "tools", "bob", nil)
	assert.ErrorIs(t, err, forge.ErrForbidden)
	_, err = e.svc.StartTransfer(ctx, ann, "ann", "tools", "nobody", nil)
	assert.ErrorIs(t, err, forge.ErrNotFound)
	_, err = e.svc.StartTransfer(ctx, ann, "ann", "clash", "bob", nil)
	assert.ErrorIs(t, err, forge.ErrConflict)

	v, err := e.svc.StartTransfer(ctx, ann, "ann", "tools", "bob", nil)
	require.NoError(t, err)
	tr, err := e.svc.PendingTransfer(ctx, ann, v.Repo.ID)
	require.NoError(t, err)
	require.NotNil(t, tr)
	assert.Equal(t, "bob", tr.Recipient.Name)

	_, err = e.svc.AcceptTransfer(ctx, carl, "ann", "tools")
	assert.ErrorIs(t, err, forge.ErrForbidden, "only the recipient accepts")
	moved, err := e.svc.AcceptTransfer(ctx, bob, "ann", "tools")
	require.NoError(t, err)
	assert.Equal(t, "bob/tools", moved.Repo.FullName())
	_, err = e.svc.Get(ctx, bob, "ann", "tools")
	assert.ErrorIs(t, err, forge.ErrNotFound)
	got, err := e.svc.Get(ctx, bob, "bob", "tools")
	require.NoError(t, err)
	assert.Equal(t, forge.AccessModeOwner, got.Perm.Mode)
	tr, err = e.svc.PendingTransfer(ctx, bob, moved.Repo.ID)
	require.NoError(t, err)
	assert.Nil(t, tr, "an accepted transfer is no longer pending")

	// Rejected by the owner who started it.
	_, err = e.svc.StartTransfer(ctx, bob, "bob", "tools", "carl", nil)
	require.NoError(t, err)
	_, err = e.svc.RejectTransfer(ctx, bob, "bob", "tools")
	require.NoError(t, err)
	_, err = e.svc.AcceptTransfer(ctx, carl, "bob", "tools")
	assert.ErrorIs(t, err, forge.ErrNotFound, "nothing pending")
}
