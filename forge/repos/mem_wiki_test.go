package repos_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge/hooks"
	"github.com/hearthforge/hearth/forge/repos"
)

// TestWikiWritesAreRefMoves: each wiki write (create, edit, delete) moves
// the wiki branch through the one ref-move path: one OutboxWikiPush event
// in the outbox per write, naming the repository, the actor and the
// branch; never an OutboxPush (the repository's code did not move).
func TestWikiWritesAreRefMoves(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newMemEnv(t, func(c *repos.Config) { c.Outbox = signals{} })
	alice := e.user(t, "alice")
	e.repo(t, alice, "proj", false)
	claim := func() []*hooks.OutboxEvent {
		var evs []*hooks.OutboxEvent
		require.NoError(t, e.store.Hooks().Update(ctx, func(tx hooks.Tx) (err error) {
			evs, err = tx.ClaimOutbox(ctx, "c", e.clock.Now(), e.clock.Now().Add(time.Hour), 100)
			return err
		}))
		return evs
	}
	claim() // the creation's event
	_, _, err := e.svc.CreateWikiPage(ctx, alice, "alice", "proj", repos.WikiPageOptions{Title: "Home", Content: []byte("x")})
	require.NoError(t, err)
	_, _, err = e.svc.EditWikiPage(ctx, alice, "alice", "proj", "Home", repos.WikiPageOptions{Content: []byte("y")})
	require.NoError(t, err)
	require.NoError(t, e.svc.DeleteWikiPage(ctx, alice, "alice", "proj", "Home"))
	evs := claim()
	require.Len(t, evs, 3)
	for _, ev := range evs {
		assert.Equal(t, repos.OutboxWikiPush, ev.Kind)
		got, err := repos.UnmarshalOutbox(ev.Data)
		require.NoError(t, err)
		assert.Equal(t, "alice/proj", got.Repo.FullName())
		assert.Equal(t, "alice", got.Actor.User.Name)
		require.Len(t, got.Updates, 1)
		assert.Equal(t, "refs/heads/main", got.Updates[0].Ref)
	}
}
