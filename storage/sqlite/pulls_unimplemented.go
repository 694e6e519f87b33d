package sqlite

// Placeholder of issues.PullTx until the pull-request tables exist
// (helper "pullsql" replaces this file with storage/sqlite/pulls*.go and
// migration 00023; delete it then).

import (
	"context"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/issues"
)

var errPullsUnimplemented = forge.Errorf(forge.ErrNotFound, "sqlite: pull requests not implemented")

func (t issueTx) CreatePull(context.Context, *issues.PullRequest) error { return errPullsUnimplemented }
func (t issueTx) PullByIssueID(context.Context, forge.ID) (*issues.PullRequest, error) {
	return nil, errPullsUnimplemented
}
func (t issueTx) PullsByIssueID(context.Context, []forge.ID) (map[forge.ID]*issues.PullRequest, error) {
	return map[forge.ID]*issues.PullRequest{}, nil
}
func (t issueTx) UpdatePull(context.Context, *issues.PullRequest) error { return errPullsUnimplemented }
func (t issueTx) FindPulls(context.Context, issues.PullFilter) ([]*issues.PullRequest, error) {
	return []*issues.PullRequest{}, nil
}
func (t issueTx) CreateReview(context.Context, *issues.Review) error { return errPullsUnimplemented }
func (t issueTx) ReviewByID(context.Context, forge.ID) (*issues.Review, error) {
	return nil, errPullsUnimplemented
}
func (t issueTx) UpdateReview(context.Context, *issues.Review) error { return errPullsUnimplemented }
func (t issueTx) DeleteReview(context.Context, forge.ID) error       { return errPullsUnimplemented }
func (t issueTx) ListReviews(context.Context, issues.ReviewFilter, forge.ListOptions) ([]*issues.Review, int64, error) {
	return nil, 0, errPullsUnimplemented
}
func (t issueTx) ReviewComments(context.Context, []forge.ID) (map[forge.ID][]*issues.Comment, error) {
	return map[forge.ID][]*issues.Comment{}, nil
}
func (t issueTx) CreateAutoMerge(context.Context, *issues.AutoMerge) error {
	return errPullsUnimplemented
}
func (t issueTx) AutoMergeByPull(context.Context, forge.ID) (*issues.AutoMerge, error) {
	return nil, errPullsUnimplemented
}
func (t issueTx) DeleteAutoMerge(context.Context, forge.ID) error { return errPullsUnimplemented }
