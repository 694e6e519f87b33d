package issues

import (
	"context"
	"io"
	"time"

	"github.com/hearthforge/hearth/forge"
)

var errTODO = forge.Errorf(forge.ErrPrecondition, "issues: not implemented yet")

// Create opens an issue in owner/repo for the actor (write:issue; any
// actor who may read the issues unit). Labels, milestone, assignees and
// deadline are applied only for writers of the issues unit (ignored
// otherwise, as Forgejo). Returns forge.ErrInvalid `[Title]: Required` for
// an empty title, a not-found error for a repository the actor may not see
// or without issues, forge.ErrArchived for an archived repository.
func (s *Service) Create(ctx context.Context, actor forge.Actor, owner, repo string, opt CreateIssueOption) (*IssueView, error) {
	return nil, errTODO
}

// Get returns issue index of owner/repo (read:issue). forge.ErrNotFound
// (ErrIssueNotFound) if there is none or the actor may not read it.
func (s *Service) Get(ctx context.Context, actor forge.Actor, owner, repo string, index int64) (*IssueView, error) {
	return nil, errTODO
}

// List returns one page of owner/repo's issues matching opt, and their
// number (read:issue).
func (s *Service) List(ctx context.Context, actor forge.Actor, owner, repo string, opt ListIssuesOption) ([]*IssueView, int64, error) {
	return nil, 0, errTODO
}

// Edit changes issue index (write:issue) and returns it as re-read.
// Posters may change title, body, ref and state; writers of the issues unit
// everything. Returns ErrNotPoster (a bare forge.ErrForbidden) when the
// actor is neither; the errors of CheckUpdatedAt; forge.ErrInvalid `The
// due_date cannot be empty`; forge.ErrNotFound for an unknown milestone or
// assignee. Nothing is changed when it fails.
func (s *Service) Edit(ctx context.Context, actor forge.Actor, owner, repo string, index int64, opt EditIssueOption) (*IssueView, error) {
	return nil, errTODO
}

// Delete removes issue index with its comments, labels and attachments
// (write:issue; repository admins and site administrators only, as
// Forgejo). Attachment blobs are deleted after the commit.
func (s *Service) Delete(ctx context.Context, actor forge.Actor, owner, repo string, index int64) error {
	return errTODO
}

// CreateComment comments on issue index (write:issue). Returns
// forge.ErrInvalid `[Body]: Required` for an empty body, ErrIssueNotFound,
// forge.ErrForbidden `You cannot comment on a locked issue.`, the errors of
// CheckUpdatedAt, forge.ErrArchived.
func (s *Service) CreateComment(ctx context.Context, actor forge.Actor, owner, repo string, index int64, opt CreateCommentOption) (*CommentView, error) {
	return nil, errTODO
}

// GetComment returns comment id of owner/repo (read:issue); forge.ErrNotFound
// if it is not a comment of the repository or the actor may not read it.
func (s *Service) GetComment(ctx context.Context, actor forge.Actor, owner, repo string, id forge.ID) (*CommentView, error) {
	return nil, errTODO
}

// ListComments returns the plain comments of issue index updated in
// opt's bounds, oldest first, and their number (read:issue).
func (s *Service) ListComments(ctx context.Context, actor forge.Actor, owner, repo string, index int64, opt ListCommentsOption) ([]*CommentView, int64, error) {
	return nil, 0, errTODO
}

// ListRepoComments returns one page of the plain comments of every issue
// of owner/repo, and their number (read:issue).
func (s *Service) ListRepoComments(ctx context.Context, actor forge.Actor, owner, repo string, opt ListCommentsOption) ([]*CommentView, int64, error) {
	return nil, 0, errTODO
}

// EditComment changes a comment's body (write:issue; its poster or a writer
// of the issues unit, else ErrNotPoster). Returns ErrNotEditable (answer
// 204) for a comment type without content, the errors of CheckUpdatedAt,
// forge.ErrArchived (unless opt.Index is set: the deprecated route).
func (s *Service) EditComment(ctx context.Context, actor forge.Actor, owner, repo string, id forge.ID, opt EditCommentOption) (*CommentView, error) {
	return nil, errTODO
}

// DeleteComment removes a plain comment (write:issue; its poster or a
// writer, else ErrNotPoster). index, when non-zero, is the issue it must
// belong to (the deprecated route).
func (s *Service) DeleteComment(ctx context.Context, actor forge.Actor, owner, repo string, index int64, id forge.ID) error {
	return errTODO
}

// ListLabels returns owner/repo's labels in sort's order and their
// number (read:issue). o.Page 0 lists them all (Forgejo pages repository
// labels only when `page` is given).
func (s *Service) ListLabels(ctx context.Context, actor forge.Actor, owner, repo string, sort LabelSort, o forge.ListOptions) ([]*Label, int64, error) {
	return nil, 0, errTODO
}

// GetLabel returns a label of owner/repo by id (when idOrName is a number
// naming one) or else by name; ErrLabelNotFound if none.
func (s *Service) GetLabel(ctx context.Context, actor forge.Actor, owner, repo, idOrName string) (*Label, error) {
	return nil, errTODO
}

// CreateLabel adds a label to owner/repo (write:issue; writers of issues or
// pulls, else forge.ErrForbidden `user should have a permission to write to
// a repo`). forge.ErrInvalid `[Name]: Required`, `[Color]: Required`, or
// `bad color code: <c>`.
func (s *Service) CreateLabel(ctx context.Context, actor forge.Actor, owner, repo string, opt CreateLabelOption) (*Label, error) {
	return nil, errTODO
}

// EditLabel changes label id of owner/repo (as CreateLabel);
// ErrLabelNotFound if none.
func (s *Service) EditLabel(ctx context.Context, actor forge.Actor, owner, repo string, id forge.ID, opt EditLabelOption) (*Label, error) {
	return nil, errTODO
}

// DeleteLabel removes label id of owner/repo and takes it off every issue;
// ErrLabelNotFound if none.
func (s *Service) DeleteLabel(ctx context.Context, actor forge.Actor, owner, repo string, id forge.ID) error {
	return errTODO
}

// ListOrgLabels returns org's labels (read:organization), paged by o.
func (s *Service) ListOrgLabels(ctx context.Context, actor forge.Actor, org string, sort LabelSort, o forge.ListOptions) ([]*Label, int64, error) {
	return nil, 0, errTODO
}

// GetOrgLabel returns label id of org; ErrLabelNotFound if none.
func (s *Service) GetOrgLabel(ctx context.Context, actor forge.Actor, org string, id forge.ID) (*Label, error) {
	return nil, errTODO
}

// CreateOrgLabel adds a label to org (write:organization; owners of the
// organisation, else forge.ErrForbidden).
func (s *Service) CreateOrgLabel(ctx context.Context, actor forge.Actor, org string, opt CreateLabelOption) (*Label, error) {
	return nil, errTODO
}

// EditOrgLabel changes label id of org (as CreateOrgLabel).
func (s *Service) EditOrgLabel(ctx context.Context, actor forge.Actor, org string, id forge.ID, opt EditLabelOption) (*Label, error) {
	return nil, errTODO
}

// DeleteOrgLabel removes label id of org from it and from every issue.
func (s *Service) DeleteOrgLabel(ctx context.Context, actor forge.Actor, org string, id forge.ID) error {
	return errTODO
}

// IssueLabels returns the labels of issue index (read:issue).
func (s *Service) IssueLabels(ctx context.Context, actor forge.Actor, owner, repo string, index int64) ([]*Label, error) {
	return nil, errTODO
}

// AddLabels adds labels to issue index (write:issue; writers, else
// ErrNotPoster) and returns every label now on it. Unknown ids and names
// are ignored; exclusive scopes apply (ApplyExclusive). Each label added or
// removed is a CommentLabel dated opt.UpdatedAt when given.
func (s *Service) AddLabels(ctx context.Context, actor forge.Actor, owner, repo string, index int64, opt LabelsOption) ([]*Label, error) {
	return nil, errTODO
}

// ReplaceLabels sets the labels of issue index to opt's (none clears
// them), keeping the alphabetically last label of each exclusive scope
// (DedupExclusive); otherwise as AddLabels.
func (s *Service) ReplaceLabels(ctx context.Context, actor forge.Actor, owner, repo string, index int64, opt LabelsOption) ([]*Label, error) {
	return nil, errTODO
}

// ClearLabels removes every label of issue index (as AddLabels).
func (s *Service) ClearLabels(ctx context.Context, actor forge.Actor, owner, repo string, index int64, updatedAt *time.Time) error {
	return errTODO
}

// RemoveLabel takes one label off issue index: identifier is a repository
// label name, else an organisation label name, else a label id. Returns
// the labels left on the issue; ErrLabelNotFound (answer 422) when the
// identifier names no label; removing a label the issue does not have
// succeeds.
func (s *Service) RemoveLabel(ctx context.Context, actor forge.Actor, owner, repo string, index int64, identifier string, updatedAt *time.Time) ([]*Label, error) {
	return nil, errTODO
}

// ListMilestones returns one page of owner/repo's milestones (read:issue).
func (s *Service) ListMilestones(ctx context.Context, actor forge.Actor, owner, repo string, opt ListMilestonesOption) ([]*Milestone, int64, error) {
	return nil, 0, errTODO
}

// GetMilestone returns a milestone by id (when idOrName parses as an
// integer naming one) or else by title; ErrMilestoneNotFound if none.
func (s *Service) GetMilestone(ctx context.Context, actor forge.Actor, owner, repo, idOrName string) (*Milestone, error) {
	return nil, errTODO
}

// CreateMilestone adds a milestone to owner/repo (write:issue; writers).
func (s *Service) CreateMilestone(ctx context.Context, actor forge.Actor, owner, repo string, opt CreateMilestoneOption) (*Milestone, error) {
	return nil, errTODO
}

// EditMilestone changes a milestone (as GetMilestone and CreateMilestone).
func (s *Service) EditMilestone(ctx context.Context, actor forge.Actor, owner, repo, idOrName string, opt EditMilestoneOption) (*Milestone, error) {
	return nil, errTODO
}

// DeleteMilestone removes a milestone; its issues keep none.
func (s *Service) DeleteMilestone(ctx context.Context, actor forge.Actor, owner, repo, idOrName string) error {
	return errTODO
}

// CreateIssueAttachment attaches a file to issue index (write:issue; its
// poster, a writer or a repository/site admin, else forge.ErrForbidden
// `user should have permission to write issue`). The date of opt.UpdatedAt
// (CheckUpdatedAt) is the attachment's creation and the issue's update.
// forge.ErrNotFound when Config.Blobs is nil.
func (s *Service) CreateIssueAttachment(ctx context.Context, actor forge.Actor, owner, repo string, index int64, opt UploadOption) (*Attachment, error) {
	return nil, errTODO
}

// CreateCommentAttachment attaches a file to comment id (its poster or a
// writer, else forge.ErrForbidden `user should have permission to edit
// comment`), as CreateIssueAttachment.
func (s *Service) CreateCommentAttachment(ctx context.Context, actor forge.Actor, owner, repo string, id forge.ID, opt UploadOption) (*Attachment, error) {
	return nil, errTODO
}

// OpenAttachment returns an attachment by UUID with its bytes, for
// /attachments/{uuid}, if the actor may read its repository's issues;
// ErrAttachmentNotFound otherwise.
func (s *Service) OpenAttachment(ctx context.Context, actor forge.Actor, uuid string) (*Attachment, io.ReadCloser, error) {
	return nil, nil, errTODO
}
