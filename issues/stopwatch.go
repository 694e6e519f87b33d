package issues

import (
	"context"
	"errors"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// ErrStopwatchState: a stopwatch is started twice, or stopped or cancelled
// when none runs. Forgejo answers 409. It is a forge.ErrConflict.
var ErrStopwatchState = errors.New("stopwatch state")

// StopwatchView is a running stopwatch with its issue and repository.
type StopwatchView struct {
	Stopwatch *Stopwatch
	Issue     *Issue
	Repo      RepoRef
	// Seconds is the time it has run, at the time of the call.
	Seconds int64
}

// stopwatchAccess is Forgejo's prepareIssueStopwatch: write:issue, the
// issue (ErrIssueNotFound), a writer of its unit who may track time (else
// the bare 403, ErrNotPoster), and the actor's stopwatch on it, which must
// exist when running, else forge.ErrConflict with Forgejo's message.
func (s *Service) stopwatchAccess(ctx context.Context, tx Tx, a *access, index int64, running bool) (*Issue, *Stopwatch, error) {
	is, err := a.issue(ctx, tx, index)
	if err != nil {
		return nil, nil, err
	}
	if !a.canWrite(is.IsPull) {
		return nil, nil, notPoster()
	}
	if _, err := s.timeAccess(ctx, tx, a, index); err != nil {
		return nil, nil, notPoster()
	}
	list, _, err := tx.Stopwatches(ctx, a.actor.UserID(), is.ID, forge.ListOptions{Page: 1, Limit: -1})
	if err != nil {
		return nil, nil, err
	}
	switch {
	case running && len(list) == 0:
		return nil, nil, forge.Reasonf(forge.ErrConflict, ErrStopwatchState, "cannot stop/cancel a non existent stopwatch")
	case !running && len(list) > 0:
		return nil, nil, forge.Reasonf(forge.ErrConflict, ErrStopwatchState, "cannot start a stopwatch again if it already exists")
	}
	var sw *Stopwatch
	if running {
		sw = list[0]
	}
	return is, sw, nil
}

// StartStopwatch starts the actor's stopwatch on issue index (POST
// /issues/{index}/stopwatch/start; write:issue): the errors of
// stopwatchAccess. A user runs one stopwatch at a time: one running on
// another issue is stopped first, recording its time (Forgejo's
// CreateIssueStopwatch).
func (s *Service) StartStopwatch(ctx context.Context, actor forge.Actor, owner, repo string, index int64) error {
	a, err := s.open(ctx, actor, owner, repo, forge.AccessWrite)
	if err != nil {
		return err
	}
	now := s.clock.Now()
	return s.store.Update(ctx, func(tx Tx) error {
		is, _, err := s.stopwatchAccess(ctx, tx, a, index, false)
		if err != nil {
			return err
		}
		others, _, err := tx.Stopwatches(ctx, actor.UserID(), 0, forge.ListOptions{Page: 1, Limit: -1})
		if err != nil {
			return err
		}
		for _, sw := range others {
			other, err := tx.IssueByID(ctx, sw.IssueID)
			if err != nil {
				return err
			}
			if err := finishStopwatch(ctx, tx, other, sw, now); err != nil {
				return err
			}
		}
		if err := tx.CreateStopwatch(ctx, &Stopwatch{IssueID: is.ID, UserID: actor.UserID(), Created: now}); err != nil {
			return err
		}
		return timeComment(ctx, tx, is, actor.UserID(), CommentStartTracking, 0, now)
	})
}

// finishStopwatch removes sw and records the time it ran as a tracked
// time of its user, with a stop comment.
func finishStopwatch(ctx context.Context, tx Tx, is *Issue, sw *Stopwatch, now time.Time) error {
	secs := int64(now.Sub(sw.Created) / time.Second)
	if secs < 0 {
		secs = 0
	}
	if err := tx.CreateTrackedTime(ctx, &TrackedTime{IssueID: is.ID, UserID: sw.UserID, Created: now, Seconds: secs}); err != nil {
		return err
	}
	if err := tx.DeleteStopwatch(ctx, sw.ID); err != nil {
		return err
	}
	return timeComment(ctx, tx, is, sw.UserID, CommentStopTracking, secs, now)
}

// StopStopwatch stops the actor's stopwatch on issue index and records
// the time it ran (POST /issues/{index}/stopwatch/stop; write:issue): the
// errors of stopwatchAccess.
func (s *Service) StopStopwatch(ctx context.Context, actor forge.Actor, owner, repo string, index int64) error {
	a, err := s.open(ctx, actor, owner, repo, forge.AccessWrite)
	if err != nil {
		return err
	}
	now := s.clock.Now()
	return s.store.Update(ctx, func(tx Tx) error {
		is, sw, err := s.stopwatchAccess(ctx, tx, a, index, true)
		if err != nil {
			return err
		}
		return finishStopwatch(ctx, tx, is, sw, now)
	})
}

// DeleteStopwatch cancels the actor's stopwatch on issue index without
// recording time (DELETE /issues/{index}/stopwatch/delete; write:issue):
// the errors of stopwatchAccess.
func (s *Service) DeleteStopwatch(ctx context.Context, actor forge.Actor, owner, repo string, index int64) error {
	a, err := s.open(ctx, actor, owner, repo, forge.AccessWrite)
	if err != nil {
		return err
	}
	now := s.clock.Now()
	return s.store.Update(ctx, func(tx Tx) error {
		is, sw, err := s.stopwatchAccess(ctx, tx, a, index, true)
		if err != nil {
			return err
		}
		if err := tx.DeleteStopwatch(ctx, sw.ID); err != nil {
			return err
		}
		return timeComment(ctx, tx, is, actor.UserID(), CommentCancelTracking, 0, now)
	})
}

// ListStopwatches lists the actor's running stopwatches (GET
// /user/stopwatches; read:user), one page when o.Page is set (every one
// otherwise, as Forgejo), and their number.
func (s *Service) ListStopwatches(ctx context.Context, actor forge.Actor, o forge.ListOptions) ([]*StopwatchView, int64, error) {
	if err := actor.Check(forge.AccessRead, forge.CategoryUser); err != nil {
		return nil, 0, err
	}
	if !actor.IsSignedIn() {
		return nil, 0, tokenRequired()
	}
	if o.Page > 0 {
		o = o.Normalize()
	} else {
		o = forge.ListOptions{Page: 1, Limit: -1}
	}
	now := s.clock.Now()
	var out []*StopwatchView
	var total int64
	err := s.store.View(ctx, func(tx Tx) error {
		list, n, err := tx.Stopwatches(ctx, actor.UserID(), 0, o)
		if err != nil {
			return err
		}
		total = n
		ids := make([]forge.ID, 0, len(list))
		for _, sw := range list {
			ids = append(ids, sw.IssueID)
		}
		byID, err := tx.IssuesByID(ctx, ids)
		if err != nil {
			return err
		}
		var repoIDs []forge.ID
		for _, is := range byID {
			repoIDs = append(repoIDs, is.RepoID)
		}
		refs, err := tx.RepoRefs(ctx, repoIDs)
		if err != nil {
			return err
		}
		out = make([]*StopwatchView, 0, len(list))
		for _, sw := range list {
			is := byID[sw.IssueID]
			if is == nil {
				continue
			}
			secs := max(int64(now.Sub(sw.Created)/time.Second), 0)
			out = append(out, &StopwatchView{Stopwatch: sw, Issue: is, Repo: refs[is.RepoID], Seconds: secs})
		}
		return nil
	})
	return out, total, err
}
