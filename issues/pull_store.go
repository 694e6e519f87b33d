package issues

import (
	"context"

	"github.com/hearthforge/hearth/forge"
)

// PullTx is the part of Tx that stores pull requests, reviews and
// scheduled merges (embedded in Tx). Values returned are the caller's to
// change; values passed in are copied.
type PullTx interface {
	// CreatePull inserts p (p.ID is set). forge.ErrNotFound if its issue
	// does not exist; forge.ErrConflict if the issue already has a pull
	// request.
	CreatePull(ctx context.Context, p *PullRequest) error
	// PullByIssueID returns the pull request of an issue; forge.ErrNotFound
	// if none.
	PullByIssueID(ctx context.Context, issueID forge.ID) (*PullRequest, error)
	// PullsByIssueID returns the pull requests of the issues of issueIDs
	// that have one, by issue id. Never nil.
	PullsByIssueID(ctx context.Context, issueIDs []forge.ID) (map[forge.ID]*PullRequest, error)
	// UpdatePull writes every field of p but IssueID, Index and BaseRepoID
	// (found by p.ID). forge.ErrNotFound if none.
	UpdatePull(ctx context.Context, p *PullRequest) error
	// FindPulls returns the pull requests matching f, ordered by id. Never
	// nil.
	FindPulls(ctx context.Context, f PullFilter) ([]*PullRequest, error)
	// MarkPullsChecking sets Status to PullChecking on the open pull
	// requests matching f (f.Open is implied: the issue open and not
	// merged) and returns their issue ids, ordered by pull request id
	// (never nil). It is one write whatever the number of rows (an UPDATE
	// in SQL): the pull request checker's durable marker (Service.Run
	// re-queues the pulls still checking).
	MarkPullsChecking(ctx context.Context, f PullFilter) ([]forge.ID, error)

	// CreateReview inserts r (r.ID is set). forge.ErrNotFound if its issue
	// does not exist.
	CreateReview(ctx context.Context, r *Review) error
	// ReviewByID returns forge.ErrNotFound if none.
	ReviewByID(ctx context.Context, id forge.ID) (*Review, error)
	// UpdateReview writes every field of r but IssueID and Created.
	// forge.ErrNotFound if none.
	UpdateReview(ctx context.Context, r *Review) error
	// DeleteReview removes a review and its code comments (the comments
	// whose ReviewID is id). forge.ErrNotFound if none.
	DeleteReview(ctx context.Context, id forge.ID) error
	// ListReviews returns one page of the reviews matching f ordered by id,
	// and their number.
	ListReviews(ctx context.Context, f ReviewFilter, o forge.ListOptions) ([]*Review, int64, error)
	// ReviewComments returns the comments of each review of reviewIDs that
	// has some (Comment.ReviewID), ordered by creation then id. Never nil.
	ReviewComments(ctx context.Context, reviewIDs []forge.ID) (map[forge.ID][]*Comment, error)

	// CreateAutoMerge schedules a merge (m.ID is set). forge.ErrConflict if
	// the pull request has one scheduled; forge.ErrNotFound if the pull
	// request does not exist.
	CreateAutoMerge(ctx context.Context, m *AutoMerge) error
	// AutoMergeByPull returns the merge scheduled for a pull request;
	// forge.ErrNotFound if none.
	AutoMergeByPull(ctx context.Context, pullID forge.ID) (*AutoMerge, error)
	// DeleteAutoMerge removes the merge scheduled for a pull request.
	// forge.ErrNotFound if none.
	DeleteAutoMerge(ctx context.Context, pullID forge.ID) error
}

// PullFilter selects pull requests. Zero fields do not filter, except that
// a filter with neither BaseRepoID nor HeadRepoID nor IssueIDs nor
// Checking matches nothing.
type PullFilter struct {
	// BaseRepoID and BaseBranch: pulls into that repository (and branch).
	BaseRepoID forge.ID
	BaseBranch string
	// HeadRepoID and HeadBranch: pulls from that repository (and branch).
	HeadRepoID forge.ID
	HeadBranch string
	// Open: only pulls whose issue is open and that are not merged.
	Open bool
	// MergedCommitID: only pulls merged as that commit.
	MergedCommitID string
	// IssueIDs: only these issues' pulls. A non-nil empty slice matches
	// nothing.
	IssueIDs []forge.ID
	// Checking: only pulls whose Status is PullChecking (the pull request
	// checker's queue, durable).
	Checking bool
}

// ReviewFilter selects the reviews of a pull request's issue.
type ReviewFilter struct {
	IssueID forge.ID
	// Types: only these types (nil: all).
	Types []ReviewType
	// ReviewerID, ReviewerTeamID: 0 any.
	ReviewerID, ReviewerTeamID forge.ID
	// Dismissed: nil both, else only dismissed or only undismissed ones.
	Dismissed *bool
}
