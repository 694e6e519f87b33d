package storetest

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/actions/artifacts"
	"github.com/hearthforge/hearth/forge/lfs"
	"github.com/hearthforge/hearth/forge/packages"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/issues"
	"github.com/hearthforge/hearth/quota"
)

func testQuotaRules(t *testing.T, b Backend) {
	ctx := context.Background()
	s := b.Quota()
	ann := newUser(t, b, "qann")
	org := newUser(t, b, "qorg", func(u *forge.User) { u.Type = forge.UserTypeOrganization })

	big := &quota.Rule{Name: "big", Limit: 1 << 30, Subjects: []quota.Subject{quota.SubjectAll, quota.SubjectReposAll, quota.SubjectAll}}
	deny := &quota.Rule{Name: "Deny", Limit: 0}
	quotaUpdate(t, s, func(tx quota.Tx) error {
		require.NoError(t, tx.CreateRule(ctx, big))
		require.NoError(t, tx.CreateRule(ctx, deny))
		assert.ErrorIs(t, tx.CreateRule(ctx, &quota.Rule{Name: "big", Limit: 1}), forge.ErrConflict)
		require.NoError(t, tx.CreateGroup(ctx, "g1"))
		require.NoError(t, tx.CreateGroup(ctx, "g0"))
		require.NoError(t, tx.CreateGroup(ctx, "empty"))
		assert.ErrorIs(t, tx.CreateGroup(ctx, "g1"), forge.ErrConflict)
		require.NoError(t, tx.AddGroupRule(ctx, "g1", "big"))
		require.NoError(t, tx.AddGroupRule(ctx, "g1", "Deny"))
		require.NoError(t, tx.AddGroupRule(ctx, "g0", "Deny"))
		assert.ErrorIs(t, tx.AddGroupRule(ctx, "g1", "big"), forge.ErrConflict)
		assert.ErrorIs(t, tx.AddGroupRule(ctx, "nope", "big"), forge.ErrNotFound)
		assert.ErrorIs(t, tx.AddGroupRule(ctx, "g1", "nope"), forge.ErrNotFound)
		require.NoError(t, tx.AddGroupMember(ctx, "g1", ann.ID))
		require.NoError(t, tx.AddGroupMember(ctx, "g0", ann.ID))
		require.NoError(t, tx.AddGroupMember(ctx, "g1", org.ID))
		assert.ErrorIs(t, tx.AddGroupMember(ctx, "g1", ann.ID), forge.ErrConflict)
		assert.ErrorIs(t, tx.AddGroupMember(ctx, "nope", ann.ID), forge.ErrNotFound)
		assert.ErrorIs(t, tx.AddGroupMember(ctx, "g1", 9999), forge.ErrNotFound)
		return nil
	})

	wantBig := quota.Rule{Name: "big", Limit: 1 << 30, Subjects: []quota.Subject{quota.SubjectAll, quota.SubjectReposAll, quota.SubjectAll}}
	wantDeny := quota.Rule{Name: "Deny", Limit: 0}
	quotaView(t, s, func(tx quota.Tx) error {
		r, err := tx.RuleByName(ctx, "big")
		require.NoError(t, err)
		assert.Equal(t, &wantBig, r, "subjects keep their order and repeats")
		_, err = tx.RuleByName(ctx, "BIG")
		assert.ErrorIs(t, err, forge.ErrNotFound, "rule names are exact")
		rules, err := tx.ListRules(ctx)
		require.NoError(t, err)
		assert.Equal(t, []quota.Rule{wantDeny, wantBig}, rules, "by name, bytewise")
		g, err := tx.GroupByName(ctx, "g1")
		require.NoError(t, err)
		assert.Equal(t, &quota.Group{Name: "g1", Rules: []quota.Rule{wantDeny, wantBig}}, g)
		g, err = tx.GroupByName(ctx, "empty")
		require.NoError(t, err)
		assert.Equal(t, &quota.Group{Name: "empty", Rules: []quota.Rule{}}, g)
		_, err = tx.GroupByName(ctx, "nope")
		assert.ErrorIs(t, err, forge.ErrNotFound)
		groups, err := tx.ListGroups(ctx)
		require.NoError(t, err)
		assert.Equal(t, []string{"empty", "g0", "g1"}, groupNames(groups))
		mine, err := tx.QuotaGroupsOf(ctx, ann.ID)
		require.NoError(t, err)
		assert.Equal(t, []quota.Group{{Name: "g0", Rules: []quota.Rule{wantDeny}}, {Name: "g1", Rules: []quota.Rule{wantDeny, wantBig}}}, mine)
		none, err := tx.QuotaGroupsOf(ctx, 9999)
		require.NoError(t, err)
		assert.Equal(t, []quota.Group{}, none)
		named, err := tx.QuotaGroupsNamed(ctx, []string{"g1", "nope", "empty", "g1"})
		require.NoError(t, err)
		assert.Equal(t, []string{"empty", "g1"}, groupNames(named), "missing names skipped, by name")
		named, err = tx.QuotaGroupsNamed(ctx, nil)
		require.NoError(t, err)
		assert.Equal(t, []quota.Group{}, named)
		members, err := tx.GroupMembers(ctx, "g1")
		require.NoError(t, err)
		assert.Equal(t, []forge.ID{ann.ID, org.ID}, userIDs(members), "users and organisations, by id")
		assert.Equal(t, "qorg", members[1].Name)
		members, err = tx.GroupMembers(ctx, "empty")
		require.NoError(t, err)
		assert.Equal(t, []*forge.User{}, members)
		_, err = tx.GroupMembers(ctx, "nope")
		assert.ErrorIs(t, err, forge.ErrNotFound)
		u, err := tx.UserByName(ctx, "QANN")
		require.NoError(t, err)
		assert.Equal(t, ann.ID, u.ID)
		return nil
	})

	// Edits, removals and cascades.
	quotaUpdate(t, s, func(tx quota.Tx) error {
		require.NoError(t, tx.UpdateRule(ctx, &quota.Rule{Name: "big", Limit: -1, Subjects: []quota.Subject{quota.SubjectGitLFS}}))
		assert.ErrorIs(t, tx.UpdateRule(ctx, &quota.Rule{Name: "nope"}), forge.ErrNotFound)
		require.NoError(t, tx.RemoveGroupRule(ctx, "g0", "Deny"))
		assert.ErrorIs(t, tx.RemoveGroupRule(ctx, "g0", "Deny"), forge.ErrNotFound)
		require.NoError(t, tx.RemoveGroupMember(ctx, "g0", ann.ID))
		assert.ErrorIs(t, tx.RemoveGroupMember(ctx, "g0", ann.ID), forge.ErrNotFound)
		deleteOnce(t, func() error { return tx.DeleteRule(ctx, "Deny") })
		return nil
	})
	quotaView(t, s, func(tx quota.Tx) error {
		g, err := tx.GroupByName(ctx, "g1")
		require.NoError(t, err)
		assert.Equal(t, []quota.Rule{{Name: "big", Limit: -1, Subjects: []quota.Subject{quota.SubjectGitLFS}}}, g.Rules,
			"a deleted rule leaves its groups")
		mine, _ := tx.QuotaGroupsOf(ctx, ann.ID)
		assert.Equal(t, []string{"g1"}, groupNames(mine))
		return nil
	})
	quotaUpdate(t, s, func(tx quota.Tx) error {
		deleteOnce(t, func() error { return tx.DeleteGroup(ctx, "g1") })
		require.NoError(t, tx.AddGroupMember(ctx, "empty", ann.ID))
		require.NoError(t, tx.AddGroupMember(ctx, "g0", ann.ID))
		return nil
	})
	quotaView(t, s, func(tx quota.Tx) error {
		_, err := tx.RuleByName(ctx, "big")
		assert.NoError(t, err, "rules survive their group")
		mine, _ := tx.QuotaGroupsOf(ctx, org.ID)
		assert.Empty(t, mine, "memberships go with the group")
		return nil
	})
	quotaUpdate(t, s, func(tx quota.Tx) error { return tx.RemoveMemberships(ctx, ann.ID) })
	quotaView(t, s, func(tx quota.Tx) error {
		mine, _ := tx.QuotaGroupsOf(ctx, ann.ID)
		assert.Empty(t, mine)
		return nil
	})
	// A failed transaction leaves nothing.
	err := s.Update(ctx, func(tx quota.Tx) error {
		require.NoError(t, tx.CreateGroup(ctx, "ghost"))
		return forge.ErrConflict
	})
	assert.ErrorIs(t, err, forge.ErrConflict)
	wantNotFound(t, s, func(ctx context.Context, tx quota.Tx) error { _, err := tx.GroupByName(ctx, "ghost"); return err })
}

func groupNames(gs []quota.Group) []string {
	return pluck(gs, func(g quota.Group) string { return g.Name })
}

func userIDs(us []*forge.User) []forge.ID {
	return pluck(us, func(u *forge.User) forge.ID { return u.ID })
}

func usage(t *testing.T, s quota.Store, owner forge.ID) quota.Used {
	t.Helper()
	return viewValue(t, s, func(ctx context.Context, tx quota.Tx) (quota.Used, error) { return tx.Usage(ctx, owner) })
}

func recount(t *testing.T, s quota.Store, owner forge.ID) quota.Used {
	t.Helper()
	return viewValue(t, s, func(ctx context.Context, tx quota.Tx) (quota.Used, error) { return tx.RecountUsage(ctx, owner) })
}

var ctx0 = context.Background()

func testQuotaUsage(t *testing.T, b Backend) {
	ctx := context.Background()
	s := b.Quota()
	ann, pub, priv := newUserRepos(t, b, "uann", "pub", "priv")
	bob := newUser(t, b, "ubob")
	at := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
	repoUpdate(t, b.Repos(), func(tx repos.Tx) error {
		pub.Size, priv.Size, priv.Private = 1000, 300, true
		require.NoError(t, tx.UpdateRepo(ctx, pub))
		return tx.UpdateRepo(ctx, priv)
	})
	assert.Equal(t, quota.Used{ReposPublic: 1000, ReposPrivate: 300}, usage(t, s, ann.ID), "git size is the repositories' size")

	// Issue, comment and release attachments are counted by the rows.
	is := newIssue(t, b.Issues(), pub.ID, ann.ID, "files")
	c := &issues.Comment{IssueID: is.ID, PosterID: ann.ID, Body: "x", Created: issueAt, Updated: issueAt}
	issueUpdate(t, b.Issues(), func(tx issues.Tx) error { return tx.CreateComment(ctx, c) })
	mk := func(comment forge.ID, name string, size int64) *issues.Attachment {
		a := &issues.Attachment{UUID: "q-" + name, RepoID: pub.ID, IssueID: is.ID, CommentID: comment, UploaderID: ann.ID,
			Name: name, Size: size, Created: issueAt}
		issueUpdate(t, b.Issues(), func(tx issues.Tx) error { return tx.CreateAttachment(ctx, a) })
		return a
	}
	a1 := mk(0, "a1", 10)
	mk(c.ID, "a2", 20)
	a3 := mk(0, "a3", 40)
	rel := &repos.Release{RepoID: priv.ID, AuthorID: ann.ID, TagName: "v1", Target: "main", Created: at}
	repoUpdate(t, b.Repos(), func(tx repos.Tx) error { return tx.CreateRelease(ctx, rel) })
	ra := &repos.Attachment{UUID: "q-rel", RepoID: priv.ID, ReleaseID: rel.ID, UploaderID: ann.ID, Name: "bin", Size: 5, Created: at}
	repoUpdate(t, b.Repos(), func(tx repos.Tx) error { return tx.CreateAttachment(ctx, ra) })
	want := quota.Used{ReposPublic: 1000, ReposPrivate: 300, AttachmentsIssues: 70, AttachmentsReleases: 5}
	assert.Equal(t, want, usage(t, s, ann.ID))
	assert.Equal(t, want, recount(t, s, ann.ID))

	quotaView(t, s, func(tx quota.Tx) error {
		list, total, err := tx.ListAttachmentUsage(ctx, ann.ID, forge.ListOptions{Page: 1, Limit: 2})
		require.NoError(t, err)
		assert.EqualValues(t, 4, total)
		require.Len(t, list, 2)
		assert.Equal(t, quota.AttachmentUsage{ID: a3.ID, Name: "a3", Size: 40, RepoID: pub.ID, OwnerName: "uann",
			RepoName: "pub", Index: is.Index}, list[0], "by size descending")
		assert.Equal(t, c.ID, list[1].CommentID)
		list, _, err = tx.ListAttachmentUsage(ctx, ann.ID, forge.ListOptions{Page: 2, Limit: 2})
		require.NoError(t, err)
		require.Len(t, list, 2)
		assert.Equal(t, "a1", list[0].Name)
		assert.Equal(t, quota.AttachmentUsage{ID: ra.ID, Name: "bin", Size: 5, RepoID: priv.ID, OwnerName: "uann",
			RepoName: "priv", ReleaseID: rel.ID, TagName: "v1"}, list[1])
		list, total, err = tx.ListAttachmentUsage(ctx, bob.ID, forge.ListOptions{Page: 1, Limit: 10})
		require.NoError(t, err)
		assert.Empty(t, list)
		assert.Zero(t, total)
		return nil
	})

	// Counters of the other buckets: per repository and per account.
	quotaUpdate(t, s, func(tx quota.Tx) error {
		require.NoError(t, tx.AddUsage(ctx, quota.Owner{ID: ann.ID, RepoID: pub.ID}, quota.BucketLFS, 7))
		require.NoError(t, tx.AddUsage(ctx, quota.Owner{ID: ann.ID, RepoID: priv.ID}, quota.BucketArtifacts, 9))
		require.NoError(t, tx.AddUsage(ctx, quota.Owner{ID: ann.ID}, quota.BucketPackages, 11))
		require.NoError(t, tx.AddUsage(ctx, quota.Owner{ID: ann.ID}, quota.BucketPackages, -1))
		assert.ErrorIs(t, tx.AddUsage(ctx, quota.Owner{ID: ann.ID}, quota.BucketAttachmentsIssues, 1), forge.ErrInvalid,
			"derived buckets are the store's")
		assert.ErrorIs(t, tx.AddUsage(ctx, quota.Owner{ID: ann.ID}, "size:all", 1), forge.ErrInvalid)
		assert.ErrorIs(t, tx.AddUsage(ctx, quota.Owner{ID: ann.ID, RepoID: 9999}, quota.BucketLFS, 1), forge.ErrNotFound)
		assert.ErrorIs(t, tx.AddUsage(ctx, quota.Owner{ID: 9999}, quota.BucketPackages, 1), forge.ErrNotFound)
		return nil
	})
	want.LFS, want.Artifacts, want.Packages = 7, 9, 10
	assert.Equal(t, want, usage(t, s, ann.ID))

	// A rolled-back write leaves the counters.
	err := b.Issues().Update(ctx, func(tx issues.Tx) error {
		require.NoError(t, tx.AddUsage(ctx, quota.RepoOwner(pub), quota.BucketLFS, 100))
		require.NoError(t, tx.CreateAttachment(ctx, &issues.Attachment{UUID: "q-ghost", RepoID: pub.ID, IssueID: is.ID,
			Name: "ghost", Size: 1000, Created: issueAt}))
		u, err := tx.Usage(ctx, ann.ID)
		require.NoError(t, err)
		assert.EqualValues(t, 107, u.LFS, "the transaction sees its own writes")
		assert.EqualValues(t, 1070, u.AttachmentsIssues)
		return forge.ErrConflict
	})
	assert.ErrorIs(t, err, forge.ErrConflict)
	assert.Equal(t, want, usage(t, s, ann.ID))
	issueView(t, b.Issues(), func(tx issues.Tx) error {
		gs, err := tx.QuotaGroupsOf(ctx, ann.ID)
		assert.Empty(t, gs)
		if err != nil {
			return err
		}
		gs, err = tx.QuotaGroupsNamed(ctx, []string{"x"})
		assert.Empty(t, gs)
		return err
	})

	// Every domain Tx reads and charges quota (repos.Tx here).
	repoUpdate(t, b.Repos(), func(tx repos.Tx) error {
		require.NoError(t, tx.AddUsage(ctx, quota.RepoOwner(pub), quota.BucketArtifacts, 1))
		u, err := tx.Usage(ctx, ann.ID)
		require.NoError(t, err)
		assert.EqualValues(t, 10, u.Artifacts)
		gs, err := tx.QuotaGroupsOf(ctx, ann.ID)
		assert.Empty(t, gs)
		require.NoError(t, err)
		gs, err = tx.QuotaGroupsNamed(ctx, []string{"x"})
		assert.Empty(t, gs)
		require.NoError(t, err)
		return tx.AddUsage(ctx, quota.RepoOwner(pub), quota.BucketArtifacts, -1)
	})

	// Deletes release the bytes, cascades included.
	issueUpdate(t, b.Issues(), func(tx issues.Tx) error { return tx.DeleteAttachment(ctx, a1.ID) })
	issueUpdate(t, b.Issues(), func(tx issues.Tx) error { return tx.DeleteComment(ctx, c.ID) })
	want.AttachmentsIssues = 40
	assert.Equal(t, want, usage(t, s, ann.ID))
	issueUpdate(t, b.Issues(), func(tx issues.Tx) error { return tx.DeleteIssue(ctx, is.ID) })
	repoUpdate(t, b.Repos(), func(tx repos.Tx) error { return tx.DeleteRelease(ctx, rel.ID) })
	want.AttachmentsIssues, want.AttachmentsReleases = 0, 0
	assert.Equal(t, want, usage(t, s, ann.ID))

	// Transfers and visibility changes move a repository's usage with no
	// counter write.
	ra2 := &repos.Attachment{UUID: "q-rel2", RepoID: priv.ID, ReleaseID: 0, UploaderID: ann.ID, Name: "bin", Size: 5, Created: at}
	rel2 := &repos.Release{RepoID: priv.ID, AuthorID: ann.ID, TagName: "v2", Target: "main", Created: at}
	repoUpdate(t, b.Repos(), func(tx repos.Tx) error {
		if err := tx.CreateRelease(ctx, rel2); err != nil {
			return err
		}
		ra2.ReleaseID = rel2.ID
		if err := tx.CreateAttachment(ctx, ra2); err != nil {
			return err
		}
		priv.OwnerID, priv.Private = bob.ID, false
		return tx.UpdateRepo(ctx, priv)
	})
	assert.Equal(t, quota.Used{ReposPublic: 1000, LFS: 7, Packages: 10}, usage(t, s, ann.ID))
	assert.Equal(t, quota.Used{ReposPublic: 300, Artifacts: 9, AttachmentsReleases: 5}, usage(t, s, bob.ID))
	repoUpdate(t, b.Repos(), func(tx repos.Tx) error { return tx.DeleteAttachment(ctx, ra2.ID) })
	assert.Equal(t, quota.Used{ReposPublic: 300, Artifacts: 9}, usage(t, s, bob.ID))
	repoUpdate(t, b.Repos(), func(tx repos.Tx) error { return tx.DeleteRepo(ctx, priv.ID) })
	assert.Equal(t, quota.Used{}, usage(t, s, bob.ID), "a deleted repository releases everything")

	quotaView(t, s, func(tx quota.Tx) error {
		owners, err := tx.UsageOwners(ctx)
		require.NoError(t, err)
		assert.Contains(t, owners, ann.ID)
		assert.NotContains(t, owners, forge.ID(9999))
		return nil
	})

	// Recount agrees on the derived buckets (the LFS and package counters
	// here have no source rows: a backend with LFS and packages recounts
	// them as 0) and RebuildUsage keeps them.
	rec := recount(t, s, ann.ID)
	assert.Equal(t, derived(usage(t, s, ann.ID)), derived(rec))
	quotaUpdate(t, s, func(tx quota.Tx) error { return tx.RebuildUsage(ctx, ann.ID) })
	assert.Equal(t, quota.Used{ReposPublic: 1000, LFS: 7, Packages: 10}, usage(t, s, ann.ID))
}

// derived keeps the buckets the store derives from its own rows (git
// sizes, attachments): the ones a recount always recomputes here.
func derived(u quota.Used) quota.Used {
	return quota.Used{ReposPublic: u.ReposPublic, ReposPrivate: u.ReposPrivate,
		AttachmentsIssues: u.AttachmentsIssues, AttachmentsReleases: u.AttachmentsReleases}
}

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
	ann, pub, gone := newUserRepos(t, b, "resann", "respub", "resgone")
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

// checkUsageTx: a domain's Tx charges quota in its own transaction: the
// counter it adds is in the owner's usage, read back through the same Tx;
// a rolled-back charge leaves nothing; the owner's groups read through it.
func checkUsageTx[T quota.UsageTx](t *testing.T, update, view func(context.Context, func(T) error) error, owner quota.Owner,
	b quota.Bucket, get func(quota.Used) int64) {
	t.Helper()
	ctx := context.Background()
	require.NoError(t, update(ctx, func(tx T) error { return tx.AddUsage(ctx, owner, b, 42) }))
	err := update(ctx, func(tx T) error {
		require.NoError(t, tx.AddUsage(ctx, owner, b, 1000))
		return forge.Errorf(forge.ErrInvalid, "roll back")
	})
	require.ErrorIs(t, err, forge.ErrInvalid)
	require.NoError(t, view(ctx, func(tx T) error {
		u, err := tx.Usage(ctx, owner.ID)
		require.NoError(t, err)
		assert.EqualValues(t, 42, get(u))
		gs, err := tx.QuotaGroupsOf(ctx, owner.ID)
		require.NoError(t, err)
		assert.Empty(t, gs)
		gs, err = tx.QuotaGroupsNamed(ctx, []string{"nope"})
		require.NoError(t, err)
		assert.Empty(t, gs)
		return nil
	}))
	require.NoError(t, update(ctx, func(tx T) error { return tx.AddUsage(ctx, owner, b, -42) }))
}

// testLFSPackageUsage: quota's recount and lists read the rows of LFS
// objects, package files and unexpired artifacts of the owner
// (quota.LFSUsageTx, quota.PackageUsageTx, quota.ArtifactUsageTx), when
// the backend's quota Tx has them.
func testLFSPackageUsage(t *testing.T, b Backend) {
	ctx := context.Background()
	owner, repo := newUserRepo(t, b, "usageowner", "stuff")
	other, elsewhere := newUserRepo(t, b, "usageother", "stuff")
	at := time.Date(2024, 9, 1, 0, 0, 0, 0, time.UTC)
	require.NoError(t, b.LFS().Update(ctx, func(tx lfs.Tx) error {
		for _, m := range []*lfs.MetaObject{
			{Pointer: lfs.Pointer{Oid: strings.Repeat("1", 64), Size: 100}, RepoID: repo.ID, Created: at},
			{Pointer: lfs.Pointer{Oid: strings.Repeat("2", 64), Size: 20}, RepoID: repo.ID, Created: at},
			{Pointer: lfs.Pointer{Oid: strings.Repeat("1", 64), Size: 100}, RepoID: elsewhere.ID, Created: at},
		} {
			if err := tx.CreateMetaObject(ctx, m); err != nil {
				return err
			}
		}
		return nil
	}))
	require.NoError(t, b.Packages().Update(ctx, func(tx packages.Tx) error {
		for _, o := range []*forge.User{owner, other} {
			p := &packages.Package{OwnerID: o.ID, Type: packages.TypeGeneric, Name: "pkg", Created: at}
			require.NoError(t, tx.CreatePackage(ctx, p))
			for i, ver := range []string{"1", "2"} {
				v := &packages.Version{PackageID: p.ID, Version: ver, Created: at}
				require.NoError(t, tx.CreateVersion(ctx, v))
				for j := range i + 1 {
					f := &packages.File{VersionID: v.ID, Name: fmt.Sprintf("f%d", j), BlobKey: fmt.Sprintf("k%d%d%d", o.ID, i, j),
						Size: int64(10 * (i + 1)), Created: at}
					require.NoError(t, tx.CreateFile(ctx, f))
				}
			}
		}
		return nil
	}))
	require.NoError(t, b.Artifacts().Update(ctx, func(tx artifacts.Tx) error {
		for i, a := range []*artifacts.Artifact{
			{RepoID: repo.ID, RunID: 1, Name: "small", CompressedSize: 5},
			{RepoID: repo.ID, RunID: 1, Name: "large", CompressedSize: 50},
			{RepoID: repo.ID, RunID: 1, Name: "gone", CompressedSize: 500},
			{RepoID: elsewhere.ID, RunID: 2, Name: "theirs", CompressedSize: 7},
		} {
			a.BlobKey, a.Status, a.Created, a.Expires = fmt.Sprintf("a%d", i), artifacts.StatusConfirmed, at, at
			require.NoError(t, tx.CreateArtifact(ctx, a))
			if a.Name == "gone" {
				require.NoError(t, tx.ExpireArtifact(ctx, a.ID))
			}
		}
		return nil
	}))
	require.NoError(t, unwrapped(b).Quota().View(ctx, func(tx quota.Tx) error {
		u, err := tx.RecountUsage(ctx, owner.ID)
		require.NoError(t, err)
		assert.EqualValues(t, 120, u.LFS)
		assert.EqualValues(t, 50, u.Packages, "10 + 2×20")
		assert.EqualValues(t, 55, u.Artifacts, "expired ones do not count")
		pt, ok := tx.(quota.PackageUsageTx)
		if !ok {
			return nil
		}
		list, n, err := pt.ListPackageUsage(ctx, owner.ID, forge.ListOptions{})
		require.NoError(t, err)
		assert.EqualValues(t, 3, n, "one row per file, as Forgejo's join")
		assert.Equal(t, []quota.PackageUsage{
			{OwnerName: "usageowner", Name: "pkg", Type: "generic", Version: "2", Size: 40},
			{OwnerName: "usageowner", Name: "pkg", Type: "generic", Version: "2", Size: 40},
			{OwnerName: "usageowner", Name: "pkg", Type: "generic", Version: "1", Size: 10},
		}, list)
		at, ok := tx.(quota.ArtifactUsageTx)
		require.True(t, ok)
		alist, n, err := at.ListArtifactUsage(ctx, owner.ID, forge.ListOptions{Page: 1, Limit: 1})
		require.NoError(t, err)
		assert.EqualValues(t, 2, n)
		assert.Equal(t, []quota.ArtifactUsage{{Name: "large", Size: 50}}, alist)
		_, ok = tx.(quota.LFSUsageTx)
		assert.True(t, ok)
		return nil
	}))
}
