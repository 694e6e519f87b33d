package issues

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// labelsByID returns the labels of ids that belong to a's repository or
// to its owner (organisation labels), sorted by name; others are ignored.
func (a *access) labelsByID(ctx context.Context, tx Tx, ids []forge.ID) ([]*Label, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	ls, _, err := tx.ListLabels(ctx, LabelFilter{RepoID: a.repo.ID, OrgID: a.orgID(), IDs: ids}, all)
	return ls, err
}

// labelsByName is labelsByID by names (every label of each name, of the
// repository and of its organisation).
func (a *access) labelsByName(ctx context.Context, tx Tx, names []string) ([]*Label, error) {
	if len(names) == 0 {
		return nil, nil
	}
	ls, _, err := tx.ListLabels(ctx, LabelFilter{RepoID: a.repo.ID, OrgID: a.orgID(), Names: names}, all)
	return ls, err
}

// newLabel validates opt into a label (without owner).
func newLabel(opt CreateLabelOption, now time.Time) (*Label, error) {
	if opt.Name == "" {
		return nil, forge.Errorf(forge.ErrInvalid, "[Name]: Required")
	}
	if opt.Color == "" {
		return nil, forge.Errorf(forge.ErrInvalid, "[Color]: Required")
	}
	c, err := NormalizeColor(opt.Color)
	if err != nil {
		return nil, err
	}
	l := &Label{Name: opt.Name, Color: c, Exclusive: opt.Exclusive, Description: opt.Description}
	SetArchived(l, opt.IsArchived, now)
	return l, nil
}

// SetArchived archives or un-archives l: archiving an archived label
// keeps the time it was first archived; un-archiving clears it (Forgejo's
// Label.SetArchived, archived_unix).
func SetArchived(l *Label, archived bool, now time.Time) {
	switch {
	case !archived:
		l.Archived = time.Time{}
	case l.Archived.IsZero():
		l.Archived = now
	}
}

// editLabel applies opt to l.
func editLabel(l *Label, opt EditLabelOption, now time.Time) error {
	if opt.Color != nil {
		c, err := NormalizeColor(*opt.Color)
		if err != nil {
			return err
		}
		l.Color = c
	}
	if opt.Name != nil {
		l.Name = *opt.Name
	}
	if opt.Exclusive != nil {
		l.Exclusive = *opt.Exclusive
	}
	if opt.Description != nil {
		l.Description = *opt.Description
	}
	// Forgejo's BUG, kept: an absent is_archived un-archives.
	SetArchived(l, opt.IsArchived != nil && *opt.IsArchived, now)
	return nil
}

// listOptionsForLabels is Forgejo's rule for repository labels: paged
// only when a page is given.
func listOptionsForLabels(o forge.ListOptions) forge.ListOptions {
	if o.Page == 0 {
		return all
	}
	return o.Normalize()
}

// ListLabels returns owner/repo's labels in sort's order and their
// number (read:issue). o.Page 0 lists them all (Forgejo pages repository
// labels only when `page` is given).
func (s *Service) ListLabels(ctx context.Context, actor forge.Actor, owner, repo string, sort LabelSort, o forge.ListOptions) ([]*Label, int64, error) {
	a, err := s.open(ctx, actor, owner, repo, forge.AccessRead)
	if err != nil {
		return nil, 0, err
	}
	var (
		ls []*Label
		n  int64
	)
	err = s.store.View(ctx, func(tx Tx) error {
		ls, n, err = tx.ListLabels(ctx, LabelFilter{RepoID: a.repo.ID, Sort: sort}, listOptionsForLabels(o))
		return err
	})
	return ls, n, err
}

// repoLabel loads label id of a's repository; ErrLabelNotFound if none.
func (a *access) repoLabel(ctx context.Context, tx Tx, id forge.ID) (*Label, error) {
	l, err := tx.LabelByID(ctx, id)
	if errors.Is(err, forge.ErrNotFound) || err == nil && l.RepoID != a.repo.ID {
		return nil, labelNotFound("label_id: " + strconv.FormatInt(id, 10) + ", repo_id: " + strconv.FormatInt(a.repo.ID, 10))
	}
	return l, err
}

// GetLabel returns a label of owner/repo by id when idOrName is a number,
// else by name (Forgejo's GetLabel: a number is never a name);
// ErrLabelNotFound if none.
func (s *Service) GetLabel(ctx context.Context, actor forge.Actor, owner, repo, idOrName string) (*Label, error) {
	a, err := s.open(ctx, actor, owner, repo, forge.AccessRead)
	if err != nil {
		return nil, err
	}
	var l *Label
	err = s.store.View(ctx, func(tx Tx) error {
		if id, perr := strconv.ParseInt(idOrName, 10, 64); perr == nil {
			l, err = a.repoLabel(ctx, tx, id)
			return err
		}
		ls, _, err := tx.ListLabels(ctx, LabelFilter{RepoID: a.repo.ID, Names: []string{idOrName}}, all)
		if err != nil {
			return err
		}
		if len(ls) == 0 {
			return labelNotFound("name: " + idOrName + ", repo_id: " + strconv.FormatInt(a.repo.ID, 10))
		}
		l = ls[0]
		return nil
	})
	return l, err
}

// CreateLabel adds a label to owner/repo (write:issue; writers of issues or
// pulls, else forge.ErrForbidden `user should have a permission to write to
// a repo`). forge.ErrInvalid `[Name]: Required`, `[Color]: Required`, or
// `bad color code: <c>`.
func (s *Service) CreateLabel(ctx context.Context, actor forge.Actor, owner, repo string, opt CreateLabelOption) (*Label, error) {
	a, err := s.open(ctx, actor, owner, repo, forge.AccessWrite)
	if err != nil {
		return nil, err
	}
	if err := a.requireWriter(); err != nil {
		return nil, err
	}
	l, err := newLabel(opt, s.clock.Now())
	if err != nil {
		return nil, err
	}
	l.RepoID = a.repo.ID
	err = s.store.Update(ctx, func(tx Tx) error { return tx.CreateLabel(ctx, l) })
	return l, err
}

// EditLabel changes label id of owner/repo (as CreateLabel);
// ErrLabelNotFound if none. An absent IsArchived un-archives the label
// (Forgejo's behaviour).
func (s *Service) EditLabel(ctx context.Context, actor forge.Actor, owner, repo string, id forge.ID, opt EditLabelOption) (*Label, error) {
	a, err := s.open(ctx, actor, owner, repo, forge.AccessWrite)
	if err != nil {
		return nil, err
	}
	if err := a.requireWriter(); err != nil {
		return nil, err
	}
	now := s.clock.Now()
	var l *Label
	err = s.store.Update(ctx, func(tx Tx) error {
		if l, err = a.repoLabel(ctx, tx, id); err != nil {
			return err
		}
		if err := editLabel(l, opt, now); err != nil {
			return err
		}
		return tx.UpdateLabel(ctx, l)
	})
	return l, err
}

// DeleteLabel removes label id of owner/repo and takes it off every issue;
// ErrLabelNotFound if none.
func (s *Service) DeleteLabel(ctx context.Context, actor forge.Actor, owner, repo string, id forge.ID) error {
	a, err := s.open(ctx, actor, owner, repo, forge.AccessWrite)
	if err != nil {
		return err
	}
	if err := a.requireWriter(); err != nil {
		return err
	}
	return s.store.Update(ctx, func(tx Tx) error {
		if _, err := a.repoLabel(ctx, tx, id); err != nil {
			return err
		}
		return tx.DeleteLabel(ctx, id)
	})
}
