package repos_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

// pushLog records what push listeners are told.
type pushLog struct {
	mu     sync.Mutex
	pushes []string
}

func (l *pushLog) AfterPush(_ context.Context, actor forge.Actor, r *forge.Repository, _ []repos.RefUpdate) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.pushes = append(l.pushes, actor.User.Name+" "+r.FullName())
}

func (l *pushLog) list() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.pushes...)
}

// TestAfterPushNeedsWriteAccess: AfterPush changes nothing and tells no
// listener for an actor who could not have pushed.
func TestAfterPushNeedsWriteAccess(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	log := &pushLog{}
	e := newMemEnv(t, func(c *repos.Config) { c.PushListeners = []repos.PushListener{log} })
	alice := e.user(t, "alice")
	reader := e.user(t, "reader")
	stranger := e.user(t, "stranger")
	secret := e.repo(t, alice, "secret", true)
	pub := e.repo(t, alice, "pub", false)
	require.NoError(t, e.svc.AddCollaborator(ctx, alice, "alice", "pub", "reader", forge.AccessModeRead))
	archived := e.repo(t, alice, "old", false)
	yes := true
	_, err := e.svc.Edit(ctx, alice, "alice", "old", repos.EditOptions{Archived: &yes})
	require.NoError(t, err)
	e.clock.Step(time.Hour)
	update := []repos.RefUpdate{{Ref: "refs/heads/main", OldID: "", NewID: "0123456789012345678901234567890123456789"}}

	for _, c := range []struct {
		name  string
		actor forge.Actor
		repo  forge.ID
		want  error
	}{
		{"anonymous, private", forge.Actor{}, secret.Repo.ID, forge.ErrNotFound},
		{"anonymous, public", forge.Actor{}, pub.Repo.ID, forge.ErrForbidden},
		{"owner, archived", alice, archived.Repo.ID, forge.ErrArchived},
		{"stranger, private", stranger, secret.Repo.ID, forge.ErrNotFound},
		{"reader, public", reader, pub.Repo.ID, forge.ErrForbidden},
		{"stranger, public", stranger, pub.Repo.ID, forge.ErrForbidden},
		{"read-only token of the owner", token(t, alice, "read:repository"), secret.Repo.ID, forge.ErrForbidden},
		{"missing", alice, 9999, forge.ErrNotFound},
	} {
		err := e.svc.AfterPush(ctx, c.actor, c.repo, update)
		assert.ErrorIs(t, err, c.want, c.name)
	}
	assert.Empty(t, log.list(), "no listener was told")
	for _, r := range []*repos.View{secret, pub, archived} {
		now, err := e.svc.GetByID(ctx, alice, r.Repo.ID)
		require.NoError(t, err)
		assert.True(t, now.Repo.Updated.Before(e.clock.Now()), "%s: not touched", r.Repo.Name)
	}

	require.NoError(t, e.svc.AfterPush(ctx, alice, secret.Repo.ID, update))
	assert.Equal(t, []string{"alice alice/secret"}, log.list())
	now, err := e.svc.GetByID(ctx, alice, secret.Repo.ID)
	require.NoError(t, err)
	assert.True(t, now.Repo.Updated.After(secret.Repo.Updated), "the owner's push refreshes it")
}

// TestAfterMirrorSyncNamesTheOwner: a mirror sync recorded by the system
// tells the listeners that the repository's owner pushed, as Forgejo names
// the owner; anyone but a site administrator is refused.
func TestAfterMirrorSyncNamesTheOwner(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	log := &pushLog{}
	e := newMemEnv(t, func(c *repos.Config) { c.PushListeners = []repos.PushListener{log} })
	alice := e.user(t, "alice")
	mirrored := e.repo(t, alice, "mirrored", true)
	system := forge.Actor{User: &forge.User{ID: -1, Name: "mirror-scheduler", IsAdmin: true, IsActive: true}}
	update := []repos.RefUpdate{{Ref: "refs/heads/main", OldID: "", NewID: "0123456789012345678901234567890123456789"}}

	assert.ErrorIs(t, e.svc.AfterMirrorSync(ctx, e.user(t, "stranger"), mirrored.Repo.ID, update), forge.ErrNotFound)
	assert.Empty(t, log.list())
	require.NoError(t, e.svc.AfterMirrorSync(ctx, system, mirrored.Repo.ID, update))
	assert.Equal(t, []string{"alice alice/mirrored"}, log.list())
}
