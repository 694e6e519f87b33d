package issues

import (
	"context"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// SetDeadline sets the due date of issue index (POST
// /issues/{index}/deadline; write:issue; writers of its unit, else
// forge.ErrForbidden `Not repo writer`) to 23:59:59 of deadline's calendar
// day (EndOfDay), or clears it for nil or the zero time, and returns the
// deadline stored (zero: none). A change is a deadline comment.
func (s *Service) SetDeadline(ctx context.Context, actor forge.Actor, owner, repo string, index int64, deadline *time.Time) (time.Time, error) {
	a, err := s.open(ctx, actor, owner, repo, forge.AccessWrite)
	if err != nil {
		return time.Time{}, err
	}
	var in time.Time
	if deadline != nil {
		in = *deadline
	}
	var dl time.Time
	now := s.clock.Now()
	err = s.store.Update(ctx, func(tx Tx) error {
		is, err := a.issue(ctx, tx, index)
		if err != nil {
			return err
		}
		if !a.canWrite(is.IsPull) {
			return forge.Errorf(forge.ErrForbidden, "Not repo writer")
		}
		ch := newChange(tx, actor, is, now, now, false)
		unset := in.IsZero()
		if err := ch.edit(ctx, a, EditIssueOption{Deadline: &in, UnsetDeadline: &unset}, true, nil); err != nil {
			return err
		}
		dl = is.Deadline
		return ch.commit(ctx)
	})
	return dl, err
}
