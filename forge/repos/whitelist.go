package repos

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/hearthforge/hearth/forge"
)

// ErrWhitelistUserMissing is Forgejo's 422 `User does not exist` for a
// whitelisted name no user has.
var ErrWhitelistUserMissing = forge.Errorf(forge.ErrInvalid, "User does not exist")

// userIDsByNames resolves whitelisted names to user ids (ignoring case, in
// order, without duplicates): ErrWhitelistUserMissing for a name no user
// has. Names are converted only here, when a rule is written: a right then
// stays with the user it was given to, whatever names change later.
func userIDsByNames(ctx context.Context, tx Tx, names []string) ([]forge.ID, error) {
	ids := make([]forge.ID, 0, len(names))
	for _, n := range names {
		u, err := tx.UserByName(ctx, n)
		if errors.Is(err, forge.ErrNotFound) {
			return nil, ErrWhitelistUserMissing
		}
		if err != nil {
			return nil, err
		}
		if !slices.Contains(ids, u.ID) {
			ids = append(ids, u.ID)
		}
	}
	return ids, nil
}

// userNames returns the current names of the users ids, in order, leaving
// out ids no user has any more (one query for all lists).
func userNames(ctx context.Context, tx Tx, lists ...[]forge.ID) ([][]string, error) {
	var all []forge.ID
	for _, l := range lists {
		all = append(all, l...)
	}
	users := map[forge.ID]*forge.User{}
	if len(all) > 0 {
		var err error
		if users, err = tx.UsersByID(ctx, all); err != nil {
			return nil, err
		}
	}
	out := make([][]string, len(lists))
	for i, l := range lists {
		out[i] = []string{}
		for _, id := range l {
			if u := users[id]; u != nil {
				out[i] = append(out[i], u.Name)
			}
		}
	}
	return out, nil
}

// fillProtectionNames sets the …Usernames of branch rules from their ids.
func fillProtectionNames(ctx context.Context, tx Tx, rules ...*BranchProtection) error {
	for _, p := range rules {
		names, err := userNames(ctx, tx, p.PushWhitelistUserIDs, p.MergeWhitelistUserIDs, p.ApprovalsWhitelistUserIDs)
		if err != nil {
			return err
		}
		p.PushWhitelistUsernames, p.MergeWhitelistUsernames, p.ApprovalsWhitelistUsernames = names[0], names[1], names[2]
	}
	return nil
}

// fillTagProtectionNames sets the WhitelistUsernames of tag rules from
// their ids.
func fillTagProtectionNames(ctx context.Context, tx Tx, rules ...*TagProtection) error {
	for _, p := range rules {
		names, err := userNames(ctx, tx, p.WhitelistUserIDs)
		if err != nil {
			return err
		}
		p.WhitelistUsernames = names[0]
	}
	return nil
}

// resolveProtectionNames sets the …UserIDs of a branch rule from its
// …Usernames; only the lists whose flag is set (all on creation, those an
// edit gives on edits).
func resolveProtectionNames(ctx context.Context, tx Tx, p *BranchProtection, push, merge, approvals bool) error {
	for _, l := range []struct {
		set   bool
		names []string
		ids   *[]forge.ID
	}{
		{push, p.PushWhitelistUsernames, &p.PushWhitelistUserIDs},
		{merge, p.MergeWhitelistUsernames, &p.MergeWhitelistUserIDs},
		{approvals, p.ApprovalsWhitelistUsernames, &p.ApprovalsWhitelistUserIDs},
	} {
		if !l.set {
			continue
		}
		ids, err := userIDsByNames(ctx, tx, l.names)
		if err != nil {
			return err
		}
		*l.ids = ids
	}
	return nil
}

// teamNames resolves whitelisted team names of a rule of v's repository:
// the names of the owning organisation's teams (their stored spelling, in
// order, without duplicates); forge.ErrInvalid `team does not exist
// [org_id 5, team_id 0, name: x]` (Forgejo's 422) for a name no team of
// it has, so a user's repository accepts none. Hearth keeps the names
// (Forgejo keeps the teams' ids): a renamed team leaves the whitelists it
// was on.
func teamNames(ctx context.Context, tx Tx, v *View, names []string) ([]string, error) {
	out := []string{}
	if len(names) == 0 {
		return out, nil
	}
	var teams []*forge.Team
	if v.Owner.IsOrganization() {
		var err error
		if teams, err = tx.OrgTeams(ctx, v.Repo.OwnerID, 0); err != nil {
			return nil, err
		}
	}
	for _, n := range names {
		i := slices.IndexFunc(teams, func(t *forge.Team) bool { return strings.EqualFold(t.Name, n) })
		if i < 0 {
			return nil, forge.Errorf(forge.ErrInvalid, "team does not exist [org_id %d, team_id 0, name: %s]", v.Repo.OwnerID, n)
		}
		if !slices.Contains(out, teams[i].Name) {
			out = append(out, teams[i].Name)
		}
	}
	return out, nil
}

// resolveProtectionTeams checks the team whitelists of a branch rule of
// v's repository given (flags as resolveProtectionNames). A user's
// repository has no teams: Forgejo drops them.
func resolveProtectionTeams(ctx context.Context, tx Tx, v *View, p *BranchProtection, push, merge, approvals bool) error {
	for _, l := range []struct {
		set   bool
		names *[]string
	}{
		{push, &p.PushWhitelistTeams}, {merge, &p.MergeWhitelistTeams}, {approvals, &p.ApprovalsWhitelistTeams},
	} {
		if !l.set {
			continue
		}
		if !v.Owner.IsOrganization() {
			*l.names = []string{}
			continue
		}
		names, err := teamNames(ctx, tx, v, *l.names)
		if err != nil {
			return err
		}
		*l.names = names
	}
	return nil
}
