package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/orgs"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/issues"
)

// The conformance cases of user blocks: forge/orgs writes them, repos.Tx
// and issues.BlockReader read them.

// isBlocked reads IsBlocked in a View.
func isBlocked(t *testing.T, b Backend, blocker, user forge.ID) bool {
	t.Helper()
	return viewValue(t, b.Orgs(), func(ctx context.Context, tx orgs.Tx) (bool, error) { return tx.IsBlocked(ctx, blocker, user) })
}

// listBlocked returns one page of ListBlocked and the total.
func listBlocked(t *testing.T, b Backend, blocker forge.ID, o forge.ListOptions) ([]forge.Block, int64) {
	t.Helper()
	return viewPage(t, b.Orgs(), func(ctx context.Context, tx orgs.Tx) ([]forge.Block, int64, error) {
		return tx.ListBlocked(ctx, blocker, o)
	})
}

// testBlocks: blocks are directed, listed newest first, kept to the second
// in UTC, and a block recorded again keeps its first time.
func testBlocks(t *testing.T, b Backend) {
	ctx := context.Background()
	s := b.Orgs()
	shield := newOrg(t, b, "Shield")
	ann, ben, cat := newUser(t, b, "ann"), newUser(t, b, "Ben"),
		newUser(t, b, "cat")
	t0 := time.Date(2024, 6, 7, 8, 9, 10, 0, time.FixedZone("CEST", 2*3600))
	blocks := []forge.Block{
		{BlockerID: shield.ID, UserID: ann.ID, Created: t0},
		{BlockerID: shield.ID, UserID: cat.ID, Created: t0.Add(2 * time.Hour)},
		{BlockerID: shield.ID, UserID: ben.ID, Created: t0.Add(time.Hour)},
		{BlockerID: ann.ID, UserID: ben.ID, Created: t0},
		{BlockerID: shield.ID, UserID: ann.ID, Created: t0.Add(5 * time.Hour)}, // again: no error, the first time stays
	}
	orgUpdate(t, s, func(tx orgs.Tx) error {
		for _, bl := range blocks {
			if err := tx.SetBlock(ctx, bl); err != nil {
				return err
			}
		}
		return nil
	})
	for name, bl := range map[string]forge.Block{
		"no user": {BlockerID: shield.ID, UserID: 9999, Created: t0}, "no blocker": {BlockerID: 9999, UserID: ann.ID, Created: t0},
	} {
		err := s.Update(ctx, func(tx orgs.Tx) error { return tx.SetBlock(ctx, bl) })
		assert.ErrorIs(t, err, forge.ErrNotFound, "SetBlock with %s", name)
	}

	assert.True(t, isBlocked(t, b, shield.ID, ann.ID))
	assert.False(t, isBlocked(t, b, ann.ID, shield.ID), "blocks are directed")
	assert.True(t, isBlocked(t, b, ann.ID, ben.ID))
	assert.False(t, isBlocked(t, b, ben.ID, ann.ID))
	assert.False(t, isBlocked(t, b, 9999, ann.ID))

	list, total := listBlocked(t, b, shield.ID, forge.ListOptions{Page: 1, Limit: 2})
	assert.EqualValues(t, 3, total, "blocked twice, listed once")
	assert.Equal(t, []forge.Block{
		{BlockerID: shield.ID, UserID: cat.ID, Created: t0.Add(2 * time.Hour).UTC()},
		{BlockerID: shield.ID, UserID: ben.ID, Created: t0.Add(time.Hour).UTC()},
	}, list, "newest first, times in UTC")
	list, _ = listBlocked(t, b, shield.ID, forge.ListOptions{Page: 2, Limit: 2})
	assert.Equal(t, []forge.Block{{BlockerID: shield.ID, UserID: ann.ID, Created: t0.UTC()}}, list)
	list, total = listBlocked(t, b, ben.ID, forge.ListOptions{})
	assert.Empty(t, list)
	assert.Zero(t, total)

	orgUpdate(t, s, func(tx orgs.Tx) error { return tx.DeleteBlock(ctx, shield.ID, ann.ID) })
	assert.False(t, isBlocked(t, b, shield.ID, ann.ID))
	err := s.Update(ctx, func(tx orgs.Tx) error { return tx.DeleteBlock(ctx, shield.ID, ann.ID) })
	assert.ErrorIs(t, err, forge.ErrNotFound, "unblocking twice")
	err = s.Update(ctx, func(tx orgs.Tx) error { return tx.DeleteBlock(ctx, ben.ID, ann.ID) })
	assert.ErrorIs(t, err, forge.ErrNotFound, "a block the other way round")
	_, total = listBlocked(t, b, shield.ID, forge.ListOptions{})
	assert.EqualValues(t, 2, total)
	t.Run("DropBlocked", func(t *testing.T) { testDropBlocked(t, b) })
}

// testDropBlocked: a block's cascade takes the user's
// collaborations and watches on the blocker's repositories (any status),
// with the watch counts, and the transfers the user offered the blocker,
// and nothing else.
func testDropBlocked(t *testing.T, b Backend) {
	ctx := context.Background()
	shield, other := newOrg(t, b, "Shield2"), newOrg(t, b, "Other2")
	troll, fan := newUser(t, b, "troll"), newUser(t, b, "fan")
	mine, pending := orgRepo(t, b, shield, "mine", forge.RepoReady), orgRepo(t, b, shield, "pending", forge.RepoCreating)
	theirs := orgRepo(t, b, other, "theirs", forge.RepoReady)
	at := time.Date(2024, 6, 7, 8, 9, 10, 0, time.UTC)
	repoUpdate(t, b.Repos(), func(tx repos.Tx) error {
		for _, r := range []*forge.Repository{mine, pending, theirs} {
			for _, u := range []*forge.User{troll, fan} {
				if err := tx.SetCollaborator(ctx, r.ID, u.ID, forge.AccessModeWrite); err != nil {
					return err
				}
				if err := tx.SetWatch(ctx, r.ID, u.ID, repos.WatchNormal, at); err != nil {
					return err
				}
			}
		}
		return nil
	})
	gift, other2, fanGift := newRepo(t, b, troll, "gift"), newRepo(t, b, troll, "elsewhere"), newRepo(t, b, fan, "fangift")
	repoUpdate(t, b.Repos(), func(tx repos.Tx) error {
		for _, tr := range []*repos.Transfer{
			{RepoID: gift.ID, Doer: troll, Recipient: shield, Created: at},
			{RepoID: other2.ID, Doer: troll, Recipient: other, Created: at},
			{RepoID: fanGift.ID, Doer: fan, Recipient: shield, Created: at},
		} {
			if err := tx.SetTransfer(ctx, tr); err != nil {
				return err
			}
		}
		return nil
	})
	orgUpdate(t, b.Orgs(), func(tx orgs.Tx) error { return tx.DropBlocked(ctx, shield.ID, troll.ID) })
	orgUpdate(t, b.Orgs(), func(tx orgs.Tx) error { return tx.DropBlocked(ctx, shield.ID, troll.ID) })
	require.NoError(t, b.Repos().View(ctx, func(tx repos.Tx) error {
		for _, c := range []struct {
			r       *forge.Repository
			u       *forge.User
			want    forge.AccessMode
			watches int
		}{
			{mine, troll, forge.AccessNone, 1}, {pending, troll, forge.AccessNone, 1}, {mine, fan, forge.AccessModeWrite, 1},
			{theirs, troll, forge.AccessModeWrite, 2},
		} {
			m, err := tx.CollaboratorMode(ctx, c.r.ID, c.u.ID)
			require.NoError(t, err)
			assert.Equal(t, c.want, m, "%s on %s", c.u.Name, c.r.Name)
			r, err := tx.RepoByID(ctx, c.r.ID)
			require.NoError(t, err)
			assert.Equal(t, c.watches, r.NumWatches, "watchers of %s", c.r.Name)
			w, _, err := tx.Watch(ctx, c.r.ID, c.u.ID)
			require.NoError(t, err)
			assert.Equal(t, c.want != forge.AccessNone, w.Watching(), "%s watching %s", c.u.Name, c.r.Name)
		}
		_, err := tx.Transfer(ctx, gift.ID)
		assert.ErrorIs(t, err, forge.ErrNotFound, "the transfer offered the blocker is gone")
		for _, r := range []*forge.Repository{other2, fanGift} {
			_, err := tx.Transfer(ctx, r.ID)
			assert.NoError(t, err, "other transfers stay")
		}
		return nil
	}))
}

// testRepoBlocks: repos.Tx.IsBlocked reads the blocks forge/orgs records,
// directed, in the same transaction as the write it guards.
func testRepoBlocks(t *testing.T, b Backend) {
	ctx := context.Background()
	shield := newOrg(t, b, "Shield")
	ann, ben := newUser(t, b, "ann"), newUser(t, b, "ben")
	orgUpdate(t, b.Orgs(), func(tx orgs.Tx) error {
		return tx.SetBlock(ctx, forge.Block{BlockerID: shield.ID, UserID: ann.ID, Created: time.Unix(1700000000, 0)})
	})
	for _, c := range []struct {
		blocker, user forge.ID
		want          bool
	}{{shield.ID, ann.ID, true}, {ann.ID, shield.ID, false}, {shield.ID, ben.ID, false}, {shield.ID, 999999, false}} {
		require.NoError(t, b.Repos().View(ctx, func(tx repos.Tx) error {
			got, err := tx.IsBlocked(ctx, c.blocker, c.user)
			assert.Equal(t, c.want, got, "%d blocks %d", c.blocker, c.user)
			return err
		}))
	}
	// Seen inside an Update that recorded the block.
	require.NoError(t, b.Repos().Update(ctx, func(tx repos.Tx) error {
		got, err := tx.IsBlocked(ctx, shield.ID, ann.ID)
		assert.True(t, got)
		return err
	}))
}

// testIssueBlocks: issues.BlockReader reads the blocks forge/orgs writes.
// A backend whose issue transactions do not read blocks skips it; one
// without an orgs store checks that nobody is blocked.
func testIssueBlocks(t *testing.T, b Backend) {
	ctx := context.Background()
	s := b.Issues()
	var reads bool
	issueView(t, s, func(tx issues.Tx) error { _, reads = tx.(issues.BlockReader); return nil })
	if !reads {
		t.Skip("the backend's issues.Tx is no issues.BlockReader")
	}
	owner := newUser(t, b, "bowner")
	poster := newUser(t, b, "bposter")
	pest := newUser(t, b, "bpest")
	ob, withOrgs := b.(interface{ Orgs() orgs.Store })
	if withOrgs {
		require.NoError(t, ob.Orgs().Update(ctx, func(tx orgs.Tx) error {
			return tx.SetBlock(ctx, forge.Block{BlockerID: poster.ID, UserID: pest.ID, Created: issueAt})
		}))
	}
	issueView(t, s, func(tx issues.Tx) error {
		br := tx.(issues.BlockReader)
		for _, c := range []struct {
			blockers []forge.ID
			user     forge.ID
			want     bool
		}{
			{[]forge.ID{owner.ID, poster.ID}, pest.ID, withOrgs},
			{[]forge.ID{poster.ID}, pest.ID, withOrgs},
			{[]forge.ID{owner.ID}, pest.ID, false},
			{[]forge.ID{pest.ID}, poster.ID, false},
			{nil, pest.ID, false},
		} {
			got, err := br.IsBlockedByAny(ctx, c.blockers, c.user)
			require.NoError(t, err)
			assert.Equal(t, c.want, got, "IsBlockedByAny(%v, %d)", c.blockers, c.user)
		}
		return nil
	})
}
