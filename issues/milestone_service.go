package issues

import (
	"context"
	"errors"
	"strconv"

	"github.com/hearthforge/hearth/forge"
)

// milestone is Forgejo's getMilestoneByIDOrName: an integer (any base Go
// accepts) naming a milestone of the repository is its id; otherwise the
// text is a title. ErrMilestoneNotFound if neither.
func (a *access) milestone(ctx context.Context, tx Tx, idOrName string) (*Milestone, error) {
	if id, err := strconv.ParseInt(idOrName, 0, 64); err == nil {
		m, err := tx.MilestoneByID(ctx, a.repo.ID, id)
		if !errors.Is(err, forge.ErrNotFound) {
			return m, err
		}
	}
	ms, _, err := tx.ListMilestones(ctx, MilestoneFilter{RepoID: a.repo.ID, Name: idOrName}, all)
	if err != nil {
		return nil, err
	}
	if len(ms) == 0 {
		return nil, milestoneNotFound(a.repo.ID, "name: "+idOrName)
	}
	return ms[0], nil
}

// ListMilestones returns one page of owner/repo's milestones ordered by
// due date, and their number (read:issue). opt.State StateOpen or
// StateClosed filters; anything else lists both.
func (s *Service) ListMilestones(ctx context.Context, actor forge.Actor, owner, repo string, opt ListMilestonesOption) ([]*Milestone, int64, error) {
	a, err := s.open(ctx, actor, owner, repo, forge.AccessRead)
	if err != nil {
		return nil, 0, err
	}
	var (
		ms []*Milestone
		n  int64
	)
	err = s.store.View(ctx, func(tx Tx) error {
		ms, n, err = tx.ListMilestones(ctx, MilestoneFilter{RepoID: a.repo.ID, State: opt.State, NameContains: opt.Name}, opt.ListOptions.Normalize())
		return err
	})
	return ms, n, err
}

// GetMilestone returns a milestone by id (when idOrName parses as an
// integer naming one) or else by title (read:issue); ErrMilestoneNotFound
// if none.
func (s *Service) GetMilestone(ctx context.Context, actor forge.Actor, owner, repo, idOrName string) (*Milestone, error) {
	a, err := s.open(ctx, actor, owner, repo, forge.AccessRead)
	if err != nil {
		return nil, err
	}
	var m *Milestone
	err = s.store.View(ctx, func(tx Tx) error {
		m, err = a.milestone(ctx, tx, idOrName)
		return err
	})
	return m, err
}

// CreateMilestone adds a milestone to owner/repo (write:issue; writers of
// issues or pulls, else forge.ErrForbidden `user should have a permission
// to write to a repo`). Without a deadline it gets NoDeadline; with State
// StateClosed it is created closed. (Forgejo requires no title.)
func (s *Service) CreateMilestone(ctx context.Context, actor forge.Actor, owner, repo string, opt CreateMilestoneOption) (*Milestone, error) {
	a, err := s.open(ctx, actor, owner, repo, forge.AccessWrite)
	if err != nil {
		return nil, err
	}
	if err := a.requireWriter(); err != nil {
		return nil, err
	}
	now := s.clock.Now()
	m := &Milestone{RepoID: a.repo.ID, Title: opt.Title, Description: opt.Description, Deadline: NoDeadline, Created: now, Updated: now}
	if opt.Deadline != nil && !opt.Deadline.IsZero() {
		m.Deadline = opt.Deadline.UTC()
	}
	if opt.State == StateClosed {
		m.IsClosed, m.Closed = true, now
	}
	err = s.store.Update(ctx, func(tx Tx) error { return tx.CreateMilestone(ctx, m) })
	return m, err
}

// EditMilestone changes a milestone (found as GetMilestone; written as
// CreateMilestone): Title when non-empty, Description when non-nil, State
// (StateClosed closes, anything else opens), Deadline when non-nil and
// non-zero.
func (s *Service) EditMilestone(ctx context.Context, actor forge.Actor, owner, repo, idOrName string, opt EditMilestoneOption) (*Milestone, error) {
	a, err := s.open(ctx, actor, owner, repo, forge.AccessWrite)
	if err != nil {
		return nil, err
	}
	if err := a.requireWriter(); err != nil {
		return nil, err
	}
	now := s.clock.Now()
	var m *Milestone
	err = s.store.Update(ctx, func(tx Tx) error {
		if m, err = a.milestone(ctx, tx, idOrName); err != nil {
			return err
		}
		if opt.Title != nil && *opt.Title != "" {
			m.Title = *opt.Title
		}
		if opt.Description != nil {
			m.Description = *opt.Description
		}
		if opt.Deadline != nil && !opt.Deadline.IsZero() {
			m.Deadline = opt.Deadline.UTC()
		}
		if opt.State != nil {
			if closed := *opt.State == StateClosed; closed != m.IsClosed {
				// Reopening keeps the old closing time, as Forgejo's
				// closed_date_unix; the JSON shows it only when closed.
				m.IsClosed = closed
				if closed {
					m.Closed = now
				}
			}
		}
		m.Updated = now
		return tx.UpdateMilestone(ctx, m)
	})
	return m, err
}

// DeleteMilestone removes a milestone (found as GetMilestone; writers);
// its issues keep none.
func (s *Service) DeleteMilestone(ctx context.Context, actor forge.Actor, owner, repo, idOrName string) error {
	a, err := s.open(ctx, actor, owner, repo, forge.AccessWrite)
	if err != nil {
		return err
	}
	if err := a.requireWriter(); err != nil {
		return err
	}
	return s.store.Update(ctx, func(tx Tx) error {
		m, err := a.milestone(ctx, tx, idOrName)
		if err != nil {
			return err
		}
		return tx.DeleteMilestone(ctx, m.ID)
	})
}
