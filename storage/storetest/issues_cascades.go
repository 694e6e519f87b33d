package storetest

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/issues"
)

// testIssueCascades: what goes with a repository and with an account.
func testIssueCascades(t *testing.T, b Backend) {
	ctx := context.Background()
	s := b.Issues()
	ann, rs := newOwner(t, b, "xann", "doomed", "kept")
	r, kept := rs[0], rs[1]
	bob := newUser(t, b, "xbob")

	ms := &issues.Milestone{RepoID: r.ID, Title: "m", Deadline: issues.NoDeadline, Created: issueAt, Updated: issueAt}
	l := &issues.Label{RepoID: r.ID, Name: "l", Color: "#000000"}
	issueUpdate(t, s, func(tx issues.Tx) error {
		if err := tx.CreateMilestone(ctx, ms); err != nil {
			return err
		}
		return tx.CreateLabel(ctx, l)
	})
	i := newIssue(t, s, r.ID, bob.ID, "doomed issue", func(i *issues.Issue) { i.MilestoneID = ms.ID })
	other := newIssue(t, s, kept.ID, bob.ID, "kept issue")
	c := &issues.Comment{IssueID: i.ID, PosterID: bob.ID, Body: "c", Created: issueAt, Updated: issueAt}
	oc := &issues.Comment{IssueID: other.ID, PosterID: bob.ID, Body: "oc", Created: issueAt, Updated: issueAt}
	a := &issues.Attachment{UUID: "doomed-file", RepoID: r.ID, IssueID: i.ID, UploaderID: bob.ID, Name: "f", Created: issueAt}
	issueUpdate(t, s, func(tx issues.Tx) error {
		for _, c := range []*issues.Comment{c, oc} {
			if err := tx.CreateComment(ctx, c); err != nil {
				return err
			}
		}
		if err := tx.CreateAttachment(ctx, a); err != nil {
			return err
		}
		if err := tx.SetIssueLabels(ctx, i.ID, []forge.ID{l.ID}); err != nil {
			return err
		}
		if err := tx.SetAssignees(ctx, other.ID, []forge.ID{ann.ID, bob.ID}); err != nil {
			return err
		}
		return tx.SetAssignees(ctx, i.ID, []forge.ID{bob.ID})
	})

	// A deleted account is taken off the issues it was assigned; the issues
	// and comments it wrote stay (Forgejo shows them as the ghost's).
	update(t, b.Auth(), func(tx auth.Tx) error { return tx.DeleteUser(ctx, bob.ID) })
	issueView(t, s, func(tx issues.Tx) error {
		m, err := tx.Assignees(ctx, []forge.ID{i.ID, other.ID})
		require.NoError(t, err)
		assert.Equal(t, map[forge.ID][]forge.ID{other.ID: {ann.ID}}, m, "a deleted account is no assignee")
		got, err := tx.IssueByID(ctx, other.ID)
		require.NoError(t, err, "a deleted poster's issue stays")
		assert.Equal(t, bob.ID, got.PosterID)
		_, err = tx.CommentByID(ctx, oc.ID)
		assert.NoError(t, err, "a deleted poster's comment stays")
		return nil
	})

	// A deleted repository takes its issues, comments, labels, milestones,
	// attachments and index with it; other repositories keep theirs.
	repoUpdate(t, b.Repos(), func(tx repos.Tx) error { return tx.DeleteRepo(ctx, r.ID) })
	issueView(t, s, func(tx issues.Tx) error {
		_, err := tx.IssueByID(ctx, i.ID)
		assert.ErrorIs(t, err, forge.ErrNotFound, "issue")
		_, err = tx.CommentByID(ctx, c.ID)
		assert.ErrorIs(t, err, forge.ErrNotFound, "comment")
		_, err = tx.LabelByID(ctx, l.ID)
		assert.ErrorIs(t, err, forge.ErrNotFound, "label")
		_, err = tx.MilestoneByID(ctx, r.ID, ms.ID)
		assert.ErrorIs(t, err, forge.ErrNotFound, "milestone")
		_, err = tx.AttachmentByUUID(ctx, "doomed-file")
		assert.ErrorIs(t, err, forge.ErrNotFound, "attachment")
		m, err := tx.IssueLabels(ctx, []forge.ID{i.ID})
		require.NoError(t, err)
		assert.Empty(t, m, "issue labels")
		_, err = tx.IssueByID(ctx, other.ID)
		assert.NoError(t, err)
		_, err = tx.CommentByID(ctx, oc.ID)
		assert.NoError(t, err)
		return nil
	})
}
