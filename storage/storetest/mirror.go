package storetest

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/mirror"
)

func testMirrors(t *testing.T, b Backend) {
	ctx := context.Background()
	s := b.Mirrors()
	owner := newUser(t, b, "mirra")
	r1, r2, arch := newRepo(t, b, owner, "m1"), newRepo(t, b, owner, "m2"), newRepo(t, b, owner, "arch")
	at := time.Date(2024, 3, 4, 5, 6, 7, 0, time.UTC)

	// Pull mirrors: one per repository, every field kept, times to the second.
	pm := &mirror.PullMirror{RepoID: r1.ID, RemoteAddress: "https://example.com/a.git", SealedCreds: "sealed",
		Interval: 8 * time.Hour, EnablePrune: true, LFS: true, LFSEndpoint: "https://lfs.example.com",
		Updated: at.Add(500 * time.Millisecond), NextUpdate: at.Add(time.Hour), LastError: "e", Failures: 2}
	mirrorUpdate(t, s, func(tx mirror.Tx) error { return tx.CreatePullMirror(ctx, pm) })
	require.NotZero(t, pm.ID)
	err := s.Update(ctx, func(tx mirror.Tx) error {
		return tx.CreatePullMirror(ctx, &mirror.PullMirror{RepoID: r1.ID, RemoteAddress: "x", Interval: time.Hour})
	})
	assert.ErrorIs(t, err, forge.ErrConflict)
	err = s.Update(ctx, func(tx mirror.Tx) error {
		return tx.CreatePullMirror(ctx, &mirror.PullMirror{RepoID: 999999, RemoteAddress: "x"})
	})
	assert.ErrorIs(t, err, forge.ErrNotFound)
	require.NoError(t, s.View(ctx, func(tx mirror.Tx) error {
		got, err := tx.PullMirrorByRepo(ctx, r1.ID)
		require.NoError(t, err)
		want := *pm
		want.Updated = at
		assert.Equal(t, &want, got)
		got, err = tx.PullMirrorByID(ctx, pm.ID)
		require.NoError(t, err)
		assert.Equal(t, &want, got)
		_, err = tx.PullMirrorByRepo(ctx, r2.ID)
		assert.ErrorIs(t, err, forge.ErrNotFound)
		_, err = tx.PullMirrorByID(ctx, 999999)
		assert.ErrorIs(t, err, forge.ErrNotFound)
		all, err := tx.PullMirrorsByRepo(ctx, []forge.ID{r1.ID, r2.ID})
		require.NoError(t, err)
		assert.Len(t, all, 1)
		assert.Equal(t, &want, all[r1.ID])
		none, err := tx.PullMirrorsByRepo(ctx, nil)
		require.NoError(t, err)
		assert.NotNil(t, none)
		return nil
	}))
	pm.EnablePrune, pm.Interval, pm.LastError, pm.Failures, pm.NextUpdate = false, 0, "", 0, time.Time{}
	mirrorUpdate(t, s, func(tx mirror.Tx) error { return tx.UpdatePullMirror(ctx, pm) })
	require.NoError(t, s.View(ctx, func(tx mirror.Tx) error {
		got, err := tx.PullMirrorByID(ctx, pm.ID)
		require.NoError(t, err)
		assert.False(t, got.EnablePrune)
		assert.Zero(t, got.Interval)
		assert.True(t, got.NextUpdate.IsZero())
		assert.Equal(t, r1.ID, got.RepoID)
		return nil
	}))
	err = s.Update(ctx, func(tx mirror.Tx) error { return tx.UpdatePullMirror(ctx, &mirror.PullMirror{ID: 999999}) })
	assert.ErrorIs(t, err, forge.ErrNotFound)

	// Push mirrors: unique remote name per repository, listed by id.
	var pushes []*mirror.PushMirror
	for i, name := range []string{"remote_mirror_a", "remote_mirror_b", "remote_mirror_c"} {
		p := &mirror.PushMirror{RepoID: r2.ID, RemoteName: name, RemoteAddress: "https://example.com/p.git",
			SealedCreds: "s", PublicKey: "ssh-ed25519 AAA", SyncOnCommit: i == 0, Interval: time.Hour,
			BranchFilter: "main,release/*", Created: at, NextUpdate: at.Add(time.Duration(i) * time.Minute)}
		mirrorUpdate(t, s, func(tx mirror.Tx) error { return tx.CreatePushMirror(ctx, p) })
		pushes = append(pushes, p)
	}
	err = s.Update(ctx, func(tx mirror.Tx) error {
		return tx.CreatePushMirror(ctx, &mirror.PushMirror{RepoID: r2.ID, RemoteName: "remote_mirror_a", Created: at})
	})
	assert.ErrorIs(t, err, forge.ErrConflict)
	require.NoError(t, s.View(ctx, func(tx mirror.Tx) error {
		page, n, err := tx.PushMirrors(ctx, r2.ID, forge.ListOptions{Page: 2, Limit: 2})
		require.NoError(t, err)
		assert.EqualValues(t, 3, n)
		require.Len(t, page, 1)
		assert.Equal(t, pushes[2], page[0])
		all, _, err := tx.PushMirrors(ctx, r2.ID, forge.ListOptions{Page: 1, Limit: -1})
		require.NoError(t, err)
		assert.Equal(t, pushes, all)
		got, err := tx.PushMirrorByName(ctx, r2.ID, "remote_mirror_b")
		require.NoError(t, err)
		assert.Equal(t, pushes[1], got)
		got, err = tx.PushMirrorByID(ctx, pushes[0].ID)
		require.NoError(t, err)
		assert.Equal(t, pushes[0], got)
		_, err = tx.PushMirrorByName(ctx, r1.ID, "remote_mirror_b")
		assert.ErrorIs(t, err, forge.ErrNotFound)
		_, err = tx.PushMirrorByID(ctx, 999999)
		assert.ErrorIs(t, err, forge.ErrNotFound)
		return nil
	}))
	p := *pushes[1]
	p.LastUpdate, p.LastError, p.Failures, p.RemoteName, p.Created = at, "boom", 1, "renamed", at.Add(time.Hour)
	mirrorUpdate(t, s, func(tx mirror.Tx) error { return tx.UpdatePushMirror(ctx, &p) })
	require.NoError(t, s.View(ctx, func(tx mirror.Tx) error {
		got, err := tx.PushMirrorByID(ctx, p.ID)
		require.NoError(t, err)
		assert.Equal(t, "remote_mirror_b", got.RemoteName, "the remote name is kept")
		assert.Equal(t, at, got.Created, "created is kept")
		assert.Equal(t, "boom", got.LastError)
		assert.Equal(t, at, got.LastUpdate)
		return nil
	}))
	err = s.Update(ctx, func(tx mirror.Tx) error { return tx.UpdatePushMirror(ctx, &mirror.PushMirror{ID: 999999}) })
	assert.ErrorIs(t, err, forge.ErrNotFound)

	// Due mirrors: next-update order, archived repositories' push mirrors
	// and zero times left out, limit applied.
	ap := &mirror.PushMirror{RepoID: arch.ID, RemoteName: "remote_mirror_z", RemoteAddress: "x", Interval: time.Hour,
		Created: at, NextUpdate: at}
	mirrorUpdate(t, s, func(tx mirror.Tx) error { return tx.CreatePushMirror(ctx, ap) })
	arch.Archived = true
	require.NoError(t, b.Repos().Update(ctx, func(tx repos.Tx) error { return tx.UpdateRepo(ctx, arch) }))
	pm.NextUpdate = at.Add(time.Minute)
	mirrorUpdate(t, s, func(tx mirror.Tx) error { return tx.UpdatePullMirror(ctx, pm) })
	require.NoError(t, s.View(ctx, func(tx mirror.Tx) error {
		due, err := tx.DueMirrors(ctx, at.Add(time.Hour), at, 10)
		require.NoError(t, err)
		assert.Equal(t, []mirror.Due{
			{Key: pushes[0].Key(), At: at},
			{Key: pm.Key(), At: at.Add(time.Minute)},
			{Key: pushes[1].Key(), At: at.Add(time.Minute)},
			{Key: pushes[2].Key(), At: at.Add(2 * time.Minute)},
		}, due)
		due, err = tx.DueMirrors(ctx, at.Add(time.Minute), at, 2)
		require.NoError(t, err)
		assert.Equal(t, []mirror.Due{{Key: pushes[0].Key(), At: at}, {Key: pm.Key(), At: at.Add(time.Minute)}}, due)
		return nil
	}))

	// Deletes: a missing push mirror is no error; a missing pull mirror is.
	mirrorUpdate(t, s, func(tx mirror.Tx) error { return tx.DeletePushMirror(ctx, r2.ID, "remote_mirror_a") })
	mirrorUpdate(t, s, func(tx mirror.Tx) error { return tx.DeletePushMirror(ctx, r2.ID, "remote_mirror_a") })
	wantDeleteOnce(t, s, func(ctx context.Context, tx mirror.Tx) error { return tx.DeletePullMirror(ctx, r1.ID) })
	require.NoError(t, s.View(ctx, func(tx mirror.Tx) error {
		_, n, err := tx.PushMirrors(ctx, r2.ID, forge.ListOptions{Page: 1, Limit: 10})
		require.NoError(t, err)
		assert.EqualValues(t, 2, n)
		_, err = tx.PullMirrorByRepo(ctx, r1.ID)
		assert.ErrorIs(t, err, forge.ErrNotFound)
		return nil
	}))
}

func testMirrorLeases(t *testing.T, b Backend) {
	ctx := context.Background()
	s := b.Mirrors()
	owner, r := newUserRepo(t, b, "lessee", "leased")
	at := time.Date(2024, 3, 4, 5, 6, 7, 0, time.UTC)
	pm := &mirror.PullMirror{RepoID: r.ID, RemoteAddress: "x", Interval: time.Hour, NextUpdate: at}
	mirrorUpdate(t, s, func(tx mirror.Tx) error { return tx.CreatePullMirror(ctx, pm) })
	claim := func(holder string, now time.Time) bool {
		var ok bool
		mirrorUpdate(t, s, func(tx mirror.Tx) error {
			var err error
			ok, err = tx.ClaimLease(ctx, mirror.Lease{Key: pm.Key(), Holder: holder, Expires: now.Add(time.Minute)}, now)
			return err
		})
		return ok
	}
	due := func(now time.Time) int {
		return len(viewValue(t, s, func(ctx context.Context, tx mirror.Tx) ([]mirror.Due, error) { return tx.DueMirrors(ctx, now, now, -1) }))
	}
	assert.Equal(t, 1, due(at))
	assert.True(t, claim("a", at))
	assert.Equal(t, 0, due(at), "a leased mirror is not due")
	assert.False(t, claim("b", at.Add(30*time.Second)), "held by a")
	assert.True(t, claim("a", at.Add(30*time.Second)), "the holder renews")
	assert.True(t, claim("b", at.Add(90*time.Second)), "expired: b takes it")
	// Release only by the holder.
	mirrorUpdate(t, s, func(tx mirror.Tx) error { return tx.ReleaseLease(ctx, pm.Key(), "a") })
	assert.False(t, claim("c", at.Add(100*time.Second)), "a released nothing it did not hold")
	mirrorUpdate(t, s, func(tx mirror.Tx) error { return tx.ReleaseLease(ctx, pm.Key(), "b") })
	assert.True(t, claim("c", at.Add(100*time.Second)))

	// Racing claims of one key: exactly one wins.
	mirrorUpdate(t, s, func(tx mirror.Tx) error { return tx.ReleaseLease(ctx, pm.Key(), "c") })
	holders := []string{"h1", "h2", "h3", "h4", "h5", "h6", "h7", "h8"}
	errNotClaimed := errors.New("not claimed")
	errs := race(len(holders), func(k int) error {
		if claim(holders[k], at.Add(200*time.Second)) {
			return nil
		}
		return errNotClaimed
	})
	n := winners(t, errs, errNotClaimed)
	assert.Equal(t, 1, n, "one of eight racing claims wins")

	// ReleaseLeases removes every lease of one holder, expired or not,
	// and no other holder's.
	var winner string
	for _, h := range holders {
		if claim(h, at.Add(200*time.Second)) {
			winner = h
		}
	}
	r2 := newRepo(t, b, owner, "leased-2")
	r3 := newRepo(t, b, owner, "leased-3")
	pm2 := &mirror.PullMirror{RepoID: r2.ID, RemoteAddress: "x", Interval: time.Hour, NextUpdate: at}
	pm3 := &mirror.PullMirror{RepoID: r3.ID, RemoteAddress: "x", Interval: time.Hour, NextUpdate: at}
	mirrorUpdate(t, s, func(tx mirror.Tx) error {
		if err := tx.CreatePullMirror(ctx, pm2); err != nil {
			return err
		}
		return tx.CreatePullMirror(ctx, pm3)
	})
	later := at.Add(300 * time.Second)
	mirrorUpdate(t, s, func(tx mirror.Tx) error {
		if ok, err := tx.ClaimLease(ctx, mirror.Lease{Key: pm2.Key(), Holder: winner, Expires: later.Add(time.Hour)}, later); !ok || err != nil {
			return fmt.Errorf("claim pm2: %v %v", ok, err)
		}
		if ok, err := tx.ClaimLease(ctx, mirror.Lease{Key: pm3.Key(), Holder: "other", Expires: later.Add(time.Hour)}, later); !ok || err != nil {
			return fmt.Errorf("claim pm3: %v %v", ok, err)
		}
		return nil
	})
	var released int
	mirrorUpdate(t, s, func(tx mirror.Tx) error {
		var err error
		released, err = tx.ReleaseLeases(ctx, winner)
		return err
	})
	assert.Equal(t, 2, released, "the expired lease of pm and the live one of pm2")
	require.NoError(t, s.View(ctx, func(tx mirror.Tx) error {
		d, err := tx.DueMirrors(ctx, later, later, -1)
		keys := map[mirror.Key]bool{}
		for _, x := range d {
			keys[x.Key] = true
		}
		assert.True(t, keys[pm.Key()] && keys[pm2.Key()], "released mirrors are due: %v", d)
		assert.False(t, keys[pm3.Key()], "another holder's lease stays")
		return err
	}))
}
