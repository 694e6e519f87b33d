package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/quota"
)

// testQuotaReservations: quota.ReservationTx through repos.Tx. A
// reservation counts in Usage and RecountUsage in its bucket until it is
// released, expired and swept by its owner's next reservation, or
// deleted with its repository; a rolled-back one never existed; and N
// writers reserving at once against one limit get exactly as many
// reservations as fit (the check and the reservation are one step: on
// PostgreSQL the serializable transactions conflict and retry).
func testQuotaReservations(t *testing.T, b Backend) {
	ctx := context.Background()
	s := b.Repos()
	ann := newUser(t, b, "resann")
	pub := newRepo(t, b, ann, "respub")
	gone := newRepo(t, b, ann, "resgone")
	repoUpdate(t, s, func(tx repos.Tx) error {
		pub.Size = 1000
		return tx.UpdateRepo(ctx, pub)
	})
	t0 := time.Date(2024, 3, 4, 5, 6, 7, 0, time.UTC)
	reserve := func(r *quota.Reservation) error {
		return s.Update(ctx, func(tx repos.Tx) error { return tx.Reserve(ctx, r) })
	}
	r1 := &quota.Reservation{Owner: quota.RepoOwner(pub), Bucket: quota.BucketReposPublic, Bytes: 500, Created: t0, Expires: t0.Add(time.Hour)}
	require.NoError(t, reserve(r1))
	require.NotZero(t, r1.ID)
	r2 := &quota.Reservation{Owner: quota.OwnerOf(ann), Bucket: quota.BucketReposPrivate, Bytes: 200, Created: t0, Expires: t0.Add(2 * time.Hour)}
	require.NoError(t, reserve(r2))
	assert.NotEqual(t, r1.ID, r2.ID)
	want := quota.Used{ReposPublic: 1500, ReposPrivate: 200}
	assert.Equal(t, want, usage(t, b.Quota(), ann.ID), "reservations count in their buckets")
	assert.Equal(t, want, recount(t, b.Quota(), ann.ID), "and in the recount: no drift")
	repoUpdate(t, s, func(tx repos.Tx) error {
		u, err := tx.Usage(ctx, ann.ID)
		assert.Equal(t, want, u, "read in the writer's own transaction")
		return err
	})

	// A rolled-back reservation never existed.
	err := s.Update(ctx, func(tx repos.Tx) error {
		require.NoError(t, tx.Reserve(ctx, &quota.Reservation{Owner: quota.OwnerOf(ann), Bucket: quota.BucketReposPrivate,
			Bytes: 1 << 20, Created: t0, Expires: t0.Add(time.Hour)}))
		return forge.Errorf(forge.ErrInvalid, "roll back")
	})
	require.ErrorIs(t, err, forge.ErrInvalid)
	assert.Equal(t, want, usage(t, b.Quota(), ann.ID))

	// Refusals.
	for _, bad := range []*quota.Reservation{
		{Owner: quota.OwnerOf(ann), Bucket: "size:nope", Bytes: 1, Created: t0, Expires: t0},
		{Owner: quota.OwnerOf(ann), Bucket: quota.BucketReposPublic, Bytes: -1, Created: t0, Expires: t0},
	} {
		assert.ErrorIs(t, reserve(bad), forge.ErrInvalid, "%+v", bad)
	}
	assert.ErrorIs(t, reserve(&quota.Reservation{Owner: quota.Owner{ID: 987654}, Bucket: quota.BucketReposPublic, Bytes: 1,
		Created: t0, Expires: t0}), forge.ErrNotFound, "unknown account")
	assert.ErrorIs(t, reserve(&quota.Reservation{Owner: quota.Owner{ID: ann.ID, RepoID: 987654}, Bucket: quota.BucketReposPublic,
		Bytes: 1, Created: t0, Expires: t0}), forge.ErrNotFound, "unknown repository")

	// Release: once.
	repoUpdate(t, s, func(tx repos.Tx) error { return tx.ReleaseReservation(ctx, r2.ID) })
	assert.Equal(t, quota.Used{ReposPublic: 1500}, usage(t, b.Quota(), ann.ID))
	err = s.Update(ctx, func(tx repos.Tx) error { return tx.ReleaseReservation(ctx, r2.ID) })
	assert.ErrorIs(t, err, forge.ErrNotFound, "released twice")

	// An expired reservation is swept by the owner's next one.
	r3 := &quota.Reservation{Owner: quota.RepoOwner(pub), Bucket: quota.BucketReposPublic, Bytes: 7,
		Created: t0.Add(time.Hour), Expires: t0.Add(2 * time.Hour)}
	require.NoError(t, reserve(r3))
	assert.Equal(t, quota.Used{ReposPublic: 1007}, usage(t, b.Quota(), ann.ID), "r1 expired at r3's creation")
	err = s.Update(ctx, func(tx repos.Tx) error { return tx.ReleaseReservation(ctx, r1.ID) })
	assert.ErrorIs(t, err, forge.ErrNotFound, "swept")

	// Deleted with its repository.
	r4 := &quota.Reservation{Owner: quota.RepoOwner(gone), Bucket: quota.BucketReposPublic, Bytes: 50,
		Created: t0.Add(time.Hour), Expires: t0.Add(2 * time.Hour)}
	require.NoError(t, reserve(r4))
	assert.Equal(t, quota.Used{ReposPublic: 1057}, usage(t, b.Quota(), ann.ID))
	repoUpdate(t, s, func(tx repos.Tx) error { return tx.DeleteRepo(ctx, gone.ID) })
	assert.Equal(t, quota.Used{ReposPublic: 1007}, usage(t, b.Quota(), ann.ID), "gone with its repository")
	err = s.Update(ctx, func(tx repos.Tx) error { return tx.ReleaseReservation(ctx, r4.ID) })
	assert.ErrorIs(t, err, forge.ErrNotFound)
	repoUpdate(t, s, func(tx repos.Tx) error { return tx.ReleaseReservation(ctx, r3.ID) })
	assert.Equal(t, quota.Used{ReposPublic: 1000}, usage(t, b.Quota(), ann.ID))

	testQuotaReserveRace(t, b, ann, pub)
}

// testQuotaReserveRace: six writers reserve 300 bytes each at once, as
// quota.Reserve does (check and insert in one transaction), against a
// size:all limit of 1000 + 1000: exactly three fit.
func testQuotaReserveRace(t *testing.T, b Backend, ann *forge.User, pub *forge.Repository) {
	ctx := context.Background()
	quotaUpdate(t, b.Quota(), func(tx quota.Tx) error {
		if err := tx.CreateRule(ctx, &quota.Rule{Name: "res-all", Limit: 2000, Subjects: []quota.Subject{quota.SubjectAll}}); err != nil {
			return err
		}
		if err := tx.CreateGroup(ctx, "res-g"); err != nil {
			return err
		}
		if err := tx.AddGroupRule(ctx, "res-g", "res-all"); err != nil {
			return err
		}
		return tx.AddGroupMember(ctx, "res-g", ann.ID)
	})
	cfg := quota.Config{Enabled: true}
	now := time.Date(2024, 3, 4, 9, 0, 0, 0, time.UTC)
	const writers = 6
	ids := make([]forge.ID, writers)
	errs := race(writers, func(i int) error {
		return b.Repos().Update(ctx, func(tx repos.Tx) (err error) {
			ids[i], err = quota.Reserve(ctx, tx, cfg, quota.RepoOwner(pub), quota.SubjectReposAll, quota.BucketReposPublic,
				300, now, time.Hour)
			return err
		})
	})
	ok := winners(t, errs, quota.ErrExceeded)
	assert.Equal(t, 3, ok, "exactly the reservations that fit: %v", errs)
	u := usage(t, b.Quota(), ann.ID)
	assert.LessOrEqual(t, u.Of(quota.SubjectAll), int64(2000))
	for _, id := range ids {
		if id != 0 {
			repoUpdate(t, b.Repos(), func(tx repos.Tx) error { return tx.ReleaseReservation(ctx, id) })
		}
	}
	assert.Equal(t, quota.Used{ReposPublic: 1000}, usage(t, b.Quota(), ann.ID), "all released")
}
