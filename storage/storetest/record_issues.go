package storetest

import (
	"context"
	"reflect"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/issues"
)

// The recording wrappers of issues.Store and issues.Tx.

type recIssuesStore struct {
	s   issues.Store
	rec *recorder
}

func (r recIssuesStore) Update(ctx context.Context, fn func(issues.Tx) error) error {
	return r.s.Update(ctx, func(tx issues.Tx) error { return fn(r.wrap(tx)) })
}

func (r recIssuesStore) View(ctx context.Context, fn func(issues.Tx) error) error {
	return r.s.View(ctx, func(tx issues.Tx) error { return fn(r.wrap(tx)) })
}

// wrap records tx's calls, keeping the optional interfaces it has.
func (r recIssuesStore) wrap(tx issues.Tx) issues.Tx {
	rt := recIssuesTx{tx, r.rec}
	if br, ok := tx.(issues.BlockReader); ok {
		return recIssuesBlockTx{rt, br}
	}
	return rt
}

type recIssuesBlockTx struct {
	recIssuesTx
	br issues.BlockReader
}

func (x recIssuesBlockTx) IsBlockedByAny(ctx context.Context, blockerIDs []forge.ID, userID forge.ID) (bool, error) {
	x.rec.hit("issues.BlockReader.IsBlockedByAny")
	return x.br.IsBlockedByAny(ctx, blockerIDs, userID)
}

// addIssueInterfaces adds to m the issues interfaces the suite must cover
// for b: issues.Tx, and issues.BlockReader when b's transactions read
// blocks.
func addIssueInterfaces(m map[string]reflect.Type, b Backend) {
	m["issues.Tx"] = reflect.TypeFor[issues.Tx]()
	_ = b.Issues().View(context.Background(), func(tx issues.Tx) error {
		if _, ok := tx.(issues.BlockReader); ok {
			m["issues.BlockReader"] = reflect.TypeFor[issues.BlockReader]()
		}
		return nil
	})
}

type recIssuesTx struct {
	issues.Tx
	rec *recorder
}

func (x recIssuesTx) UserByName(ctx context.Context, name string) (*forge.User, error) {
	x.rec.hit("issues.Tx.UserByName")
	return x.Tx.UserByName(ctx, name)
}

func (x recIssuesTx) UserByID(ctx context.Context, id forge.ID) (*forge.User, error) {
	x.rec.hit("issues.Tx.UserByID")
	return x.Tx.UserByID(ctx, id)
}

func (x recIssuesTx) UsersByID(ctx context.Context, ids []forge.ID) (map[forge.ID]*forge.User, error) {
	x.rec.hit("issues.Tx.UsersByID")
	return x.Tx.UsersByID(ctx, ids)
}

func (x recIssuesTx) NextIssueIndex(ctx context.Context, repoID forge.ID) (int64, error) {
	x.rec.hit("issues.Tx.NextIssueIndex")
	return x.Tx.NextIssueIndex(ctx, repoID)
}

func (x recIssuesTx) CreateIssue(ctx context.Context, i *issues.Issue) error {
	x.rec.hit("issues.Tx.CreateIssue")
	return x.Tx.CreateIssue(ctx, i)
}

func (x recIssuesTx) IssueByIndex(ctx context.Context, repoID forge.ID, index int64) (*issues.Issue, error) {
	x.rec.hit("issues.Tx.IssueByIndex")
	return x.Tx.IssueByIndex(ctx, repoID, index)
}

func (x recIssuesTx) IssueByID(ctx context.Context, id forge.ID) (*issues.Issue, error) {
	x.rec.hit("issues.Tx.IssueByID")
	return x.Tx.IssueByID(ctx, id)
}

func (x recIssuesTx) IssuesByID(ctx context.Context, ids []forge.ID) (map[forge.ID]*issues.Issue, error) {
	x.rec.hit("issues.Tx.IssuesByID")
	return x.Tx.IssuesByID(ctx, ids)
}

func (x recIssuesTx) UpdateIssue(ctx context.Context, i *issues.Issue) error {
	x.rec.hit("issues.Tx.UpdateIssue")
	return x.Tx.UpdateIssue(ctx, i)
}

func (x recIssuesTx) DeleteIssue(ctx context.Context, id forge.ID) error {
	x.rec.hit("issues.Tx.DeleteIssue")
	return x.Tx.DeleteIssue(ctx, id)
}

func (x recIssuesTx) ListIssues(ctx context.Context, f issues.IssueFilter, o forge.ListOptions) ([]*issues.Issue, int64, error) {
	x.rec.hit("issues.Tx.ListIssues")
	return x.Tx.ListIssues(ctx, f, o)
}

func (x recIssuesTx) IssueCounts(ctx context.Context, repoIDs []forge.ID, pulls bool) (map[forge.ID]issues.IssueCount, error) {
	x.rec.hit("issues.Tx.IssueCounts")
	return x.Tx.IssueCounts(ctx, repoIDs, pulls)
}

func (x recIssuesTx) SetAssignees(ctx context.Context, issueID forge.ID, userIDs []forge.ID) error {
	x.rec.hit("issues.Tx.SetAssignees")
	return x.Tx.SetAssignees(ctx, issueID, userIDs)
}

func (x recIssuesTx) Assignees(ctx context.Context, issueIDs []forge.ID) (map[forge.ID][]forge.ID, error) {
	x.rec.hit("issues.Tx.Assignees")
	return x.Tx.Assignees(ctx, issueIDs)
}

func (x recIssuesTx) CreateComment(ctx context.Context, c *issues.Comment) error {
	x.rec.hit("issues.Tx.CreateComment")
	return x.Tx.CreateComment(ctx, c)
}

func (x recIssuesTx) CommentByID(ctx context.Context, id forge.ID) (*issues.Comment, error) {
	x.rec.hit("issues.Tx.CommentByID")
	return x.Tx.CommentByID(ctx, id)
}

func (x recIssuesTx) UpdateComment(ctx context.Context, c *issues.Comment) error {
	x.rec.hit("issues.Tx.UpdateComment")
	return x.Tx.UpdateComment(ctx, c)
}

func (x recIssuesTx) DeleteComment(ctx context.Context, id forge.ID) error {
	x.rec.hit("issues.Tx.DeleteComment")
	return x.Tx.DeleteComment(ctx, id)
}

func (x recIssuesTx) ListComments(ctx context.Context, f issues.CommentFilter, o forge.ListOptions) ([]*issues.Comment, int64, error) {
	x.rec.hit("issues.Tx.ListComments")
	return x.Tx.ListComments(ctx, f, o)
}

func (x recIssuesTx) CreateLabel(ctx context.Context, l *issues.Label) error {
	x.rec.hit("issues.Tx.CreateLabel")
	return x.Tx.CreateLabel(ctx, l)
}

func (x recIssuesTx) LabelByID(ctx context.Context, id forge.ID) (*issues.Label, error) {
	x.rec.hit("issues.Tx.LabelByID")
	return x.Tx.LabelByID(ctx, id)
}

func (x recIssuesTx) UpdateLabel(ctx context.Context, l *issues.Label) error {
	x.rec.hit("issues.Tx.UpdateLabel")
	return x.Tx.UpdateLabel(ctx, l)
}

func (x recIssuesTx) DeleteLabel(ctx context.Context, id forge.ID) error {
	x.rec.hit("issues.Tx.DeleteLabel")
	return x.Tx.DeleteLabel(ctx, id)
}

func (x recIssuesTx) ListLabels(ctx context.Context, f issues.LabelFilter, o forge.ListOptions) ([]*issues.Label, int64, error) {
	x.rec.hit("issues.Tx.ListLabels")
	return x.Tx.ListLabels(ctx, f, o)
}

func (x recIssuesTx) SetIssueLabels(ctx context.Context, issueID forge.ID, labelIDs []forge.ID) error {
	x.rec.hit("issues.Tx.SetIssueLabels")
	return x.Tx.SetIssueLabels(ctx, issueID, labelIDs)
}

func (x recIssuesTx) IssueLabels(ctx context.Context, issueIDs []forge.ID) (map[forge.ID][]*issues.Label, error) {
	x.rec.hit("issues.Tx.IssueLabels")
	return x.Tx.IssueLabels(ctx, issueIDs)
}

func (x recIssuesTx) CreateMilestone(ctx context.Context, m *issues.Milestone) error {
	x.rec.hit("issues.Tx.CreateMilestone")
	return x.Tx.CreateMilestone(ctx, m)
}

func (x recIssuesTx) MilestoneByID(ctx context.Context, repoID forge.ID, id forge.ID) (*issues.Milestone, error) {
	x.rec.hit("issues.Tx.MilestoneByID")
	return x.Tx.MilestoneByID(ctx, repoID, id)
}

func (x recIssuesTx) MilestonesByID(ctx context.Context, ids []forge.ID) (map[forge.ID]*issues.Milestone, error) {
	x.rec.hit("issues.Tx.MilestonesByID")
	return x.Tx.MilestonesByID(ctx, ids)
}

func (x recIssuesTx) UpdateMilestone(ctx context.Context, m *issues.Milestone) error {
	x.rec.hit("issues.Tx.UpdateMilestone")
	return x.Tx.UpdateMilestone(ctx, m)
}

func (x recIssuesTx) DeleteMilestone(ctx context.Context, id forge.ID) error {
	x.rec.hit("issues.Tx.DeleteMilestone")
	return x.Tx.DeleteMilestone(ctx, id)
}

func (x recIssuesTx) ListMilestones(ctx context.Context, f issues.MilestoneFilter, o forge.ListOptions) ([]*issues.Milestone, int64, error) {
	x.rec.hit("issues.Tx.ListMilestones")
	return x.Tx.ListMilestones(ctx, f, o)
}

func (x recIssuesTx) CreateAttachment(ctx context.Context, a *issues.Attachment) error {
	x.rec.hit("issues.Tx.CreateAttachment")
	return x.Tx.CreateAttachment(ctx, a)
}

func (x recIssuesTx) AttachmentByID(ctx context.Context, id forge.ID) (*issues.Attachment, error) {
	x.rec.hit("issues.Tx.AttachmentByID")
	return x.Tx.AttachmentByID(ctx, id)
}

func (x recIssuesTx) AttachmentByUUID(ctx context.Context, uuid string) (*issues.Attachment, error) {
	x.rec.hit("issues.Tx.AttachmentByUUID")
	return x.Tx.AttachmentByUUID(ctx, uuid)
}

func (x recIssuesTx) UpdateAttachment(ctx context.Context, a *issues.Attachment) error {
	x.rec.hit("issues.Tx.UpdateAttachment")
	return x.Tx.UpdateAttachment(ctx, a)
}

func (x recIssuesTx) DeleteAttachment(ctx context.Context, id forge.ID) error {
	x.rec.hit("issues.Tx.DeleteAttachment")
	return x.Tx.DeleteAttachment(ctx, id)
}

func (x recIssuesTx) Attachments(ctx context.Context, f issues.AttachmentFilter) ([]*issues.Attachment, error) {
	x.rec.hit("issues.Tx.Attachments")
	return x.Tx.Attachments(ctx, f)
}
