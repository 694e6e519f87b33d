package issues

import (
	"context"

	"github.com/hearthforge/hearth/forge"
)

// ListReviews returns one page of the reviews of pull request index (not
// review requests' pending placeholders of others), and their number.
func (s *Service) ListReviews(ctx context.Context, actor forge.Actor, owner, repo string, index int64, o forge.ListOptions) ([]*ReviewView, int64, error) {
	return nil, 0, errReviewUnimplemented
}

// GetReview returns review id of pull request index. forge.ErrNotFound
// when it is of another pull request, or a pending review of another user.
func (s *Service) GetReview(ctx context.Context, actor forge.Actor, owner, repo string, index int64, id forge.ID) (*ReviewView, error) {
	return nil, errReviewUnimplemented
}

// CreateReview reviews pull request index (read on pulls; the poster may
// not approve or request changes on their own pull request:
// forge.ErrInvalid `approve your own pull is not allowed` /
// `reject your own pull is not allowed`). A review with Event PENDING (or
// "") stays pending until SubmitReview. An empty body is refused for
// REQUEST_CHANGES and COMMENT without comments
// (`review event COMMENT requires a body or a comment`).
func (s *Service) CreateReview(ctx context.Context, actor forge.Actor, owner, repo string, index int64, opt CreateReviewOption) (*ReviewView, error) {
	return nil, errReviewUnimplemented
}

// SubmitReview submits the actor's pending review id.
// forge.ErrInvalid `only a pending review can be submitted`.
func (s *Service) SubmitReview(ctx context.Context, actor forge.Actor, owner, repo string, index int64, id forge.ID, opt SubmitReviewOption) (*ReviewView, error) {
	return nil, errReviewUnimplemented
}

// DeleteReview deletes review id (its reviewer or a repository admin).
func (s *Service) DeleteReview(ctx context.Context, actor forge.Actor, owner, repo string, index int64, id forge.ID) error {
	return errReviewUnimplemented
}

// DismissReview dismisses review id (repository admins; approvals and
// rejections only): forge.ErrForbidden `Must be repo admin`,
// forge.ErrInvalid `not a review of type approve or request changes`.
func (s *Service) DismissReview(ctx context.Context, actor forge.Actor, owner, repo string, index int64, id forge.ID, opt DismissReviewOption) (*ReviewView, error) {
	return nil, errReviewUnimplemented
}

// UndismissReview undoes DismissReview.
func (s *Service) UndismissReview(ctx context.Context, actor forge.Actor, owner, repo string, index int64, id forge.ID) (*ReviewView, error) {
	return nil, errReviewUnimplemented
}

// ReviewComments lists the code comments of review id.
func (s *Service) ReviewComments(ctx context.Context, actor forge.Actor, owner, repo string, index int64, id forge.ID) ([]*ReviewCommentView, error) {
	return nil, errReviewUnimplemented
}

// GetReviewComment returns code comment commentID of review id.
func (s *Service) GetReviewComment(ctx context.Context, actor forge.Actor, owner, repo string, index int64, id, commentID forge.ID) (*ReviewCommentView, error) {
	return nil, errReviewUnimplemented
}

// CreateReviewComment adds a code comment to the actor's pending review
// id.
func (s *Service) CreateReviewComment(ctx context.Context, actor forge.Actor, owner, repo string, index int64, id forge.ID, opt CreateReviewCommentOption) (*ReviewCommentView, error) {
	return nil, errReviewUnimplemented
}

// DeleteReviewComment deletes code comment commentID of review id (its
// poster or a writer).
func (s *Service) DeleteReviewComment(ctx context.Context, actor forge.Actor, owner, repo string, index int64, id, commentID forge.ID) error {
	return errReviewUnimplemented
}

// RequestReviews asks users and teams to review pull request index
// (writers, or the poster; users need read access on pulls:
// forge.ErrInvalid... Forgejo answers 422 for unknown or unfit users) and
// returns the requests made.
func (s *Service) RequestReviews(ctx context.Context, actor forge.Actor, owner, repo string, index int64, opt ReviewRequestOption) ([]*ReviewView, error) {
	return nil, errReviewUnimplemented
}

// CancelReviewRequests removes review requests of users and teams.
func (s *Service) CancelReviewRequests(ctx context.Context, actor forge.Actor, owner, repo string, index int64, opt ReviewRequestOption) error {
	return errReviewUnimplemented
}

var errReviewUnimplemented = forge.Errorf(forge.ErrNotFound, "reviews: not implemented")
