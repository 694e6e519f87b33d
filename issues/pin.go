package issues

import (
	"context"

	"github.com/hearthforge/hearth/forge"
)

// MaxPinned is Forgejo's [repository.issue] MAX_PINNED: how many issues
// (and, apart, how many pull requests) a repository may pin.
const MaxPinned = 3

// MovePin is the pure rule of Forgejo's Issue.MovePin: the pin orders of
// the pinned issues (ordered by pin) after moving the one at position from
// (1-based) to position to, clamped to [1, len]. It returns the new
// order of each position's issue: out[i] is the new PinOrder of pinned[i].
func MovePin(n, from, to int) []int {
	to = max(1, min(to, n))
	out := make([]int, n)
	for i := range n {
		p := i + 1
		switch {
		case p == from:
			p = to
		case from < to && p > from && p <= to:
			p--
		case to < from && p >= to && p < from:
			p++
		}
		out[i] = p
	}
	return out
}

// pinAccess opens owner/repo for a pin change: write:issue, and Forgejo's
// reqAdmin (repository administrators and owners), else forge.ErrForbidden.
func (s *Service) pinAccess(ctx context.Context, actor forge.Actor, owner, repo string) (*access, error) {
	a, err := s.open(ctx, actor, owner, repo, forge.AccessWrite)
	if err != nil {
		return nil, err
	}
	if !a.isAdmin() {
		return nil, forge.Errorf(forge.ErrForbidden, "user should be an owner or a collaborator with admin write of a repository")
	}
	return a, nil
}

// Pin pins issue index last among the pinned issues (or pull requests) of
// its repository and records a pin event; pinning a pinned issue changes
// nothing. Repository administrators only (see pinAccess). Returns
// forge.ErrForbidden `You have reached the max number of pinned Issues`
// when MaxPinned are pinned already (Forgejo answers 500; 403 is the
// document's status for a refusal);
// ErrIssueNotFound.
func (s *Service) Pin(ctx context.Context, actor forge.Actor, owner, repo string, index int64) error {
	a, err := s.pinAccess(ctx, actor, owner, repo)
	if err != nil {
		return err
	}
	now := s.clock.Now()
	return s.store.Update(ctx, func(tx Tx) error {
		is, err := a.issue(ctx, tx, index)
		if err != nil || is.PinOrder > 0 {
			return err
		}
		pinned, err := tx.PinnedIssues(ctx, a.repo.ID, is.IsPull)
		if err != nil {
			return err
		}
		if len(pinned) >= MaxPinned {
			return forge.Errorf(forge.ErrForbidden, "You have reached the max number of pinned Issues")
		}
		top := 0
		for _, p := range pinned {
			top = max(top, p.PinOrder)
		}
		is.PinOrder = top + 1
		if err := tx.UpdateIssue(ctx, is); err != nil {
			return err
		}
		return tx.CreateComment(ctx, &Comment{IssueID: is.ID, Type: CommentPin, PosterID: actor.UserID(), Created: now, Updated: now})
	})
}

// Unpin unpins issue index, closes the gap it leaves and records an unpin
// event; unpinning an issue that is not pinned changes nothing. Errors as
// Pin, but for the maximum.
func (s *Service) Unpin(ctx context.Context, actor forge.Actor, owner, repo string, index int64) error {
	a, err := s.pinAccess(ctx, actor, owner, repo)
	if err != nil {
		return err
	}
	now := s.clock.Now()
	return s.store.Update(ctx, func(tx Tx) error {
		is, err := a.issue(ctx, tx, index)
		if err != nil || is.PinOrder == 0 {
			return err
		}
		pinned, err := tx.PinnedIssues(ctx, a.repo.ID, is.IsPull)
		if err != nil {
			return err
		}
		for _, p := range pinned {
			if p.ID != is.ID && p.PinOrder > is.PinOrder {
				p.PinOrder--
				if err := tx.UpdateIssue(ctx, p); err != nil {
					return err
				}
			}
		}
		is.PinOrder = 0
		if err := tx.UpdateIssue(ctx, is); err != nil {
			return err
		}
		return tx.CreateComment(ctx, &Comment{IssueID: is.ID, Type: CommentUnpin, PosterID: actor.UserID(), Created: now, Updated: now})
	})
}

// MovePinTo moves pinned issue index to position (1 is first; past the
// last is last), shifting the others (MovePin). Moving an issue that is
// not pinned changes nothing. Returns forge.ErrForbidden `The Position
// can't be lower than 1` for a position below 1 (Forgejo answers 500;
// 403 is the document's status for a refusal); errors as Unpin.
func (s *Service) MovePinTo(ctx context.Context, actor forge.Actor, owner, repo string, index int64, position int) error {
	a, err := s.pinAccess(ctx, actor, owner, repo)
	if err != nil {
		return err
	}
	return s.store.Update(ctx, func(tx Tx) error {
		is, err := a.issue(ctx, tx, index)
		if err != nil || is.PinOrder == 0 {
			return err
		}
		if position < 1 {
			return forge.Errorf(forge.ErrForbidden, "The Position can't be lower than 1")
		}
		pinned, err := tx.PinnedIssues(ctx, a.repo.ID, is.IsPull)
		if err != nil {
			return err
		}
		from := 0
		for i, p := range pinned {
			if p.ID == is.ID {
				from = i + 1
			}
		}
		for i, order := range MovePin(len(pinned), from, position) {
			if p := pinned[i]; p.PinOrder != order {
				p.PinOrder = order
				if err := tx.UpdateIssue(ctx, p); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

// openRepo is open for the repository routes of pins (Forgejo's
// repository group): the token scope is cat's at level read.
func (s *Service) openRepo(ctx context.Context, actor forge.Actor, owner, name string, cat forge.ScopeCategory) (*access, error) {
	if err := actor.Check(forge.AccessRead, cat); err != nil {
		return nil, err
	}
	repo, perm, err := s.repos.RepoAccess(ctx, actor, owner, name)
	if err != nil {
		return nil, err
	}
	a := &access{actor: actor, repo: repo, perm: perm}
	if !a.canRead(false) && !a.canRead(true) {
		return nil, notFound()
	}
	return a, nil
}

// Pinned returns the pinned issues (pulls false; read:issue) or pull
// requests (read:repository) of owner/repo in pin order, as the actor may
// read them.
func (s *Service) Pinned(ctx context.Context, actor forge.Actor, owner, repo string, pulls bool) ([]*IssueView, error) {
	cat := forge.CategoryIssue
	if pulls {
		cat = forge.CategoryRepository
	}
	a, err := s.openRepo(ctx, actor, owner, repo, cat)
	if err != nil {
		return nil, err
	}
	var out []*IssueView
	err = s.store.View(ctx, func(tx Tx) error {
		if !a.canRead(pulls) {
			out = []*IssueView{}
			return nil
		}
		list, err := tx.PinnedIssues(ctx, a.repo.ID, pulls)
		if err != nil {
			return err
		}
		out, err = a.views(ctx, tx, list)
		return err
	})
	return out, err
}

// PinsAllowed tells whether owner/repo may pin one more issue and one
// more pull request (GET /repos/{owner}/{repo}/new_pin_allowed;
// read:repository).
func (s *Service) PinsAllowed(ctx context.Context, actor forge.Actor, owner, repo string) (issues, pulls bool, err error) {
	a, err := s.openRepo(ctx, actor, owner, repo, forge.CategoryRepository)
	if err != nil {
		return false, false, err
	}
	err = s.store.View(ctx, func(tx Tx) error {
		is, err := tx.PinnedIssues(ctx, a.repo.ID, false)
		if err != nil {
			return err
		}
		ps, err := tx.PinnedIssues(ctx, a.repo.ID, true)
		issues, pulls = len(is) < MaxPinned, len(ps) < MaxPinned
		return err
	})
	return issues, pulls, err
}
