package issues

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// IssueLabels returns the labels of issue index ordered by name
// (read:issue).
func (s *Service) IssueLabels(ctx context.Context, actor forge.Actor, owner, repo string, index int64) ([]*Label, error) {
	a, err := s.open(ctx, actor, owner, repo, forge.AccessRead)
	if err != nil {
		return nil, err
	}
	var out []*Label
	err = s.store.View(ctx, func(tx Tx) error {
		is, err := a.issue(ctx, tx, index)
		if err != nil {
			return err
		}
		out, err = issueLabels(ctx, tx, is.ID)
		return err
	})
	return out, err
}

func issueLabels(ctx context.Context, tx Tx, issueID forge.ID) ([]*Label, error) {
	m, err := tx.IssueLabels(ctx, []forge.ID{issueID})
	if err != nil {
		return nil, err
	}
	if ls := m[issueID]; ls != nil {
		return ls, nil
	}
	return []*Label{}, nil
}

// labelWrite runs fn on issue index for a label change: write:issue, the
// issue (ErrIssueNotFound), a writer of its unit (else ErrNotPoster, the
// bare 403), CheckUpdatedAt, then fn with the change and the labels on the
// issue; the issue is written last. It returns the labels on the issue
// afterwards. Label changes have no archived-repository check (as Forgejo).
func (s *Service) labelWrite(ctx context.Context, actor forge.Actor, owner, repo string, index int64, updatedAt *time.Time,
	fn func(ctx context.Context, a *access, ch *change, current []*Label) error) ([]*Label, error) {
	a, err := s.open(ctx, actor, owner, repo, forge.AccessWrite)
	if err != nil {
		return nil, err
	}
	now := s.clock.Now()
	var out []*Label
	var view *IssueView
	var edit *change
	err = s.update(ctx, func(tx Tx) error {
		is, err := a.issue(ctx, tx, index)
		if err != nil {
			return err
		}
		if !a.canWrite(is.IsPull) {
			return notPoster()
		}
		stamp, given, err := CheckUpdatedAt(a.perm, is.Created, updatedAt, now)
		if err != nil {
			return err
		}
		ch := newChange(tx, actor, is, now, stamp, given)
		ch.labels, edit = true, ch
		current, err := issueLabels(ctx, tx, is.ID)
		if err != nil {
			return err
		}
		if err := fn(ctx, a, ch, current); err != nil {
			return err
		}
		if err := ch.commit(ctx); err != nil {
			return err
		}
		out, err = issueLabels(ctx, tx, is.ID)
		if err == nil {
			view, err = a.view(ctx, tx, is)
		}
		return err
	}, func(ctx context.Context, _ Tx) error {
		s.emitChanges(ctx, nil, actor, view, edit, view.Issue.Title, view.Issue.Body)
		return nil
	})
	return out, err
}

// resolve returns the labels opt names (ids or names) that belong to the
// repository or its organisation; unknown ones are ignored.
func (a *access) resolve(ctx context.Context, tx Tx, opt LabelsOption) ([]*Label, error) {
	byID, err := a.labelsByID(ctx, tx, opt.IDs)
	if err != nil {
		return nil, err
	}
	byName, err := a.labelsByName(ctx, tx, opt.Names)
	if err != nil {
		return nil, err
	}
	return append(byID, byName...), nil
}

// AddLabels adds labels to issue index (write:issue; writers, else
// ErrNotPoster) and returns every label now on it, ordered by name.
// Unknown ids and names, and labels of other repositories, are ignored;
// exclusive scopes apply (ApplyExclusive: the label added stays, and the
// alphabetically last of one scope in one request). Each label added or
// removed is a CommentLabel dated with opt.UpdatedAt when given (see
// CheckUpdatedAt), which is then also the issue's update date.
func (s *Service) AddLabels(ctx context.Context, actor forge.Actor, owner, repo string, index int64, opt LabelsOption) ([]*Label, error) {
	return s.labelWrite(ctx, actor, owner, repo, index, opt.UpdatedAt, func(ctx context.Context, a *access, ch *change, current []*Label) error {
		adding, err := a.resolve(ctx, ch.tx, opt)
		if err != nil {
			return err
		}
		result, added, removed := ApplyExclusive(current, adding)
		return ch.setLabels(ctx, result, added, removed)
	})
}

// ReplaceLabels sets the labels of issue index to opt's (none clears
// them), keeping the alphabetically last label of each exclusive scope
// (DedupExclusive); otherwise as AddLabels.
func (s *Service) ReplaceLabels(ctx context.Context, actor forge.Actor, owner, repo string, index int64, opt LabelsOption) ([]*Label, error) {
	return s.labelWrite(ctx, actor, owner, repo, index, opt.UpdatedAt, func(ctx context.Context, a *access, ch *change, current []*Label) error {
		want, err := a.resolve(ctx, ch.tx, opt)
		if err != nil {
			return err
		}
		want = DedupExclusive(want)
		return ch.setLabels(ctx, want, missing(want, current), missing(current, want))
	})
}

// missing returns the labels of a that are not in b.
func missing(a, b []*Label) []*Label {
	var out []*Label
	for _, l := range a {
		found := false
		for _, x := range b {
			found = found || x.ID == l.ID
		}
		if !found {
			out = append(out, l)
		}
	}
	return out
}

// ClearLabels removes every label of issue index (as AddLabels).
func (s *Service) ClearLabels(ctx context.Context, actor forge.Actor, owner, repo string, index int64, updatedAt *time.Time) error {
	_, err := s.labelWrite(ctx, actor, owner, repo, index, updatedAt, func(ctx context.Context, _ *access, ch *change, current []*Label) error {
		ch.cleared = true
		return ch.setLabels(ctx, nil, nil, current)
	})
	return err
}

// RemoveLabel takes one label off issue index: identifier is a repository
// label name, else an organisation label name of the repository's owner,
// else the id of any label. It returns that label (what Forgejo answers to
// `Accept: application/vnd.github+json`), also when the issue did not bear
// it: removing a label the issue does not have succeeds and changes
// nothing but the issue's update date when one is given. forge.ErrInvalid
// with ErrLabelNotFound (Forgejo answers 422) when the identifier names no
// label.
func (s *Service) RemoveLabel(ctx context.Context, actor forge.Actor, owner, repo string, index int64, identifier string, updatedAt *time.Time) (*Label, error) {
	var removed *Label
	_, err := s.labelWrite(ctx, actor, owner, repo, index, updatedAt, func(ctx context.Context, a *access, ch *change, current []*Label) error {
		l, err := a.labelByIdentifier(ctx, ch.tx, identifier)
		if err != nil {
			return err
		}
		removed = l
		rest := missing(current, []*Label{l})
		if len(rest) == len(current) {
			return nil
		}
		return ch.setLabels(ctx, rest, nil, []*Label{l})
	})
	if err != nil {
		return nil, err
	}
	return removed, nil
}

// labelByIdentifier is DeleteIssueLabel's lookup: repository label by
// name, organisation label by name, then any label by id.
func (a *access) labelByIdentifier(ctx context.Context, tx Tx, identifier string) (*Label, error) {
	for _, f := range []LabelFilter{{RepoID: a.repo.ID}, {OrgID: a.orgID()}} {
		f.Names = []string{identifier}
		ls, _, err := tx.ListLabels(ctx, f, all)
		if err != nil {
			return nil, err
		}
		if len(ls) > 0 {
			return ls[0], nil
		}
	}
	if id, err := strconv.ParseInt(identifier, 10, 64); err == nil {
		l, err := tx.LabelByID(ctx, id)
		if err == nil {
			return l, nil
		} else if !errors.Is(err, forge.ErrNotFound) {
			return nil, err
		}
	}
	return nil, forge.Reasonf(forge.ErrInvalid, ErrLabelNotFound, "label does not exist [name: %s]", identifier)
}
