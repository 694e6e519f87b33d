package auth

import (
	"context"

	"github.com/hearthforge/hearth/forge"
)

// ErrLastAdmin is the reason of the forge.ErrPrecondition error returned when
// a change would leave the instance without an administrator who can sign in.
var ErrLastAdmin = forge.Errorf(forge.ErrPrecondition, "last admin")

// IsEffectiveAdmin reports whether u is a site administrator who can sign in:
// admin, active and not prohibited from logging in.
func IsEffectiveAdmin(u *forge.User) bool {
	return u != nil && u.IsAdmin && u.IsActive && !u.ProhibitLogin
}

// AdminCount is IsEffectiveAdmin as a CountUsers filter: administrators who
// are active and may sign in. A store's count with it equals the number of
// its users for which IsEffectiveAdmin holds (storetest checks it).
func AdminCount() UserCount {
	yes := true
	return UserCount{Admin: &yes, Active: &yes, LoginAllowed: &yes}
}

// countAdmins is the number of effective administrators in tx.
func countAdmins(ctx context.Context, tx Tx) (int64, error) {
	return tx.CountUsers(ctx, AdminCount())
}

// CheckLastAdmin is the last-administrator rule as a pure function: a change
// of user before into after (after nil: deletion) is refused when before is
// an effective administrator, after is not, and admins (the number of
// effective administrators, before included) is at most one. The error is
// forge.ErrPrecondition with reason ErrLastAdmin and Forgejo's message
// `can not delete the last admin user [uid: N]`.
//
// Forgejo checks only the admin flag on demotion and deletion; Hearth also
// refuses deactivating or prohibiting the login of the last administrator,
// which would lock the instance out just the same.
func CheckLastAdmin(before, after *forge.User, admins int64) error {
	if !IsEffectiveAdmin(before) || IsEffectiveAdmin(after) || admins > 1 {
		return nil
	}
	return forge.Reasonf(forge.ErrPrecondition, ErrLastAdmin,
		"can not delete the last admin user [uid: %d]", before.ID)
}
