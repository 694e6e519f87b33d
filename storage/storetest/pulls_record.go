package storetest

import (
	"context"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/issues"
)

// The recording wrappers of issues.PullTx.

func (x recIssuesTx) CreatePull(ctx context.Context, p *issues.PullRequest) error {
	x.rec.hit("issues.Tx.CreatePull")
	return x.Tx.CreatePull(ctx, p)
}

func (x recIssuesTx) PullByIssueID(ctx context.Context, issueID forge.ID) (*issues.PullRequest, error) {
	x.rec.hit("issues.Tx.PullByIssueID")
	return x.Tx.PullByIssueID(ctx, issueID)
}

func (x recIssuesTx) PullsByIssueID(ctx context.Context, ids []forge.ID) (map[forge.ID]*issues.PullRequest, error) {
	x.rec.hit("issues.Tx.PullsByIssueID")
	return x.Tx.PullsByIssueID(ctx, ids)
}

func (x recIssuesTx) UpdatePull(ctx context.Context, p *issues.PullRequest) error {
	x.rec.hit("issues.Tx.UpdatePull")
	return x.Tx.UpdatePull(ctx, p)
}

func (x recIssuesTx) FindPulls(ctx context.Context, f issues.PullFilter) ([]*issues.PullRequest, error) {
	x.rec.hit("issues.Tx.FindPulls")
	return x.Tx.FindPulls(ctx, f)
}

func (x recIssuesTx) MarkPullsChecking(ctx context.Context, f issues.PullFilter) ([]forge.ID, error) {
	x.rec.hit("issues.Tx.MarkPullsChecking")
	return x.Tx.MarkPullsChecking(ctx, f)
}

func (x recIssuesTx) CreateReview(ctx context.Context, r *issues.Review) error {
	x.rec.hit("issues.Tx.CreateReview")
	return x.Tx.CreateReview(ctx, r)
}

func (x recIssuesTx) ReviewByID(ctx context.Context, id forge.ID) (*issues.Review, error) {
	x.rec.hit("issues.Tx.ReviewByID")
	return x.Tx.ReviewByID(ctx, id)
}

func (x recIssuesTx) UpdateReview(ctx context.Context, r *issues.Review) error {
	x.rec.hit("issues.Tx.UpdateReview")
	return x.Tx.UpdateReview(ctx, r)
}

func (x recIssuesTx) DeleteReview(ctx context.Context, id forge.ID) error {
	x.rec.hit("issues.Tx.DeleteReview")
	return x.Tx.DeleteReview(ctx, id)
}

func (x recIssuesTx) ListReviews(ctx context.Context, f issues.ReviewFilter, o forge.ListOptions) ([]*issues.Review, int64, error) {
	x.rec.hit("issues.Tx.ListReviews")
	return x.Tx.ListReviews(ctx, f, o)
}

func (x recIssuesTx) ReviewComments(ctx context.Context, ids []forge.ID) (map[forge.ID][]*issues.Comment, error) {
	x.rec.hit("issues.Tx.ReviewComments")
	return x.Tx.ReviewComments(ctx, ids)
}

func (x recIssuesTx) CreateAutoMerge(ctx context.Context, m *issues.AutoMerge) error {
	x.rec.hit("issues.Tx.CreateAutoMerge")
	return x.Tx.CreateAutoMerge(ctx, m)
}

func (x recIssuesTx) AutoMergeByPull(ctx context.Context, pullID forge.ID) (*issues.AutoMerge, error) {
	x.rec.hit("issues.Tx.AutoMergeByPull")
	return x.Tx.AutoMergeByPull(ctx, pullID)
}

func (x recIssuesTx) DeleteAutoMerge(ctx context.Context, pullID forge.ID) error {
	x.rec.hit("issues.Tx.DeleteAutoMerge")
	return x.Tx.DeleteAutoMerge(ctx, pullID)
}
