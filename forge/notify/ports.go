package notify

import (
	"context"
	"slices"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// Ports are the notification service's trusted operations: they take no
// actor, so they are not on the published Service. Only the composition
// root (forge/site) receives them, from NewWithPorts: it makes the
// notifications of the issue events of the outbox with Notify.
type Ports struct{ s *Service }

// NewWithPorts is New, also returning the service's Ports.
func NewWithPorts(cfg Config) (*Service, *Ports, error) {
	s, err := New(cfg)
	if err != nil {
		return nil, nil, err
	}
	return s, &Ports{s: s}, nil
}

// Notify gives every recipient of e (Recipients of the repository's
// watchers and the issue's participants, never the doer) who may read the
// issue's unit of the repository a thread: a new unread one, or their
// thread of the issue brought up to date (Bump). Users who may not read it
// (any more) get nothing. All threads are written in one transaction.
// It is idempotent up to the threads' time: told of the same event again
// (an outbox consumer retried), it brings the same threads up to date
// rather than adding any. It checks no actor: the event's doer acted and
// was checked by the domain that made the event.
func (p *Ports) Notify(ctx context.Context, e Event) error {
	var watchers, participants []forge.ID
	var err error
	if p.s.cfg.Watchers != nil {
		if watchers, err = p.s.cfg.Watchers.WatcherIDs(ctx, e.RepoID); err != nil {
			return err
		}
	}
	if p.s.cfg.Participants != nil {
		if participants, err = p.s.cfg.Participants.Participants(ctx, e.IssueID); err != nil {
			return err
		}
	}
	ids := Recipients(e.Doer, watchers, slices.Concat(participants, e.Mentioned))
	if len(ids) == 0 {
		return nil
	}
	var users map[forge.ID]*forge.User
	if err := p.s.cfg.Store.View(ctx, func(tx Tx) error {
		users, err = tx.UsersByID(ctx, ids)
		return err
	}); err != nil {
		return err
	}
	src := SourceOf(e.IsPull)
	var to []forge.ID
	for _, id := range ids {
		u := users[id]
		if u == nil || u.IsOrganization() || !u.IsActive || u.ProhibitLogin {
			continue
		}
		perms, err := p.s.cfg.Repos.PermissionsByID(ctx, forge.Actor{User: u}, []forge.ID{e.RepoID})
		if err != nil {
			return err
		}
		if p, ok := perms[e.RepoID]; ok && p.CanRead(src.Unit()) {
			to = append(to, id)
		}
	}
	if len(to) == 0 {
		return nil
	}
	now := e.At
	if now.IsZero() {
		now = p.s.clock.Now()
	}
	return p.s.cfg.Store.Update(ctx, func(tx Tx) error {
		have, err := tx.ThreadsOfIssue(ctx, e.IssueID, to)
		if err != nil {
			return err
		}
		for _, id := range to {
			if t := have[id]; t != nil {
				// An event handled late (retried, or after a restart)
				// never moves a thread back in time.
				b := Bump(*t, e.CommentID, e.Doer, maxTime(now, t.Updated))
				if err := tx.UpdateThread(ctx, &b); err != nil {
					return err
				}
				continue
			}
			t := &Thread{UserID: id, RepoID: e.RepoID, Status: StatusUnread, Source: src, IssueID: e.IssueID,
				CommentID: e.CommentID, UpdatedBy: e.Doer, Created: now, Updated: now}
			if err := tx.CreateThread(ctx, t); err != nil {
				return err
			}
		}
		return nil
	})
}

// maxTime is the later of a and b.
func maxTime(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}
