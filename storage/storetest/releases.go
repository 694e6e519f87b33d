package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

func testReleaseEdits(t *testing.T, b Backend) {
	ctx := context.Background()
	s := b.Repos()
	owner, r, other := newUserRepos(t, b, "rita", "rel", "other")
	at := time.Date(2024, 8, 1, 0, 0, 0, 0, time.UTC)
	v1 := &repos.Release{RepoID: r.ID, AuthorID: owner.ID, TagName: "v1", Target: "main", Created: at}
	v2 := &repos.Release{RepoID: r.ID, AuthorID: owner.ID, TagName: "v2", Target: "main", Prerelease: true, Name: "Beta", Created: at}
	for _, rel := range []*repos.Release{v1, v2} {
		repoUpdate(t, s, func(tx repos.Tx) error { return tx.CreateRelease(ctx, rel) })
	}
	err := s.Update(ctx, func(tx repos.Tx) error {
		return tx.CreateRelease(ctx, &repos.Release{RepoID: 9999, TagName: "v1", Target: "main", Created: at})
	})
	assert.ErrorIs(t, err, forge.ErrNotFound, "a release needs an existing repository")

	require.NoError(t, s.View(ctx, func(tx repos.Tx) error {
		got, err := tx.ReleaseByID(ctx, r.ID, v1.ID)
		require.NoError(t, err)
		assert.Equal(t, v1, got)
		_, err = tx.ReleaseByID(ctx, other.ID, v1.ID)
		assert.ErrorIs(t, err, forge.ErrNotFound, "releases are found through their repository")
		_, err = tx.ReleaseByTag(ctx, r.ID, "v9")
		assert.ErrorIs(t, err, forge.ErrNotFound)
		list, total, err := tx.ListReleases(ctx, r.ID, repos.ReleaseFilter{}, forge.ListOptions{Page: 1, Limit: 1})
		require.NoError(t, err)
		assert.EqualValues(t, 2, total)
		assert.Equal(t, []*repos.Release{v2}, list, "same time: newest id first")
		pre := true
		list, total, _ = tx.ListReleases(ctx, r.ID, repos.ReleaseFilter{Prerelease: &pre}, forge.ListOptions{Page: 1, Limit: 10})
		assert.EqualValues(t, 1, total)
		assert.Equal(t, []*repos.Release{v2}, list)
		_, total, _ = tx.ListReleases(ctx, r.ID, repos.ReleaseFilter{Keyword: "BET"}, forge.ListOptions{Page: 1, Limit: 10})
		assert.EqualValues(t, 1, total, "keywords match names, ignoring case")
		_, total, _ = tx.ListReleases(ctx, r.ID, repos.ReleaseFilter{Keyword: "V1"}, forge.ListOptions{Page: 1, Limit: 10})
		assert.EqualValues(t, 1, total, "and tags")
		return nil
	}))

	// UpdateRelease: tags stay unique, ignoring case.
	err = s.Update(ctx, func(tx repos.Tx) error { e := *v2; e.TagName = "V1"; return tx.UpdateRelease(ctx, &e) })
	assert.ErrorIs(t, err, forge.ErrConflict)
	err = s.Update(ctx, func(tx repos.Tx) error { e := *v2; e.ID = 9999; return tx.UpdateRelease(ctx, &e) })
	assert.ErrorIs(t, err, forge.ErrNotFound)
	v2.Name, v2.Body, v2.Draft, v2.Prerelease, v2.TagName = "Two", "notes", true, false, "v2.0"
	repoUpdate(t, s, func(tx repos.Tx) error { return tx.UpdateRelease(ctx, v2) })
	require.NoError(t, s.View(ctx, func(tx repos.Tx) error {
		got, err := tx.ReleaseByTag(ctx, r.ID, "V2.0")
		require.NoError(t, err)
		assert.Equal(t, v2, got)
		draft := true
		_, total, _ := tx.ListReleases(ctx, r.ID, repos.ReleaseFilter{IncludeDrafts: true, Draft: &draft}, forge.ListOptions{Page: 1, Limit: 10})
		assert.EqualValues(t, 1, total)
		return nil
	}))

	// Attachments.
	as := []*repos.Attachment{
		{UUID: "a-1", RepoID: r.ID, ReleaseID: v1.ID, UploaderID: owner.ID, Name: "one.zip", Size: 1, Created: at},
		{UUID: "a-2", RepoID: r.ID, ReleaseID: v1.ID, UploaderID: owner.ID, Name: "two.zip", Size: 2, Created: at},
		{UUID: "a-3", RepoID: r.ID, ReleaseID: v2.ID, UploaderID: owner.ID, Name: "x", ExternalURL: "https://x.example", Created: at},
	}
	for _, a := range as {
		repoUpdate(t, s, func(tx repos.Tx) error { return tx.CreateAttachment(ctx, a) })
	}
	for name, a := range map[string]*repos.Attachment{
		"same uuid":          {UUID: "a-1", RepoID: r.ID, ReleaseID: v1.ID, Name: "dup", Created: at},
		"no such release":    {UUID: "a-9", RepoID: r.ID, ReleaseID: 9999, Name: "x", Created: at},
		"no such repository": {UUID: "a-8", RepoID: 9999, ReleaseID: v1.ID, Name: "x", Created: at},
	} {
		err := s.Update(ctx, func(tx repos.Tx) error { return tx.CreateAttachment(ctx, a) })
		if name == "same uuid" {
			assert.ErrorIs(t, err, forge.ErrConflict, name)
		} else {
			assert.ErrorIs(t, err, forge.ErrNotFound, name)
		}
	}
	as[0].Name, as[0].Downloads, as[0].ExternalURL = "renamed.zip", 7, ""
	repoUpdate(t, s, func(tx repos.Tx) error { return tx.UpdateAttachment(ctx, as[0]) })
	err = s.Update(ctx, func(tx repos.Tx) error { return tx.UpdateAttachment(ctx, &repos.Attachment{ID: 9999, Name: "x"}) })
	assert.ErrorIs(t, err, forge.ErrNotFound)
	require.NoError(t, s.View(ctx, func(tx repos.Tx) error {
		list, err := tx.ListAttachments(ctx, v1.ID)
		require.NoError(t, err)
		assert.Equal(t, as[:2], list, "by id, as updated")
		list, err = tx.ListAttachments(ctx, 9999)
		require.NoError(t, err)
		assert.NotNil(t, list)
		assert.Empty(t, list)
		of, err := tx.AttachmentsOf(ctx, []forge.ID{v1.ID, 9999})
		require.NoError(t, err)
		assert.Equal(t, map[forge.ID][]*repos.Attachment{v1.ID: as[:2]}, of, "by release, by id; none for a release without any")
		of, err = tx.AttachmentsOf(ctx, nil)
		require.NoError(t, err)
		assert.NotNil(t, of)
		assert.Empty(t, of)
		_, err = tx.AttachmentByUUID(ctx, "nope")
		assert.ErrorIs(t, err, forge.ErrNotFound)
		return nil
	}))
	wantDeleteOnce(t, s, func(ctx context.Context, tx repos.Tx) error { return tx.DeleteAttachment(ctx, as[1].ID) })
	err = s.Update(ctx, func(tx repos.Tx) error { return tx.DeleteRelease(ctx, 9999) })
	assert.ErrorIs(t, err, forge.ErrNotFound)

	// Deleting the repository takes releases, attachments and statuses.
	st := &repos.CommitStatus{RepoID: r.ID, SHA: "abc", State: repos.StatusSuccess, Context: "ci", CreatorID: owner.ID, Created: at, Updated: at}
	repoUpdate(t, s, func(tx repos.Tx) error { return tx.CreateStatus(ctx, st) })
	err = s.Update(ctx, func(tx repos.Tx) error {
		return tx.CreateStatus(ctx, &repos.CommitStatus{RepoID: 9999, SHA: "abc", State: repos.StatusSuccess, Created: at, Updated: at})
	})
	assert.ErrorIs(t, err, forge.ErrNotFound, "a status needs an existing repository")
	repoUpdate(t, s, func(tx repos.Tx) error { return tx.DeleteRepo(ctx, r.ID) })
	require.NoError(t, s.View(ctx, func(tx repos.Tx) error {
		_, err := tx.ReleaseByID(ctx, r.ID, v1.ID)
		assert.ErrorIs(t, err, forge.ErrNotFound)
		_, err = tx.Attachment(ctx, as[0].ID)
		assert.ErrorIs(t, err, forge.ErrNotFound)
		_, err = tx.Attachment(ctx, as[2].ID)
		assert.ErrorIs(t, err, forge.ErrNotFound)
		_, total, err := tx.ListStatuses(ctx, r.ID, "abc", repos.StatusFilter{}, forge.ListOptions{Page: 1, Limit: 10})
		require.NoError(t, err)
		assert.Zero(t, total)
		return nil
	}))
}
