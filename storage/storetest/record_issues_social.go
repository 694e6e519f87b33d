package storetest

import (
	"context"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/issues"
)

// The recording wrappers of issues.SocialTx.

func (x recIssuesTx) CreateReaction(ctx context.Context, r *issues.Reaction) error {
	x.rec.hit("issues.Tx.CreateReaction")
	return x.Tx.CreateReaction(ctx, r)
}

func (x recIssuesTx) DeleteReaction(ctx context.Context, issueID, commentID, userID forge.ID, content string) error {
	x.rec.hit("issues.Tx.DeleteReaction")
	return x.Tx.DeleteReaction(ctx, issueID, commentID, userID, content)
}

func (x recIssuesTx) Reactions(ctx context.Context, issueID, commentID forge.ID, o forge.ListOptions) ([]*issues.Reaction, int64, error) {
	x.rec.hit("issues.Tx.Reactions")
	return x.Tx.Reactions(ctx, issueID, commentID, o)
}

func (x recIssuesTx) SetIssueWatch(ctx context.Context, w *issues.IssueWatch) error {
	x.rec.hit("issues.Tx.SetIssueWatch")
	return x.Tx.SetIssueWatch(ctx, w)
}

func (x recIssuesTx) IssueWatch(ctx context.Context, userID, issueID forge.ID) (*issues.IssueWatch, error) {
	x.rec.hit("issues.Tx.IssueWatch")
	return x.Tx.IssueWatch(ctx, userID, issueID)
}

func (x recIssuesTx) IssueWatchers(ctx context.Context, issueID forge.ID, o forge.ListOptions) ([]*issues.IssueWatch, int64, error) {
	x.rec.hit("issues.Tx.IssueWatchers")
	return x.Tx.IssueWatchers(ctx, issueID, o)
}

func (x recIssuesTx) PinnedIssues(ctx context.Context, repoID forge.ID, isPull bool) ([]*issues.Issue, error) {
	x.rec.hit("issues.Tx.PinnedIssues")
	return x.Tx.PinnedIssues(ctx, repoID, isPull)
}

func (x recIssuesTx) CreateCrossRef(ctx context.Context, r *issues.CrossRef) error {
	x.rec.hit("issues.Tx.CreateCrossRef")
	return x.Tx.CreateCrossRef(ctx, r)
}

func (x recIssuesTx) CrossRefs(ctx context.Context, commentIDs []forge.ID) (map[forge.ID]*issues.CrossRef, error) {
	x.rec.hit("issues.Tx.CrossRefs")
	return x.Tx.CrossRefs(ctx, commentIDs)
}

func (x recIssuesTx) CrossRefsFrom(ctx context.Context, refIssueID, refCommentID forge.ID) ([]*issues.CrossRef, error) {
	x.rec.hit("issues.Tx.CrossRefsFrom")
	return x.Tx.CrossRefsFrom(ctx, refIssueID, refCommentID)
}

func (x recIssuesTx) SetCrossRefAction(ctx context.Context, commentID forge.ID, action issues.RefAction) error {
	x.rec.hit("issues.Tx.SetCrossRefAction")
	return x.Tx.SetCrossRefAction(ctx, commentID, action)
}
