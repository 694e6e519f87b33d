package issues

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

// reviewAccess loads pull request index for a review operation.
func (s *Service) reviewPull(ctx context.Context, actor forge.Actor, owner, repo string, index int64, level forge.AccessLevel) (*access, *Issue, *PullRequest, error) {
	return s.reviewPullAs(ctx, actor, owner, repo, index, level, s.openPulls)
}

// reviewPullAs is reviewPull resolving the repository with open.
func (s *Service) reviewPullAs(ctx context.Context, actor forge.Actor, owner, repo string, index int64, level forge.AccessLevel,
	open func(context.Context, forge.Actor, string, string, forge.AccessLevel) (*access, error)) (*access, *Issue, *PullRequest, error) {
	a, err := open(ctx, actor, owner, repo, level)
	if err != nil {
		return nil, nil, nil, err
	}
	var (
		is *Issue
		pr *PullRequest
	)
	err = s.store.View(ctx, func(tx Tx) error {
		is, pr, err = a.pull(ctx, tx, index)
		return err
	})
	return a, is, pr, err
}

// visibleReview reports whether the actor may see r: pending reviews are
// their reviewer's (and site administrators').
func visibleReview(actor forge.Actor, r *Review) bool {
	return r.Type != ReviewPending || actor.IsSiteAdmin() || (actor.IsSignedIn() && actor.User.ID == r.ReviewerID)
}

// review loads review id of is as the actor may see it (Forgejo's
// prepareSingleReview): forge.ErrNotFound otherwise.
func (a *access) review(ctx context.Context, tx Tx, is *Issue, id forge.ID) (*Review, error) {
	r, err := tx.ReviewByID(ctx, id)
	if errors.Is(err, forge.ErrNotFound) || err == nil && (r.IssueID != is.ID || !visibleReview(a.actor, r)) {
		return nil, forge.Errorf(forge.ErrNotFound, "review does not exist [id: %d]", id)
	}
	return r, err
}

// reviewViews loads what the JSON of each review shows.
func (a *access) reviewViews(ctx context.Context, tx Tx, is *Issue, list []*Review) ([]*ReviewView, error) {
	ids := make([]forge.ID, 0, len(list))
	var userIDs []forge.ID
	for _, r := range list {
		ids = append(ids, r.ID)
		if r.ReviewerID != 0 {
			userIDs = append(userIDs, r.ReviewerID)
		}
	}
	comments, err := tx.ReviewComments(ctx, ids)
	if err != nil {
		return nil, err
	}
	slices.Sort(userIDs)
	users, err := tx.UsersByID(ctx, slices.Compact(userIDs))
	if err != nil {
		return nil, err
	}
	out := make([]*ReviewView, 0, len(list))
	for _, r := range list {
		v := &ReviewView{Review: r, Issue: is, Repo: a.repo}
		if r.ReviewerID != 0 {
			v.Reviewer = a.user(users, r.ReviewerID)
		}
		if r.ReviewerTeamID != 0 {
			v.Team = &forge.Team{ID: r.ReviewerTeamID, OrgID: a.repo.OwnerID}
		}
		for _, c := range comments[r.ID] {
			if c.Type == CommentCode {
				v.CodeComments++
			}
		}
		out = append(out, v)
	}
	return out, nil
}

// ListReviews returns one page of the reviews of pull request index
// (review requests included; others' pending reviews left out), ordered by
// id, and their number.
func (s *Service) ListReviews(ctx context.Context, actor forge.Actor, owner, repo string, index int64, o forge.ListOptions) ([]*ReviewView, int64, error) {
	a, is, _, err := s.reviewPull(ctx, actor, owner, repo, index, forge.AccessRead)
	if err != nil {
		return nil, 0, err
	}
	var (
		views []*ReviewView
		total int64
	)
	err = s.store.View(ctx, func(tx Tx) error {
		list, n, err := tx.ListReviews(ctx, ReviewFilter{IssueID: is.ID}, o.Normalize())
		if err != nil {
			return err
		}
		total = n
		list = slices.DeleteFunc(list, func(r *Review) bool { return !visibleReview(actor, r) })
		views, err = a.reviewViews(ctx, tx, is, list)
		return err
	})
	if views == nil && err == nil {
		views = []*ReviewView{}
	}
	s.nameReviewTeams(ctx, views)
	return views, total, err
}

// GetReview returns review id of pull request index. forge.ErrNotFound
// when it is of another pull request, or a pending review of another user.
func (s *Service) GetReview(ctx context.Context, actor forge.Actor, owner, repo string, index int64, id forge.ID) (*ReviewView, error) {
	a, is, _, err := s.reviewPull(ctx, actor, owner, repo, index, forge.AccessRead)
	if err != nil {
		return nil, err
	}
	var v []*ReviewView
	err = s.store.View(ctx, func(tx Tx) error {
		r, err := a.review(ctx, tx, is, id)
		if err != nil {
			return err
		}
		v, err = a.reviewViews(ctx, tx, is, []*Review{r})
		return err
	})
	if err != nil {
		return nil, err
	}
	s.nameReviewTeams(ctx, v)
	return v[0], nil
}

// reviewType is Forgejo's preparePullReviewType.
func reviewType(a *access, is *Issue, event ReviewState, body string, hasComments bool) (ReviewType, error) {
	hasBody := strings.TrimSpace(body) != ""
	needsBody := true
	var t ReviewType
	switch event {
	case ReviewStateApproved:
		if a.isPoster(is.PosterID) {
			return 0, forge.Errorf(forge.ErrInvalid, "approve your own pull is not allowed")
		}
		t, needsBody = ReviewApprove, false
	case ReviewStateRequestChanges:
		if a.isPoster(is.PosterID) {
			return 0, forge.Errorf(forge.ErrInvalid, "reject your own pull is not allowed")
		}
		t = ReviewReject
	case ReviewStateComment:
		t, needsBody = ReviewComment, false
		if !hasBody && !hasComments {
			return 0, forge.Errorf(forge.ErrInvalid, "review event %s requires a body or a comment", event)
		}
	default:
		t, needsBody = ReviewPending, false
	}
	if needsBody && !hasBody {
		return 0, forge.Errorf(forge.ErrInvalid, "review event %s requires a body", event)
	}
	return t, nil
}

// CreateReview reviews pull request index (write:repository; any reader
// of the pull request). A PENDING (or empty) event leaves the review
// pending until SubmitReview; its code comments are attached to the
// actor's pending review. Errors (forge.ErrInvalid, Forgejo's 422):
// `approve your own pull is not allowed`, `reject your own pull is not
// allowed`, `review event REQUEST_CHANGES requires a body`, `review event
// COMMENT requires a body or a comment`; a comment without path or body.
func (s *Service) CreateReview(ctx context.Context, actor forge.Actor, owner, repo string, index int64, opt CreateReviewOption) (*ReviewView, error) {
	a, is, pr, err := s.reviewPull(ctx, actor, owner, repo, index, forge.AccessWrite)
	if err != nil {
		return nil, err
	}
	t, err := reviewType(a, is, opt.Event, opt.Body, len(opt.Comments) > 0)
	if err != nil {
		return nil, err
	}
	for _, c := range opt.Comments {
		if strings.TrimSpace(c.Path) == "" || strings.TrimSpace(c.Body) == "" {
			return nil, forge.Errorf(forge.ErrInvalid, "a review comment needs a path and a body")
		}
	}
	commit := opt.CommitID
	if commit == "" {
		commit = pr.HeadCommitID
	}
	rule := s.baseRule(ctx, a, pr)
	diff := ""
	if len(opt.Comments) > 0 {
		diff = s.commentDiff(ctx, a.repo.ID, pr, commit)
	}
	now := s.clock.Now()
	var (
		r *Review
		v []*ReviewView
	)
	err = s.update(ctx, func(tx Tx) error {
		pending, err := currentPending(ctx, tx, is.ID, actor.UserID())
		if err != nil {
			return err
		}
		if pending == nil && (len(opt.Comments) > 0 || t == ReviewPending) {
			pending = &Review{IssueID: is.ID, Type: ReviewPending, ReviewerID: actor.UserID(), CommitID: commit, Created: now, Updated: now}
			if err := tx.CreateReview(ctx, pending); err != nil {
				return err
			}
		}
		for _, c := range opt.Comments {
			if _, err := codeComment(ctx, tx, actor, is, pending.ID, c, commit, diff, now); err != nil {
				return err
			}
		}
		r, err = s.submit(ctx, tx, a, is, pr, pending, t, opt.Body, commit, rule, now)
		if err != nil {
			return err
		}
		v, err = a.reviewViews(ctx, tx, is, []*Review{r})
		return err
	}, func(ctx context.Context, _ Tx) error {
		if t != ReviewPending {
			s.emitPull(ctx, EventPullReview, actor, a.repo, is, pr, nil, r)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	s.nameReviewTeams(ctx, v)
	return v[0], nil
}

// currentPending returns the user's pending review of an issue, nil if
// none.
func currentPending(ctx context.Context, tx Tx, issueID, userID forge.ID) (*Review, error) {
	list, _, err := tx.ListReviews(ctx, ReviewFilter{IssueID: issueID, ReviewerID: userID, Types: []ReviewType{ReviewPending}}, all)
	if err != nil || len(list) == 0 {
		return nil, err
	}
	return list[len(list)-1], nil
}

// codeComment writes a code comment of review reviewID: on line
// NewLineNum of the new file, or (negative) OldLineNum of the old one.
func codeComment(ctx context.Context, tx Tx, actor forge.Actor, is *Issue, reviewID forge.ID, c CreateReviewCommentOption, commit, diff string, now time.Time) (*Comment, error) {
	line := commentLine(c)
	path := strings.TrimPrefix(c.Path, "/")
	cm := &Comment{IssueID: is.ID, Type: CommentCode, PosterID: actor.UserID(), Body: c.Body, ReviewID: reviewID,
		TreePath: path, Line: line, CommitSHA: commit, Created: now, Updated: now}
	if line != 0 {
		abs := line
		if abs < 0 {
			abs = -abs
		}
		cm.Patch = CutDiffAroundLine(FileDiff(diff, path), abs, line < 0, CodeCommentLines)
	}
	return cm, tx.CreateComment(ctx, cm)
}

// commentLine is a code comment's line: the new file's, or the old
// file's negated.
func commentLine(c CreateReviewCommentOption) int64 {
	if c.NewLineNum != 0 {
		return c.NewLineNum
	}
	return -c.OldLineNum
}

// maxHunkDiff bounds the diff read to cut code comments' hunks.
const maxHunkDiff = 4 << 20

// commentDiff is the diff code comments on commit are cut from (merge
// base to commit), "" when git cannot give it (the hunks are then empty).
func (s *Service) commentDiff(ctx context.Context, repo forge.ID, pr *PullRequest, commit string) string {
	if commit == "" || pr.MergeBase == "" {
		return ""
	}
	var b limitedBuffer
	b.max = maxHunkDiff
	if err := s.cfg.Pulls.Git.Diff(ctx, repo, pr.MergeBase, commit, "diff", &b); err != nil && !b.full {
		return ""
	}
	return b.String()
}

// limitedBuffer keeps the first max bytes written to it.
type limitedBuffer struct {
	strings.Builder
	max  int
	full bool
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if room := b.max - b.Len(); room < len(p) {
		b.full = true
		if room > 0 {
			b.Builder.Write(p[:room])
		}
		return len(p), nil
	}
	return b.Builder.Write(p)
}

// baseRule is the protection rule of p's base branch (nil if none), in
// a's repository (read through a's resolution: branchIn).
func (s *Service) baseRule(ctx context.Context, a *access, p *PullRequest) *repos.BranchProtection {
	b, err := s.branchIn(ctx, a, p.BaseBranch)
	if err != nil {
		return nil
	}
	return s.withActorTeams(ctx, a.actor, a.repo.OwnerID, b.Rule)
}

// submit is Forgejo's SubmitReview: the actor's pending review (or a new
// one) becomes a review of type t on commit; approvals and rejections are
// official per the rule (and the reviewer's earlier ones stop being
// official); a review comment records it on the timeline. A pending t
// leaves it pending.
func (s *Service) submit(ctx context.Context, tx Tx, a *access, is *Issue, pr *PullRequest, pending *Review, t ReviewType, body, commit string, rule *repos.BranchProtection, now time.Time) (*Review, error) {
	r := pending
	if r == nil {
		r = &Review{IssueID: is.ID, ReviewerID: a.actor.UserID(), Created: now}
	}
	r.Type, r.Content, r.CommitID, r.Updated = t, body, commit, now
	if t == ReviewPending {
		if r.ID == 0 {
			return r, tx.CreateReview(ctx, r)
		}
		return r, tx.UpdateReview(ctx, r)
	}
	r.Stale = commit != pr.HeadCommitID
	if t == ReviewApprove || t == ReviewReject {
		r.Official = isOfficial(a, rule)
		if r.Official {
			old, _, err := tx.ListReviews(ctx, ReviewFilter{IssueID: is.ID, ReviewerID: a.actor.UserID(),
				Types: []ReviewType{ReviewApprove, ReviewReject}}, all)
			if err != nil {
				return nil, err
			}
			for _, o := range old {
				if o.Official && o.ID != r.ID {
					o.Official = false
					if err := tx.UpdateReview(ctx, o); err != nil {
						return nil, err
					}
				}
			}
		}
	}
	if r.ID == 0 {
		if err := tx.CreateReview(ctx, r); err != nil {
			return nil, err
		}
	} else if err := tx.UpdateReview(ctx, r); err != nil {
		return nil, err
	}
	// The review answers the reviewer's request.
	reqs, _, err := tx.ListReviews(ctx, ReviewFilter{IssueID: is.ID, ReviewerID: a.actor.UserID(), Types: []ReviewType{ReviewRequest}}, all)
	if err != nil {
		return nil, err
	}
	for _, q := range reqs {
		if err := tx.DeleteReview(ctx, q.ID); err != nil {
			return nil, err
		}
	}
	ch := newChange(tx, a.actor, is, now, now, false)
	if err := ch.comment(ctx, &Comment{Type: CommentReview, Body: body, ReviewID: r.ID, CommitSHA: commit}); err != nil {
		return nil, err
	}
	return r, ch.commit(ctx)
}

// SubmitReview submits the actor's pending review id with opt.Event.
// forge.ErrInvalid `only a pending review can be submitted`, `review stay
// pending`, and reviewType's refusals; forge.ErrNotFound for another
// user's pending review.
func (s *Service) SubmitReview(ctx context.Context, actor forge.Actor, owner, repo string, index int64, id forge.ID, opt SubmitReviewOption) (*ReviewView, error) {
	a, is, pr, err := s.reviewPull(ctx, actor, owner, repo, index, forge.AccessWrite)
	if err != nil {
		return nil, err
	}
	rule := s.baseRule(ctx, a, pr)
	now := s.clock.Now()
	var (
		r *Review
		v []*ReviewView
	)
	err = s.update(ctx, func(tx Tx) error {
		cur, err := a.review(ctx, tx, is, id)
		if err != nil {
			return err
		}
		if cur.Type != ReviewPending {
			return forge.Errorf(forge.ErrInvalid, "only a pending review can be submitted")
		}
		cs, err := tx.ReviewComments(ctx, []forge.ID{cur.ID})
		if err != nil {
			return err
		}
		t, err := reviewType(a, is, opt.Event, opt.Body, len(cs[cur.ID]) > 0)
		if err != nil {
			return err
		}
		if t == ReviewPending {
			return forge.Errorf(forge.ErrInvalid, "review stay pending")
		}
		if r, err = s.submit(ctx, tx, a, is, pr, cur, t, opt.Body, pr.HeadCommitID, rule, now); err != nil {
			return err
		}
		v, err = a.reviewViews(ctx, tx, is, []*Review{r})
		return err
	}, func(ctx context.Context, _ Tx) error {
		s.emitPull(ctx, EventPullReview, actor, a.repo, is, pr, nil, r)
		return nil
	})
	if err != nil {
		return nil, err
	}
	s.nameReviewTeams(ctx, v)
	return v[0], nil
}

// DeleteReview deletes review id with its code comments (its reviewer or
// a site administrator: a bare forge.ErrForbidden otherwise).
func (s *Service) DeleteReview(ctx context.Context, actor forge.Actor, owner, repo string, index int64, id forge.ID) error {
	a, is, _, err := s.reviewPull(ctx, actor, owner, repo, index, forge.AccessWrite)
	if err != nil {
		return err
	}
	return s.store.Update(ctx, func(tx Tx) error {
		r, err := a.review(ctx, tx, is, id)
		if err != nil {
			return err
		}
		if !actor.IsSiteAdmin() && actor.UserID() != r.ReviewerID {
			return forge.Errorf(forge.ErrForbidden, "")
		}
		return tx.DeleteReview(ctx, r.ID)
	})
}

// DismissReview dismisses review id (repository admins:
// forge.ErrForbidden `Must be repo admin`; approvals and rejections only:
// forge.ErrForbidden `not need to dismiss this review because it's type
// is not Approve or change request`; not on a closed pull request:
// forge.ErrForbidden). A dismiss_review comment carries opt.Message; with
// opt.Priors the reviewer's earlier approvals and rejections are
// dismissed too.
func (s *Service) DismissReview(ctx context.Context, actor forge.Actor, owner, repo string, index int64, id forge.ID, opt DismissReviewOption) (*ReviewView, error) {
	return s.dismiss(ctx, actor, owner, repo, index, id, true, opt)
}

// UndismissReview undoes DismissReview (same permissions).
func (s *Service) UndismissReview(ctx context.Context, actor forge.Actor, owner, repo string, index int64, id forge.ID) (*ReviewView, error) {
	return s.dismiss(ctx, actor, owner, repo, index, id, false, DismissReviewOption{})
}

func (s *Service) dismiss(ctx context.Context, actor forge.Actor, owner, repo string, index int64, id forge.ID, dismiss bool, opt DismissReviewOption) (*ReviewView, error) {
	a, is, pr, err := s.reviewPull(ctx, actor, owner, repo, index, forge.AccessWrite)
	if err != nil {
		return nil, err
	}
	if !a.isAdmin() {
		return nil, forge.Errorf(forge.ErrForbidden, "Must be repo admin")
	}
	now := s.clock.Now()
	var v []*ReviewView
	err = s.store.Update(ctx, func(tx Tx) error {
		r, err := a.review(ctx, tx, is, id)
		if err != nil {
			return err
		}
		if r.Type != ReviewApprove && r.Type != ReviewReject {
			return forge.Errorf(forge.ErrForbidden, "not need to dismiss this review because it's type is not Approve or change request")
		}
		if is.IsClosed || pr.HasMerged {
			return forge.Errorf(forge.ErrForbidden, "not need to dismiss this review because this pr is closed")
		}
		if r.Dismissed != dismiss {
			r.Dismissed = dismiss
			if err := tx.UpdateReview(ctx, r); err != nil {
				return err
			}
		}
		if dismiss && opt.Priors {
			old, _, err := tx.ListReviews(ctx, ReviewFilter{IssueID: is.ID, ReviewerID: r.ReviewerID,
				Types: []ReviewType{ReviewApprove, ReviewReject}}, all)
			if err != nil {
				return err
			}
			for _, o := range old {
				if o.ID < r.ID && !o.Dismissed {
					o.Dismissed = true
					if err := tx.UpdateReview(ctx, o); err != nil {
						return err
					}
				}
			}
		}
		if dismiss {
			ch := newChange(tx, actor, is, now, now, false)
			if err := ch.comment(ctx, &Comment{Type: CommentDismissReview, Content: opt.Message, ReviewID: r.ID, AssigneeID: r.ReviewerID}); err != nil {
				return err
			}
			if err := ch.commit(ctx); err != nil {
				return err
			}
		}
		v, err = a.reviewViews(ctx, tx, is, []*Review{r})
		return err
	})
	if err != nil {
		return nil, err
	}
	s.nameReviewTeams(ctx, v)
	return v[0], nil
}

// reviewCommentViews loads what the JSON of code comments shows.
func (a *access) reviewCommentViews(ctx context.Context, tx Tx, is *Issue, r *Review, list []*Comment) ([]*ReviewCommentView, error) {
	var ids []forge.ID
	for _, c := range list {
		ids = append(ids, c.PosterID)
		if c.ResolveDoerID != 0 {
			ids = append(ids, c.ResolveDoerID)
		}
	}
	slices.Sort(ids)
	users, err := tx.UsersByID(ctx, slices.Compact(ids))
	if err != nil {
		return nil, err
	}
	out := make([]*ReviewCommentView, 0, len(list))
	for _, c := range list {
		v := &ReviewCommentView{Comment: c, Review: r, Issue: is, Repo: a.repo, Poster: a.user(users, c.PosterID), OrigCommitID: c.CommitSHA}
		if c.ResolveDoerID != 0 {
			v.Resolver = a.user(users, c.ResolveDoerID)
		}
		out = append(out, v)
	}
	return out, nil
}

// ReviewComments lists the code comments of review id, oldest first.
func (s *Service) ReviewComments(ctx context.Context, actor forge.Actor, owner, repo string, index int64, id forge.ID) ([]*ReviewCommentView, error) {
	a, is, _, err := s.reviewPull(ctx, actor, owner, repo, index, forge.AccessRead)
	if err != nil {
		return nil, err
	}
	var out []*ReviewCommentView
	err = s.store.View(ctx, func(tx Tx) error {
		r, err := a.review(ctx, tx, is, id)
		if err != nil {
			return err
		}
		cs, err := tx.ReviewComments(ctx, []forge.ID{r.ID})
		if err != nil {
			return err
		}
		code := slices.DeleteFunc(cs[r.ID], func(c *Comment) bool { return c.Type != CommentCode })
		out, err = a.reviewCommentViews(ctx, tx, is, r, code)
		return err
	})
	return out, err
}

// reviewComment loads code comment commentID of review r.
func reviewComment(ctx context.Context, tx Tx, r *Review, commentID forge.ID) (*Comment, error) {
	c, err := tx.CommentByID(ctx, commentID)
	if errors.Is(err, forge.ErrNotFound) || err == nil && (c.ReviewID != r.ID || c.Type != CommentCode) {
		return nil, commentNotFound(commentID)
	}
	return c, err
}

// GetReviewComment returns code comment commentID of review id.
func (s *Service) GetReviewComment(ctx context.Context, actor forge.Actor, owner, repo string, index int64, id, commentID forge.ID) (*ReviewCommentView, error) {
	a, is, _, err := s.reviewPull(ctx, actor, owner, repo, index, forge.AccessRead)
	if err != nil {
		return nil, err
	}
	var out []*ReviewCommentView
	err = s.store.View(ctx, func(tx Tx) error {
		r, err := a.review(ctx, tx, is, id)
		if err != nil {
			return err
		}
		c, err := reviewComment(ctx, tx, r, commentID)
		if err != nil {
			return err
		}
		out, err = a.reviewCommentViews(ctx, tx, is, r, []*Comment{c})
		return err
	})
	if err != nil {
		return nil, err
	}
	return out[0], nil
}

// CreateReviewComment adds a code comment to review id (the reviewer's:
// forge.ErrForbidden otherwise) on the pull request's head commit.
func (s *Service) CreateReviewComment(ctx context.Context, actor forge.Actor, owner, repo string, index int64, id forge.ID, opt CreateReviewCommentOption) (*ReviewCommentView, error) {
	a, is, pr, err := s.reviewPull(ctx, actor, owner, repo, index, forge.AccessWrite)
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(opt.Path) == "" || strings.TrimSpace(opt.Body) == "" {
		return nil, forge.Errorf(forge.ErrInvalid, "a review comment needs a path and a body")
	}
	diff := s.commentDiff(ctx, a.repo.ID, pr, pr.HeadCommitID)
	now := s.clock.Now()
	var out []*ReviewCommentView
	err = s.store.Update(ctx, func(tx Tx) error {
		r, err := a.review(ctx, tx, is, id)
		if err != nil {
			return err
		}
		if r.ReviewerID != actor.UserID() {
			return forge.Errorf(forge.ErrForbidden, "")
		}
		c, err := codeComment(ctx, tx, actor, is, r.ID, opt, pr.HeadCommitID, diff, now)
		if err != nil {
			return err
		}
		out, err = a.reviewCommentViews(ctx, tx, is, r, []*Comment{c})
		return err
	})
	if err != nil {
		return nil, err
	}
	return out[0], nil
}

// DeleteReviewComment deletes code comment commentID of review id (its
// poster or a repository admin: forge.ErrForbidden otherwise).
func (s *Service) DeleteReviewComment(ctx context.Context, actor forge.Actor, owner, repo string, index int64, id, commentID forge.ID) error {
	a, is, _, err := s.reviewPull(ctx, actor, owner, repo, index, forge.AccessWrite)
	if err != nil {
		return err
	}
	return s.store.Update(ctx, func(tx Tx) error {
		r, err := a.review(ctx, tx, is, id)
		if err != nil {
			return err
		}
		c, err := reviewComment(ctx, tx, r, commentID)
		if err != nil {
			return err
		}
		if c.PosterID != actor.UserID() && !a.isAdmin() {
			return forge.Errorf(forge.ErrForbidden, "")
		}
		return tx.DeleteComment(ctx, c.ID)
	})
}

// RequestReviews asks users and teams to review pull request index
// (write:repository) and returns the requests made (an existing request is
// kept as it is). Every reviewer is checked before anything is written, as
// Forgejo's apiReviewRequest: forge.ErrNotFound `User 'x' not exist` or
// `Team 'x' not exist`; forge.ErrInvalid (422) `<reason> [user_id: <doer>,
// repo_id: <repo>]` when ReviewRequestRefusal or TeamReviewRequestRefusal
// refuses (an organisation as reviewer or doer, a reviewer who cannot read,
// a doer who is neither the poster, a writer of pulls nor an official
// reviewer, the poster as reviewer, a team without the private
// repository); forge.ErrForbidden `cannot request a re-review on a closed
// or merged PR`. Team reviewers are ignored on a user's repository
// (pull_teams.go).
func (s *Service) RequestReviews(ctx context.Context, actor forge.Actor, owner, repo string, index int64, opt ReviewRequestOption) ([]*ReviewView, error) {
	return s.reviewRequests(ctx, actor, owner, repo, index, opt, true)
}

// CancelReviewRequests removes the review requests of users and teams:
// the same lookups, then ReviewRequestRefusal (a repository admin, or a
// reviewer withdrawing their own request) and TeamReviewRequestRefusal
// (admins only); forge.ErrInvalid (422) with Forgejo's reason otherwise.
func (s *Service) CancelReviewRequests(ctx context.Context, actor forge.Actor, owner, repo string, index int64, opt ReviewRequestOption) error {
	_, err := s.reviewRequests(ctx, actor, owner, repo, index, opt, false)
	return err
}

func (s *Service) reviewRequests(ctx context.Context, actor forge.Actor, owner, repo string, index int64, opt ReviewRequestOption, add bool) ([]*ReviewView, error) {
	// An organisation is refused by ReviewRequestRefusal, with
	// Forgejo's message.
	a, is, pr, err := s.reviewPullAs(ctx, actor, owner, repo, index, forge.AccessWrite, s.openPullsAny)
	if err != nil {
		return nil, err
	}
	doerOrg := actor.IsSignedIn() && actor.User.IsOrganization()
	rule := s.baseRule(ctx, a, pr)
	doerOfficial := s.isOfficialTeams(ctx, a, rule)
	if len(opt.Reviewers) == 0 && len(opt.TeamReviewers) == 0 {
		// Nothing to check one by one (Forgejo answers an empty success):
		// a doer who could ask or withdraw no one is refused as for any
		// reviewer, so that a reader learns nothing and changes nothing.
		if reason := ReviewRequestRefusal(ReviewRequestCheck{Add: add, DoerIsOrg: doerOrg, ReviewerCanRead: true,
			DoerIsPoster: a.isPoster(is.PosterID), DoerCanWrite: a.canWrite(true), DoerIsOfficial: doerOfficial,
			DoerIsAdmin: a.isAdmin()}); reason != "" {
			return nil, notValidReviewRequest(reason, actor.UserID(), a.repo.ID)
		}
	}
	var (
		users []*forge.User
		last  = map[forge.ID]*Review{}
	)
	if err := s.store.View(ctx, func(tx Tx) error {
		for _, n := range opt.Reviewers {
			u, err := tx.UserByName(ctx, n)
			if errors.Is(err, forge.ErrNotFound) {
				return reviewerNotFound("User", n)
			} else if err != nil {
				return err
			}
			if !slices.ContainsFunc(users, func(x *forge.User) bool { return x.ID == u.ID }) {
				users = append(users, u)
			}
			if last[u.ID], err = lastReview(ctx, tx, is.ID, u.ID); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		return nil, err
	}
	official := map[forge.ID]bool{}
	for _, u := range users {
		b := s.userAccess(ctx, a, u)
		c := ReviewRequestCheck{Add: add, ReviewerIsOrg: u.IsOrganization(), DoerIsOrg: doerOrg,
			ReviewerCanRead: b.canRead(true), ReviewerIsPoster: u.ID == is.PosterID, DoerIsPoster: a.isPoster(is.PosterID),
			DoerCanWrite: a.canWrite(true), DoerIsOfficial: doerOfficial, DoerIsAdmin: a.isAdmin(),
			DoerIsReviewer: actor.IsSignedIn() && actor.User.ID == u.ID}
		if r := last[u.ID]; r != nil {
			c.LastReview, c.LastReviewType = true, r.Type
		}
		if reason := ReviewRequestRefusal(c); reason != "" {
			return nil, notValidReviewRequest(reason, actor.UserID(), a.repo.ID)
		}
		// Forgejo's AddReviewRequest: asking again a reviewer who has
		// reviewed a closed or merged pull request.
		if r := last[u.ID]; add && r != nil && r.Type != ReviewRequest && (is.IsClosed || pr.HasMerged) {
			return nil, forge.Errorf(forge.ErrForbidden, msgReReviewOnClosed)
		}
		official[u.ID] = s.isOfficialTeams(ctx, b, rule)
	}
	teams, err := s.requestTeams(ctx, a, opt.TeamReviewers, add, TeamReviewRequestCheck{Add: add, DoerIsOrg: doerOrg,
		PrivateRepo: a.repo.Private, DoerIsPoster: a.isPoster(is.PosterID), DoerCanWrite: a.canWrite(true),
		DoerIsOfficial: doerOfficial, DoerIsAdmin: a.isAdmin()})
	if err != nil {
		return nil, err
	}
	now := s.clock.Now()
	var (
		made, told []*Review
		v          []*ReviewView
	)
	err = s.update(ctx, func(tx Tx) error {
		made, told = nil, nil // a store may run this function again (PostgreSQL retries conflicts)
		ch := newChange(tx, actor, is, now, now, false)
		for _, u := range users {
			cur, _, err := tx.ListReviews(ctx, ReviewFilter{IssueID: is.ID, ReviewerID: u.ID, Types: []ReviewType{ReviewRequest}}, all)
			if err != nil {
				return err
			}
			switch {
			case add && len(cur) == 0:
				r := &Review{IssueID: is.ID, Type: ReviewRequest, ReviewerID: u.ID, Official: official[u.ID], Created: now, Updated: now}
				if err := tx.CreateReview(ctx, r); err != nil {
					return err
				}
				made, told = append(made, r), append(told, r)
				if err := ch.comment(ctx, &Comment{Type: CommentReviewRequest, AssigneeID: u.ID}); err != nil {
					return err
				}
			case add:
				made = append(made, cur[0])
			case len(cur) > 0:
				made, told = append(made, cur[0]), append(told, cur[0]) // told as EventPullReviewRequestRemoved below
				for _, r := range cur {
					if err := tx.DeleteReview(ctx, r.ID); err != nil {
						return err
					}
				}
				if err := ch.comment(ctx, &Comment{Type: CommentReviewRequest, AssigneeID: u.ID, RemovedAssignee: true}); err != nil {
					return err
				}
			}
		}
		if err := s.teamRequests(ctx, tx, ch, is, teams, rule, add, now, &made, &told); err != nil {
			return err
		}
		if err := ch.commit(ctx); err != nil {
			return err
		}
		v, err = a.reviewViews(ctx, tx, is, made)
		return err
	}, func(ctx context.Context, _ Tx) error {
		kind := EventPullReviewRequestRemoved
		if add {
			kind = EventPullReviewRequest
		}
		// Only requests made or removed now are told: asking again for a
		// reviewer already requested changes nothing and sends nothing, as
		// Forgejo.
		for _, r := range told {
			s.emitPull(ctx, kind, actor, a.repo, is, pr, nil, r)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	s.nameReviewTeams(ctx, v)
	if v == nil {
		v = []*ReviewView{}
	}
	fillTeams(v, teams)
	return v, nil
}
