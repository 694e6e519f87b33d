package sqlstore

import (
	"context"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/issues"
)

// issueAttachmentCols reads an issue attachment a; comment_id is NULL for an
// attachment of the issue itself (the domain's 0).
const issueAttachmentCols = `a.id, a.uuid, a.repo_id, a.issue_id, coalesce(a.comment_id, 0), a.uploader_id, a.name,
	a.size, a.download_count, a.created_unix`

func issueAttachmentDest() (*issues.Attachment, []any, func()) {
	a := &issues.Attachment{}
	var created int64
	return a, []any{&a.ID, &a.UUID, &a.RepoID, &a.IssueID, &a.CommentID, &a.UploaderID, &a.Name,
		&a.Size, &a.DownloadCount, &created}, func() { a.Created = fromUnix(created) }
}

var (
	sqlCreateIssueAttachment = prepared(`INSERT INTO issue_attachment (uuid, repo_id, issue_id, comment_id, uploader_id,
		name, size, download_count, created_unix) VALUES (?,?,?,nullif(CAST(? AS BIGINT), 0),?,?,?,?,?) RETURNING id`)
	sqlIssueAttachmentByID   = prepared("SELECT " + issueAttachmentCols + " FROM issue_attachment a WHERE a.id = ?")
	sqlIssueAttachmentByUUID = prepared("SELECT " + issueAttachmentCols + " FROM issue_attachment a WHERE a.uuid = ?")
	sqlUpdateIssueAttachment = prepared(`UPDATE issue_attachment SET name = ?, download_count = ? WHERE id = ?`)
	sqlDeleteIssueAttachment = prepared(`DELETE FROM issue_attachment WHERE id = ?`)
	sqlIssueAttachments      = prepared("SELECT " + issueAttachmentCols + ` FROM issue_attachment a
		WHERE (a.comment_id IS NULL AND a.issue_id IN (SELECT CAST(value AS BIGINT) FROM json_each(?1)))
		OR a.comment_id IN (SELECT CAST(value AS BIGINT) FROM json_each(?2)) ORDER BY a.id`)
)

// CreateAttachment inserts an issue or comment attachment (issues.Tx).
func (t issueTx) CreateAttachment(ctx context.Context, a *issues.Attachment) error {
	return mapError(t.queryRow(ctx, sqlCreateIssueAttachment, a.UUID, a.RepoID, a.IssueID, a.CommentID, a.UploaderID,
		a.Name, a.Size, a.DownloadCount, toUnix(a.Created)).Scan(&a.ID), "attachment")
}

func (t issueTx) scanIssueAttachment(ctx context.Context, query string, arg any) (*issues.Attachment, error) {
	a, dest, done := issueAttachmentDest()
	if err := t.queryRow(ctx, query, arg).Scan(dest...); err != nil {
		return nil, mapError(err, "attachment")
	}
	done()
	return a, nil
}

func (t issueTx) AttachmentByID(ctx context.Context, id forge.ID) (*issues.Attachment, error) {
	return t.scanIssueAttachment(ctx, sqlIssueAttachmentByID, id)
}

// AttachmentByUUID finds an issue or comment attachment (issues.Tx).
func (t issueTx) AttachmentByUUID(ctx context.Context, uuid string) (*issues.Attachment, error) {
	return t.scanIssueAttachment(ctx, sqlIssueAttachmentByUUID, uuid)
}

// UpdateAttachment writes an issue attachment's name and download count
// (issues.Tx).
func (t issueTx) UpdateAttachment(ctx context.Context, a *issues.Attachment) error {
	res, err := t.exec(ctx, sqlUpdateIssueAttachment, a.Name, a.DownloadCount, a.ID)
	return affectedOne(res, err, "attachment")
}

// DeleteAttachment removes an issue attachment's row (issues.Tx).
func (t issueTx) DeleteAttachment(ctx context.Context, id forge.ID) error {
	res, err := t.exec(ctx, sqlDeleteIssueAttachment, id)
	return affectedOne(res, err, "attachment")
}

func (t issueTx) Attachments(ctx context.Context, f issues.AttachmentFilter) ([]*issues.Attachment, error) {
	out := []*issues.Attachment{}
	if len(f.IssueIDs) == 0 && len(f.CommentIDs) == 0 {
		return out, nil
	}
	return queryAll(ctx, t, fromDest(issueAttachmentDest), "attachments", sqlIssueAttachments, idList(f.IssueIDs), idList(f.CommentIDs))
}
