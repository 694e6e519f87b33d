package issues

import (
	"context"
	"errors"
	"slices"

	"github.com/hearthforge/hearth/forge"
)

// AllowedReactions are Forgejo's default [ui] REACTIONS: the only contents
// a reaction may have.
var AllowedReactions = []string{"+1", "-1", "laugh", "hooray", "confused", "heart", "rocket", "eyes"}

// CheckReaction refuses a content that is not an allowed reaction with
// forge.ErrForbidden `'<content>' is not an allowed reaction` (Forgejo's
// ErrForbiddenIssueReaction, answered 403).
func CheckReaction(content string) error {
	if !slices.Contains(AllowedReactions, content) {
		return forge.Errorf(forge.ErrForbidden, "'%s' is not an allowed reaction", content)
	}
	return nil
}

// ReactionTarget names what a reaction is on: issue Index of the
// repository, or (CommentID non-zero) the comment of that id.
type ReactionTarget struct {
	Index     int64
	CommentID forge.ID
}

// ReactionView is a reaction with its user as the actor may see them.
type ReactionView struct {
	Reaction *Reaction
	User     *forge.User
}

// reactionTarget loads the issue (and comment) of t for reading.
func (a *access) reactionTarget(ctx context.Context, tx Tx, t ReactionTarget) (*Issue, *Comment, error) {
	if t.CommentID != 0 {
		c, is, err := a.comment(ctx, tx, t.CommentID)
		return is, c, err
	}
	is, err := a.issue(ctx, tx, t.Index)
	return is, nil, err
}

// Reactions returns the reactions of the issue or comment t (read:issue)
// and their number: one page of o for an issue, every one for a comment
// (Forgejo does not page those). ErrIssueNotFound or ErrCommentNotFound.
func (s *Service) Reactions(ctx context.Context, actor forge.Actor, owner, repo string, t ReactionTarget, o forge.ListOptions) ([]*ReactionView, int64, error) {
	a, err := s.open(ctx, actor, owner, repo, forge.AccessRead)
	if err != nil {
		return nil, 0, err
	}
	if t.CommentID != 0 {
		o = all
	} else {
		o = o.Normalize()
	}
	var (
		out []*ReactionView
		n   int64
	)
	err = s.store.View(ctx, func(tx Tx) error {
		is, c, err := a.reactionTarget(ctx, tx, t)
		if err != nil {
			return err
		}
		var cid forge.ID
		if c != nil {
			cid = c.ID
		}
		list, total, err := tx.Reactions(ctx, is.ID, cid, o)
		if err != nil {
			return err
		}
		n = total
		out, err = a.reactionViews(ctx, tx, list)
		return err
	})
	return out, n, err
}

func (a *access) reactionViews(ctx context.Context, tx Tx, list []*Reaction) ([]*ReactionView, error) {
	ids := make([]forge.ID, 0, len(list))
	for _, r := range list {
		ids = append(ids, r.UserID)
	}
	slices.Sort(ids)
	users, err := tx.UsersByID(ctx, slices.Compact(ids))
	if err != nil {
		return nil, err
	}
	out := make([]*ReactionView, 0, len(list))
	for _, r := range list {
		out = append(out, &ReactionView{Reaction: r, User: a.user(users, r.UserID)})
	}
	return out, nil
}

// React adds the actor's reaction content to the issue or comment t
// (write:issue, signed in) and returns it with created true, or the
// existing one with created false when the actor had already reacted so
// (Forgejo answers 200 then, 201 otherwise). Returns forge.ErrForbidden
// `'<content>' is not an allowed reaction`; forge.ErrForbidden `no
// permission to change reaction` on a locked issue for non-writers;
// ErrBlocked when the issue's poster or the repository's owner blocks the
// actor; ErrIssueNotFound or ErrCommentNotFound.
func (s *Service) React(ctx context.Context, actor forge.Actor, owner, repo string, t ReactionTarget, content string) (view *ReactionView, created bool, err error) {
	a, err := s.open(ctx, actor, owner, repo, forge.AccessWrite)
	if err != nil {
		return nil, false, err
	}
	now := s.clock.Now()
	err = s.store.Update(ctx, func(tx Tx) error {
		is, c, err := a.reactionTarget(ctx, tx, t)
		if err != nil {
			return err
		}
		if is.IsLocked && !a.canWrite(is.IsPull) {
			return forge.Errorf(forge.ErrForbidden, "no permission to change reaction")
		}
		if err := CheckReaction(content); err != nil {
			return err
		}
		if err := checkBlocked(ctx, tx, actor, is.PosterID, a.repo.OwnerID); err != nil {
			return err
		}
		var cid forge.ID
		if c != nil {
			cid = c.ID
		}
		r, err := findReaction(ctx, tx, is.ID, cid, actor.UserID(), content)
		if err != nil {
			return err
		}
		if r == nil {
			r = &Reaction{IssueID: is.ID, CommentID: cid, UserID: actor.UserID(), Content: content, Created: now}
			if err := tx.CreateReaction(ctx, r); err != nil {
				return err
			}
			created = true
		}
		vs, err := a.reactionViews(ctx, tx, []*Reaction{r})
		if err != nil {
			return err
		}
		view = vs[0]
		return nil
	})
	return view, created, err
}

// findReaction returns the reaction of userID with content on the issue or
// comment, nil if none.
func findReaction(ctx context.Context, tx Tx, issueID, commentID, userID forge.ID, content string) (*Reaction, error) {
	list, _, err := tx.Reactions(ctx, issueID, commentID, all)
	if err != nil {
		return nil, err
	}
	for _, r := range list {
		if r.UserID == userID && r.Content == content {
			return r, nil
		}
	}
	return nil, nil
}

// Unreact removes the actor's reaction content from the issue or comment
// t, if it has one (write:issue, signed in). Errors as React, but removing
// a reaction the actor never made is no error (Forgejo answers 200).
func (s *Service) Unreact(ctx context.Context, actor forge.Actor, owner, repo string, t ReactionTarget, content string) error {
	a, err := s.open(ctx, actor, owner, repo, forge.AccessWrite)
	if err != nil {
		return err
	}
	return s.store.Update(ctx, func(tx Tx) error {
		is, c, err := a.reactionTarget(ctx, tx, t)
		if err != nil {
			return err
		}
		if is.IsLocked && !a.canWrite(is.IsPull) {
			return forge.Errorf(forge.ErrForbidden, "no permission to change reaction")
		}
		var cid forge.ID
		if c != nil {
			cid = c.ID
		}
		err = tx.DeleteReaction(ctx, is.ID, cid, actor.UserID(), content)
		if errors.Is(err, forge.ErrNotFound) {
			return nil
		}
		return err
	})
}
