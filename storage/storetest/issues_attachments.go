package storetest

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/issues"
)

func attachmentNames(list []*issues.Attachment) []string {
	return pluck(list, func(a *issues.Attachment) string { return a.Name })
}

func testIssueAttachments(t *testing.T, b Backend) {
	ctx := context.Background()
	s := b.Issues()
	ann, r := newUserRepo(t, b, "aann", "files")
	i1, i2 := newIssue(t, s, r.ID, ann.ID, "one"), newIssue(t, s, r.ID, ann.ID, "two")
	c1 := &issues.Comment{IssueID: i1.ID, PosterID: ann.ID, Body: "see file", Created: issueAt, Updated: issueAt}
	c2 := &issues.Comment{IssueID: i2.ID, PosterID: ann.ID, Body: "and this", Created: issueAt, Updated: issueAt}
	issueUpdate(t, s, func(tx issues.Tx) error {
		if err := tx.CreateComment(ctx, c1); err != nil {
			return err
		}
		return tx.CreateComment(ctx, c2)
	})

	n := 0
	mk := func(issue, comment forge.ID, name string) *issues.Attachment {
		n++
		a := &issues.Attachment{UUID: "uuid-" + name, RepoID: r.ID, IssueID: issue, CommentID: comment,
			UploaderID: ann.ID, Name: name, Size: int64(100 * n), DownloadCount: int64(n), Created: issueAt}
		issueUpdate(t, s, func(tx issues.Tx) error { return tx.CreateAttachment(ctx, a) })
		require.NotZero(t, a.ID)
		return a
	}
	onI1 := mk(i1.ID, 0, "i1.png")
	onC1 := mk(i1.ID, c1.ID, "c1.txt")
	onI2 := mk(i2.ID, 0, "i2.zip")
	onC2 := mk(i2.ID, c2.ID, "c2.log")
	mk(i1.ID, 0, "i1-second.png")

	want := *onC1
	issueView(t, s, func(tx issues.Tx) error {
		got, err := tx.AttachmentByID(ctx, onC1.ID)
		wantRoundTrip(t, "attachment", &want, got, err)
		got, err = tx.AttachmentByUUID(ctx, "uuid-c1.txt")
		require.NoError(t, err)
		assert.Equal(t, &want, got)
		_, err = tx.AttachmentByID(ctx, 9999)
		assert.ErrorIs(t, err, forge.ErrNotFound)
		_, err = tx.AttachmentByUUID(ctx, "nope")
		assert.ErrorIs(t, err, forge.ErrNotFound)

		for name, tc := range map[string]struct {
			f    issues.AttachmentFilter
			want []string
		}{
			"nothing":             {issues.AttachmentFilter{}, []string{}},
			"an issue's own":      {issues.AttachmentFilter{IssueIDs: []forge.ID{i1.ID}}, []string{"i1.png", "i1-second.png"}},
			"a comment's":         {issues.AttachmentFilter{CommentIDs: []forge.ID{c1.ID}}, []string{"c1.txt"}},
			"the union, by id":    {issues.AttachmentFilter{IssueIDs: []forge.ID{i1.ID, i2.ID}, CommentIDs: []forge.ID{c2.ID}}, []string{"i1.png", "i2.zip", "c2.log", "i1-second.png"}},
			"unknown ids":         {issues.AttachmentFilter{IssueIDs: []forge.ID{9999}, CommentIDs: []forge.ID{9999}}, []string{}},
			"issues and comments": {issues.AttachmentFilter{IssueIDs: []forge.ID{i2.ID}, CommentIDs: []forge.ID{c1.ID}}, []string{"c1.txt", "i2.zip"}},
		} {
			list, err := tx.Attachments(ctx, tc.f)
			require.NoError(t, err, name)
			assert.Equal(t, tc.want, attachmentNames(list), name)
		}
		return nil
	})

	for name, tc := range map[string]struct {
		a    *issues.Attachment
		kind error
	}{
		"a taken uuid":     {&issues.Attachment{UUID: "uuid-i1.png", RepoID: r.ID, IssueID: i1.ID, Name: "x", Created: issueAt}, forge.ErrConflict},
		"an unknown issue": {&issues.Attachment{UUID: "u1", RepoID: r.ID, IssueID: 9999, Name: "x", Created: issueAt}, forge.ErrNotFound},
		"an unknown comment": {&issues.Attachment{UUID: "u2", RepoID: r.ID, IssueID: i1.ID, CommentID: 9999, Name: "x",
			Created: issueAt}, forge.ErrNotFound},
	} {
		err := s.Update(ctx, func(tx issues.Tx) error { return tx.CreateAttachment(ctx, tc.a) })
		assert.ErrorIs(t, err, tc.kind, name)
	}

	// Issue and release attachments are different things: the one store
	// does not see the other's.
	rel := &repos.Release{RepoID: r.ID, AuthorID: ann.ID, TagName: "v1", Target: "main", Created: issueAt}
	repoUpdate(t, b.Repos(), func(tx repos.Tx) error {
		if err := tx.CreateRelease(ctx, rel); err != nil {
			return err
		}
		return tx.CreateAttachment(ctx, &repos.Attachment{UUID: "uuid-release", RepoID: r.ID, ReleaseID: rel.ID,
			UploaderID: ann.ID, Name: "release.tar", Created: issueAt})
	})
	wantNotFound(t, s, func(ctx context.Context, tx issues.Tx) error {
		_, err := tx.AttachmentByUUID(ctx, "uuid-release")
		return err
	}, "a release attachment is not an issue attachment")

	// UpdateAttachment writes Name and DownloadCount only.
	changed := *onI2
	changed.Name, changed.DownloadCount, changed.Size, changed.UUID = "renamed.zip", 42, 1, "other-uuid"
	issueUpdate(t, s, func(tx issues.Tx) error { a := changed; return tx.UpdateAttachment(ctx, &a) })
	issueView(t, s, func(tx issues.Tx) error {
		got, err := tx.AttachmentByID(ctx, onI2.ID)
		require.NoError(t, err)
		w := *onI2
		w.Name, w.DownloadCount = "renamed.zip", 42
		assert.Equal(t, &w, got)
		return nil
	})
	err := s.Update(ctx, func(tx issues.Tx) error { a := changed; a.ID = 9999; return tx.UpdateAttachment(ctx, &a) })
	assert.ErrorIs(t, err, forge.ErrNotFound)

	wantDeleteOnce(t, s, func(ctx context.Context, tx issues.Tx) error { return tx.DeleteAttachment(ctx, onI1.ID) })

	// Deleting a comment deletes its attachments; deleting an issue, all of
	// its own and its comments'.
	issueUpdate(t, s, func(tx issues.Tx) error { return tx.DeleteComment(ctx, c1.ID) })
	issueUpdate(t, s, func(tx issues.Tx) error { return tx.DeleteIssue(ctx, i2.ID) })
	issueView(t, s, func(tx issues.Tx) error {
		for _, id := range []forge.ID{onC1.ID, onI2.ID, onC2.ID} {
			_, err := tx.AttachmentByID(ctx, id)
			assert.ErrorIs(t, err, forge.ErrNotFound)
		}
		list, err := tx.Attachments(ctx, issues.AttachmentFilter{IssueIDs: []forge.ID{i1.ID}})
		require.NoError(t, err)
		assert.Equal(t, []string{"i1-second.png"}, attachmentNames(list))
		return nil
	})
}
