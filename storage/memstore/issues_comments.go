package memstore

import (
	"cmp"
	"context"
	"slices"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/issues"
	"github.com/hearthforge/hearth/quota"
)

func (t issueTx) CreateComment(ctx context.Context, c *issues.Comment) error {
	if err := writeRef(ctx, t, t.st.issues, c.IssueID, "create comment: issue"); err != nil {
		return err
	}
	c.ID = t.st.nextID("comment")
	t.st.comments[c.ID] = inComment(c)
	return nil
}

func (t issueTx) CommentByID(ctx context.Context, id forge.ID) (*issues.Comment, error) {
	return readRow(ctx, t, t.st.comments, id, "comment")
}

func (t issueTx) UpdateComment(ctx context.Context, c *issues.Comment) error {
	return updateRow(ctx, t, t.st.comments, c.ID, "update comment", func(old issues.Comment) issues.Comment {
		v := inComment(c)
		v.IssueID, v.Type, v.Created = old.IssueID, old.Type, old.Created
		return v
	})
}

func (t issueTx) DeleteComment(ctx context.Context, id forge.ID) error {
	if _, err := writeRow(ctx, t, t.st.comments, id, "delete comment"); err != nil {
		return err
	}
	delete(t.st.comments, id)
	t.st.deleteIssueAssetsWhere(func(_ forge.ID, a issues.Attachment) bool { return a.CommentID == id }) // quota.go
	return nil
}

func (t issueTx) ListComments(ctx context.Context, f issues.CommentFilter, o forge.ListOptions) ([]*issues.Comment, int64, error) {
	if err := t.read(ctx); err != nil {
		return nil, 0, err
	}
	var all []issues.Comment
	for _, c := range t.st.comments {
		switch {
		case f.IssueID == 0 && f.RepoID == 0:
			continue
		case f.IssueID != 0 && c.IssueID != f.IssueID:
			continue
		case f.RepoID != 0 && t.st.issues[c.IssueID].RepoID != f.RepoID:
			continue
		case f.Types != nil && !slices.Contains(f.Types, c.Type):
			continue
		case f.IsPull != nil && t.st.issues[c.IssueID].IsPull != *f.IsPull:
			continue
		case !f.UpdatedSince.IsZero() && c.Updated.Before(f.UpdatedSince):
			continue
		case !f.UpdatedBefore.IsZero() && c.Updated.After(f.UpdatedBefore):
			continue
		}
		all = append(all, c)
	}
	out, n := sortedPage(all, func(a, b issues.Comment) int {
		return cmp.Or(a.Created.Compare(b.Created), cmp.Compare(a.ID, b.ID))
	}, o)
	return out, n, nil
}

func (t issueTx) CreateAttachment(ctx context.Context, a *issues.Attachment) error {
	if err := t.write(ctx); err != nil {
		return err
	}
	if _, ok := t.st.issues[a.IssueID]; !ok && a.IssueID != 0 {
		return missingRef("create attachment: issue")
	}
	if _, ok := t.st.comments[a.CommentID]; !ok && a.CommentID != 0 {
		return missingRef("create attachment: comment")
	}
	if err := conflictIf(t.st.issueAssets, func(o issues.Attachment) bool { return o.UUID == a.UUID }, "attachment uuid"); err != nil {
		return err
	}
	a.ID = t.st.nextID("attachment")
	v := *a
	v.Created = ts(a.Created)
	t.st.issueAssets[a.ID] = v
	t.st.countAsset(v.RepoID, quota.BucketAttachmentsIssues, v.Size) // quota.go
	return nil
}

func (t issueTx) AttachmentByID(ctx context.Context, id forge.ID) (*issues.Attachment, error) {
	return readRow(ctx, t, t.st.issueAssets, id, "attachment")
}

func (t issueTx) AttachmentByUUID(ctx context.Context, uuid string) (*issues.Attachment, error) {
	return findRow(ctx, t, t.st.issueAssets, func(a issues.Attachment) bool { return a.UUID == uuid }, "attachment")
}

func (t issueTx) UpdateAttachment(ctx context.Context, a *issues.Attachment) error {
	return updateRow(ctx, t, t.st.issueAssets, a.ID, "update attachment", func(v issues.Attachment) issues.Attachment {
		v.Name, v.DownloadCount = a.Name, a.DownloadCount
		return v
	})
}

func (t issueTx) DeleteAttachment(ctx context.Context, id forge.ID) error {
	if _, err := writeRow(ctx, t, t.st.issueAssets, id, "delete attachment"); err != nil {
		return err
	}
	t.st.deleteIssueAssetsWhere(func(k forge.ID, _ issues.Attachment) bool { return k == id }) // quota.go
	return nil
}

func (t issueTx) Attachments(ctx context.Context, f issues.AttachmentFilter) ([]*issues.Attachment, error) {
	if err := t.read(ctx); err != nil {
		return nil, err
	}
	out := []*issues.Attachment{}
	for _, a := range t.st.issueAssets {
		if a.CommentID == 0 && slices.Contains(f.IssueIDs, a.IssueID) ||
			a.CommentID != 0 && slices.Contains(f.CommentIDs, a.CommentID) {
			out = append(out, &a)
		}
	}
	slices.SortFunc(out, func(a, b *issues.Attachment) int { return cmp.Compare(a.ID, b.ID) })
	return out, nil
}
