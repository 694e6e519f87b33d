package issues

import (
	"context"

	"github.com/hearthforge/hearth/forge"
)

// CreateComment comments on issue index (write:issue) and returns the
// comment. The comment and the issue's update are dated opt.UpdatedAt when
// given (CheckUpdatedAt), else now; the issue's comment count grows in the
// same transaction. Returns forge.ErrArchived; forge.ErrInvalid `[Body]:
// Required` for an empty body; ErrIssueNotFound; forge.ErrForbidden `You
// cannot comment on a locked issue.` (locked issue, actor neither writer
// nor site administrator); the errors of CheckUpdatedAt.
func (s *Service) CreateComment(ctx context.Context, actor forge.Actor, owner, repo string, index int64, opt CreateCommentOption) (*CommentView, error) {
	a, err := s.open(ctx, actor, owner, repo, forge.AccessWrite)
	if err != nil {
		return nil, err
	}
	if err := a.notArchived(); err != nil {
		return nil, err
	}
	if opt.Body == "" {
		return nil, forge.Errorf(forge.ErrInvalid, "[Body]: Required")
	}
	targets, err := s.refTargets(ctx, a, opt.Body)
	if err != nil {
		return nil, err
	}
	mentions, err := s.mentionTargets(ctx, a, opt.Body)
	if err != nil {
		return nil, err
	}
	now := s.clock.Now()
	var view *CommentView
	var mentioned []forge.ID
	err = s.update(ctx, func(tx Tx) error {
		is, err := a.issue(ctx, tx, index)
		if err != nil {
			return err
		}
		if is.IsLocked && !a.canWrite(is.IsPull) && !actor.IsSiteAdmin() {
			return forge.Errorf(forge.ErrForbidden, "You cannot comment on a locked issue.")
		}
		if err := checkBlocked(ctx, tx, actor, is.PosterID, a.repo.OwnerID); err != nil {
			return err
		}
		stamp, given, err := CheckUpdatedAt(a.perm, is.Created, opt.UpdatedAt, now)
		if err != nil {
			return err
		}
		ch := newChange(tx, actor, is, now, stamp, given)
		c := &Comment{Type: CommentPlain, Body: opt.Body}
		if err := ch.comment(ctx, c); err != nil {
			return err
		}
		if err := ch.commit(ctx); err != nil {
			return err
		}
		if err := xref(ctx, tx, actor, is, c, targets, false, now, stamp, given); err != nil {
			return err
		}
		if mentioned, err = recordMentions(ctx, tx, is, mentions); err != nil {
			return err
		}
		vs, err := a.commentViews(ctx, tx, []*Comment{c}, map[forge.ID]*Issue{is.ID: is})
		if err != nil {
			return err
		}
		view = vs[0]
		return nil
	}, func(ctx context.Context, _ Tx) error {
		s.emitComment(ctx, nil, actor, view, mentioned...)
		return nil
	})
	return view, err
}

// GetComment returns comment id of owner/repo (read:issue); ErrCommentNotFound
// if it is not a comment of the repository or the actor may not read its
// issue; ErrNotEditable (Forgejo answers 204) for a timeline event.
func (s *Service) GetComment(ctx context.Context, actor forge.Actor, owner, repo string, id forge.ID) (*CommentView, error) {
	a, err := s.open(ctx, actor, owner, repo, forge.AccessRead)
	if err != nil {
		return nil, err
	}
	var view *CommentView
	err = s.store.View(ctx, func(tx Tx) error {
		c, is, err := a.comment(ctx, tx, id)
		if err != nil {
			return err
		}
		if c.Type != CommentPlain {
			return notEditable()
		}
		vs, err := a.commentViews(ctx, tx, []*Comment{c}, map[forge.ID]*Issue{is.ID: is})
		if err != nil {
			return err
		}
		view = vs[0]
		return nil
	})
	return view, err
}

func notEditable() error { return forge.Reasonf(forge.ErrPrecondition, ErrNotEditable, "") }

// ListComments returns the plain comments of issue index updated within
// opt's bounds, oldest first, and their number (read:issue). Every comment
// is listed (Forgejo does not page them).
func (s *Service) ListComments(ctx context.Context, actor forge.Actor, owner, repo string, index int64, opt ListCommentsOption) ([]*CommentView, int64, error) {
	a, err := s.open(ctx, actor, owner, repo, forge.AccessRead)
	if err != nil {
		return nil, 0, err
	}
	var (
		views []*CommentView
		n     int64
	)
	err = s.store.View(ctx, func(tx Tx) error {
		is, err := a.issue(ctx, tx, index)
		if err != nil {
			return err
		}
		cs, total, err := tx.ListComments(ctx, CommentFilter{IssueID: is.ID, Types: []CommentType{CommentPlain},
			UpdatedSince: opt.Since, UpdatedBefore: opt.Before}, all)
		if err != nil {
			return err
		}
		n = total
		views, err = a.commentViews(ctx, tx, cs, map[forge.ID]*Issue{is.ID: is})
		return err
	})
	return views, n, err
}

// ListRepoComments returns one page of the plain comments of every issue
// of owner/repo, oldest first, and their number (read:issue). Comments of
// pull requests (or of issues) are left out when the actor may not read
// them.
func (s *Service) ListRepoComments(ctx context.Context, actor forge.Actor, owner, repo string, opt ListCommentsOption) ([]*CommentView, int64, error) {
	a, err := s.open(ctx, actor, owner, repo, forge.AccessRead)
	if err != nil {
		return nil, 0, err
	}
	var (
		views []*CommentView
		n     int64
	)
	err = s.store.View(ctx, func(tx Tx) error {
		f := CommentFilter{RepoID: a.repo.ID, Types: []CommentType{CommentPlain}, UpdatedSince: opt.Since, UpdatedBefore: opt.Before}
		if iss, pulls := a.canRead(false), a.canRead(true); iss != pulls {
			f.IsPull = ptr(pulls)
		}
		cs, total, err := tx.ListComments(ctx, f, opt.ListOptions.Normalize())
		if err != nil {
			return err
		}
		ids := make([]forge.ID, 0, len(cs))
		for _, c := range cs {
			ids = append(ids, c.IssueID)
		}
		iss, err := tx.IssuesByID(ctx, ids)
		if err != nil {
			return err
		}
		kept := cs[:0] // the filter did it; kept as a guard
		for _, c := range cs {
			if is := iss[c.IssueID]; is != nil && a.canRead(is.IsPull) {
				kept = append(kept, c)
			}
		}
		n = total
		views, err = a.commentViews(ctx, tx, kept, iss)
		return err
	})
	return views, n, err
}

// EditComment changes a comment's body (write:issue; its poster or a writer
// of the issue's unit, else ErrNotPoster, the bare 403) and returns it.
// The comment's and the issue's update are dated opt.UpdatedAt when given
// (CheckUpdatedAt), else now. Returns forge.ErrArchived (unless opt.Index
// marks the deprecated route); forge.ErrInvalid `[Body]: Required`;
// ErrCommentNotFound; ErrNotEditable (Forgejo answers 204) for a timeline
// event; the errors of CheckUpdatedAt.
func (s *Service) EditComment(ctx context.Context, actor forge.Actor, owner, repo string, id forge.ID, opt EditCommentOption) (*CommentView, error) {
	a, err := s.open(ctx, actor, owner, repo, forge.AccessWrite)
	if err != nil {
		return nil, err
	}
	if opt.Index == 0 {
		if err := a.notArchived(); err != nil {
			return nil, err
		}
	}
	if opt.Body == "" {
		return nil, forge.Errorf(forge.ErrInvalid, "[Body]: Required")
	}
	targets, err := s.refTargets(ctx, a, opt.Body)
	if err != nil {
		return nil, err
	}
	mentions, err := s.mentionTargets(ctx, a, opt.Body)
	if err != nil {
		return nil, err
	}
	now := s.clock.Now()
	var view *CommentView
	var oldBody string
	err = s.update(ctx, func(tx Tx) error {
		c, is, err := a.comment(ctx, tx, id)
		if err != nil {
			return err
		}
		if !a.isPoster(c.PosterID) && !a.canWrite(is.IsPull) {
			return notPoster()
		}
		if !c.Type.Editable() {
			return notEditable()
		}
		stamp, given, err := CheckUpdatedAt(a.perm, is.Created, opt.UpdatedAt, now)
		if err != nil {
			return err
		}
		oldBody = c.Body
		changed := c.Body != opt.Body
		if changed {
			c.Body = opt.Body
			c.ContentVersion++
		}
		c.Updated = stamp
		if err := tx.UpdateComment(ctx, c); err != nil {
			return err
		}
		ch := newChange(tx, actor, is, now, stamp, given)
		ch.dirty = true
		if err := ch.commit(ctx); err != nil {
			return err
		}
		if changed {
			if err := xref(ctx, tx, actor, is, c, targets, true, now, stamp, given); err != nil {
				return err
			}
			if _, err := recordMentions(ctx, tx, is, mentions); err != nil {
				return err
			}
		}
		vs, err := a.commentViews(ctx, tx, []*Comment{c}, map[forge.ID]*Issue{is.ID: is})
		if err != nil {
			return err
		}
		view = vs[0]
		return nil
	}, func(ctx context.Context, _ Tx) error {
		s.emitCommentChange(ctx, nil, EventCommentEdit, actor, a.repo, view.Issue, view.Comment, oldBody)
		return nil
	})
	return view, err
}

// DeleteComment removes a plain comment with its attachments (write:issue;
// its poster or a writer, else ErrNotPoster) and lowers the issue's
// comment count in the same transaction. A timeline event is left alone
// (ErrNotEditable: Forgejo answers 204). index is 0 for the route
// /issues/comments/{id} and the issue's index for the deprecated one
// (Forgejo ignores it).
func (s *Service) DeleteComment(ctx context.Context, actor forge.Actor, owner, repo string, index int64, id forge.ID) error {
	a, err := s.open(ctx, actor, owner, repo, forge.AccessWrite)
	if err != nil {
		return err
	}
	var blobs []string
	var gone *Comment
	var goneFrom *Issue
	err = s.update(ctx, func(tx Tx) error {
		blobs = nil // a store may run this function again (PostgreSQL retries conflicts)
		c, is, err := a.comment(ctx, tx, id)
		if err != nil {
			return err
		}
		if !a.isPoster(c.PosterID) && !a.canWrite(is.IsPull) {
			return notPoster()
		}
		if c.Type != CommentPlain {
			return notEditable()
		}
		assets, err := tx.Attachments(ctx, AttachmentFilter{CommentIDs: []forge.ID{c.ID}})
		if err != nil {
			return err
		}
		for _, at := range assets {
			blobs = append(blobs, at.UUID)
		}
		if err := tx.DeleteComment(ctx, c.ID); err != nil {
			return err
		}
		is.NumComments = max(0, is.NumComments-1)
		gone, goneFrom = c, is
		return tx.UpdateIssue(ctx, is)
	}, func(ctx context.Context, _ Tx) error {
		s.emitCommentChange(ctx, nil, EventCommentDelete, actor, a.repo, goneFrom, gone, "")
		return nil
	})
	if err != nil {
		return err
	}
	s.deleteBlobs(ctx, blobs)
	return nil
}
