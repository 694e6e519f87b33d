package issues

import (
	"errors"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// ErrUpdatedAt is the reason of the two refusals of CheckUpdatedAt (both
// forge.ErrForbidden, answered 403 with their message).
var ErrUpdatedAt = errors.New("update date refused")

// Messages of CheckUpdatedAt's refusals, as Forgejo's API answers them.
const (
	msgUpdatedAtRight = "user needs to have admin or repository owner right to set an update date"
	msgUpdatedAtRange = "unallowed update date, because given date must be between issue creation date and now"
)

// CheckUpdatedAt is Forgejo's SetIssueUpdateDate rule (spec/issues.md §3),
// the one rule behind every updated_at field (issue edit, comment create and
// edit, label add/replace/clear/remove, issue and comment attachments). It
// returns the time the change is stamped with and whether the caller gave
// it:
//
//   - requested nil: now (the automatic date), given false.
//   - otherwise the actor must have admin or owner access to the
//     repository (perm.Mode; site administrators have it through their
//     permission; token scopes are not consulted), else forge.ErrForbidden
//     `user needs to have admin or repository owner right to set an update
//     date`;
//   - and the requested time, truncated to whole seconds, must lie between
//     the issue's creation and now (both included), else
//     forge.ErrForbidden `unallowed update date, because given date must be
//     between issue creation date and now`.
//
// When accepted the stamp is the requested time truncated to seconds, in
// UTC, and given is true: the change is dated with it and the automatic
// update is suppressed. Both refusals wrap ErrUpdatedAt.
func CheckUpdatedAt(perm forge.Permission, created time.Time, requested *time.Time, now time.Time) (stamp time.Time, given bool, err error) {
	if requested == nil {
		return now, false, nil
	}
	if perm.Mode < forge.AccessModeAdmin {
		return time.Time{}, false, forge.Reasonf(forge.ErrForbidden, ErrUpdatedAt, msgUpdatedAtRight)
	}
	at := requested.Unix()
	if at < created.Unix() || at > now.Unix() {
		return time.Time{}, false, forge.Reasonf(forge.ErrForbidden, ErrUpdatedAt, msgUpdatedAtRange)
	}
	return time.Unix(at, 0).UTC(), true, nil
}

// LaterOf returns the later of a and b: a milestone's update date when an
// issue moves in or out of it with a given updated_at (rule 6: it never
// moves backwards).
func LaterOf(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}
