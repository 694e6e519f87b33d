package issues

import (
	"context"
	"errors"
	"strconv"

	"github.com/hearthforge/hearth/forge"
)

// org resolves an organisation for its labels: the organization token
// scope at level, the organisation as Config.Orgs finds it (its errors
// unchanged), and for writes a signed-in owner (`token is required`,
// forge.ErrForbidden `Must be an organization owner`).
func (s *Service) org(ctx context.Context, actor forge.Actor, name string, level forge.AccessLevel) (*forge.User, error) {
	if err := actor.Check(level, forge.CategoryOrganization); err != nil {
		return nil, err
	}
	if s.cfg.Orgs == nil {
		return nil, notFound()
	}
	o, owner, _, err := s.cfg.Orgs.MemberRole(ctx, actor, name)
	if err != nil {
		return nil, err
	}
	if level == forge.AccessWrite {
		if !actor.IsSignedIn() {
			return nil, tokenRequired()
		}
		if !owner {
			return nil, forge.Errorf(forge.ErrForbidden, "Must be an organization owner")
		}
	}
	return o, nil
}

func orgLabel(ctx context.Context, tx Tx, orgID, id forge.ID) (*Label, error) {
	l, err := tx.LabelByID(ctx, id)
	if errors.Is(err, forge.ErrNotFound) || err == nil && l.OrgID != orgID {
		return nil, labelNotFound("label_id: " + strconv.FormatInt(id, 10) + ", org_id: " + strconv.FormatInt(orgID, 10))
	}
	return l, err
}

// ListOrgLabels returns one page of org's labels in sort's order and their
// number (read:organization).
func (s *Service) ListOrgLabels(ctx context.Context, actor forge.Actor, org string, sort LabelSort, o forge.ListOptions) ([]*Label, int64, error) {
	ou, err := s.org(ctx, actor, org, forge.AccessRead)
	if err != nil {
		return nil, 0, err
	}
	var (
		ls []*Label
		n  int64
	)
	err = s.store.View(ctx, func(tx Tx) error {
		ls, n, err = tx.ListLabels(ctx, LabelFilter{OrgID: ou.ID, Sort: sort}, o.Normalize())
		return err
	})
	return ls, n, err
}

// GetOrgLabel returns a label of org by id when idOrName is a number, else
// by name (read:organization); ErrLabelNotFound if none.
func (s *Service) GetOrgLabel(ctx context.Context, actor forge.Actor, org, idOrName string) (*Label, error) {
	ou, err := s.org(ctx, actor, org, forge.AccessRead)
	if err != nil {
		return nil, err
	}
	var l *Label
	err = s.store.View(ctx, func(tx Tx) error {
		if id, perr := strconv.ParseInt(idOrName, 10, 64); perr == nil {
			l, err = orgLabel(ctx, tx, ou.ID, id)
			return err
		}
		ls, _, err := tx.ListLabels(ctx, LabelFilter{OrgID: ou.ID, Names: []string{idOrName}}, all)
		if err != nil {
			return err
		}
		if len(ls) == 0 {
			return labelNotFound("name: " + idOrName + ", org_id: " + strconv.FormatInt(ou.ID, 10))
		}
		l = ls[0]
		return nil
	})
	return l, err
}

// CreateOrgLabel adds a label to org (write:organization; owners of the
// organisation, else forge.ErrForbidden `Must be an organization owner`);
// the validation of CreateLabel.
func (s *Service) CreateOrgLabel(ctx context.Context, actor forge.Actor, org string, opt CreateLabelOption) (*Label, error) {
	ou, err := s.org(ctx, actor, org, forge.AccessWrite)
	if err != nil {
		return nil, err
	}
	l, err := newLabel(opt, s.clock.Now())
	if err != nil {
		return nil, err
	}
	l.OrgID = ou.ID
	err = s.store.Update(ctx, func(tx Tx) error { return tx.CreateLabel(ctx, l) })
	return l, err
}

// EditOrgLabel changes label id of org (as CreateOrgLabel and EditLabel).
func (s *Service) EditOrgLabel(ctx context.Context, actor forge.Actor, org string, id forge.ID, opt EditLabelOption) (*Label, error) {
	ou, err := s.org(ctx, actor, org, forge.AccessWrite)
	if err != nil {
		return nil, err
	}
	now := s.clock.Now()
	var l *Label
	err = s.store.Update(ctx, func(tx Tx) error {
		if l, err = orgLabel(ctx, tx, ou.ID, id); err != nil {
			return err
		}
		if err := editLabel(l, opt, now); err != nil {
			return err
		}
		return tx.UpdateLabel(ctx, l)
	})
	return l, err
}

// DeleteOrgLabel removes label id of org from it and from every issue.
func (s *Service) DeleteOrgLabel(ctx context.Context, actor forge.Actor, org string, id forge.ID) error {
	ou, err := s.org(ctx, actor, org, forge.AccessWrite)
	if err != nil {
		return err
	}
	return s.store.Update(ctx, func(tx Tx) error {
		if _, err := orgLabel(ctx, tx, ou.ID, id); err != nil {
			return err
		}
		return tx.DeleteLabel(ctx, id)
	})
}
