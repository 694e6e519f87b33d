package issues

import (
	"context"
	"errors"

	"github.com/hearthforge/hearth/forge"
)

// Subscribers returns one page of the users who watch issue index
// explicitly (read:issue), in the order they subscribed, and their number.
// Returns a not-found error when there is no such issue.
func (s *Service) Subscribers(ctx context.Context, actor forge.Actor, owner, repo string, index int64, o forge.ListOptions) ([]*forge.User, int64, error) {
	a, err := s.open(ctx, actor, owner, repo, forge.AccessRead)
	if err != nil {
		return nil, 0, err
	}
	var (
		out []*forge.User
		n   int64
	)
	err = s.store.View(ctx, func(tx Tx) error {
		is, err := a.issue(ctx, tx, index)
		if err != nil {
			return notFound()
		}
		ws, total, err := tx.IssueWatchers(ctx, is.ID, o.Normalize())
		if err != nil {
			return err
		}
		ids := make([]forge.ID, 0, len(ws))
		for _, w := range ws {
			ids = append(ids, w.UserID)
		}
		users, err := tx.UsersByID(ctx, ids)
		if err != nil {
			return err
		}
		n = total
		out = make([]*forge.User, 0, len(ws))
		for _, w := range ws {
			if u := users[w.UserID]; u != nil {
				out = append(out, u.VisibleTo(actor))
			}
		}
		return nil
	})
	return out, n, err
}

// Subscription is whether a user watches an issue (GET
// .../subscriptions/check).
type Subscription struct {
	Issue    *Issue
	Repo     *forge.Repository
	Watching bool
}

// CheckSubscription tells whether the actor (signed in) watches issue
// index: its explicit choice when it made one, else whether it takes part
// in the issue (its poster or the author of a comment), as Forgejo's
// CheckIssueWatch (the repository watch is not consulted: package issues
// does not see it). A not-found error when there is no such issue.
func (s *Service) CheckSubscription(ctx context.Context, actor forge.Actor, owner, repo string, index int64) (*Subscription, error) {
	a, err := s.open(ctx, actor, owner, repo, forge.AccessRead)
	if err != nil {
		return nil, err
	}
	if !actor.IsSignedIn() {
		return nil, tokenRequired()
	}
	var out *Subscription
	err = s.store.View(ctx, func(tx Tx) error {
		is, err := a.issue(ctx, tx, index)
		if err != nil {
			return notFound()
		}
		watching, err := watches(ctx, tx, actor.User.ID, is)
		out = &Subscription{Issue: is, Repo: a.repo, Watching: watching}
		return err
	})
	return out, err
}

// watches is Forgejo's CheckIssueWatch without the repository watch.
func watches(ctx context.Context, tx Tx, userID forge.ID, is *Issue) (bool, error) {
	w, err := tx.IssueWatch(ctx, userID, is.ID)
	if err == nil {
		return w.IsWatching, nil
	} else if !errors.Is(err, forge.ErrNotFound) {
		return false, err
	}
	if is.PosterID == userID {
		return true, nil
	}
	cs, _, err := tx.ListComments(ctx, CommentFilter{IssueID: is.ID, Types: []CommentType{CommentPlain}}, all)
	if err != nil {
		return false, err
	}
	for _, c := range cs {
		if c.PosterID == userID {
			return true, nil
		}
	}
	return false, nil
}

// Subscribe makes user watch (watch true) or stop watching issue index
// (write:issue, signed in) and reports whether that changed anything
// (Forgejo answers 201 when it did, 200 when not). Only the user itself
// or a site administrator may do it: forge.ErrForbidden `<actor> is not
// permitted to change subscriptions for <user>`. A not-found error when
// the user or the issue does not exist.
func (s *Service) Subscribe(ctx context.Context, actor forge.Actor, owner, repo string, index int64, user string, watch bool) (changed bool, err error) {
	a, err := s.open(ctx, actor, owner, repo, forge.AccessWrite)
	if err != nil {
		return false, err
	}
	now := s.clock.Now()
	err = s.store.Update(ctx, func(tx Tx) error {
		is, err := a.issue(ctx, tx, index)
		if err != nil {
			return notFound()
		}
		u, err := tx.UserByName(ctx, user)
		if errors.Is(err, forge.ErrNotFound) {
			return notFound()
		} else if err != nil {
			return err
		}
		if u.ID != actor.User.ID && !actor.IsSiteAdmin() {
			return forge.Errorf(forge.ErrForbidden, "%s is not permitted to change subscriptions for %s", actor.User.Name, u.Name)
		}
		current, err := watches(ctx, tx, u.ID, is)
		if err != nil || current == watch {
			return err
		}
		changed = true
		return tx.SetIssueWatch(ctx, &IssueWatch{UserID: u.ID, IssueID: is.ID, IsWatching: watch, Created: now, Updated: now})
	})
	return changed, err
}
