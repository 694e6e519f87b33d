package repos

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// TagProtection restricts who may create or delete tags matching
// NamePattern: a glob, or a regular expression between slashes (/^v\d+/),
// as Forgejo's protected tags (MatchTagPattern). The whitelist is the
// users' ids (WhitelistUserIDs), what is stored and checked;
// WhitelistUsernames is the API's view of it: the users' current names on
// reads, the names to whitelist on CreateTagProtection and
// EditTagProtection (see BranchProtection).
type TagProtection struct {
	ID                 forge.ID
	RepoID             forge.ID
	NamePattern        string
	WhitelistUserIDs   []forge.ID
	WhitelistUsernames []string
	WhitelistTeams     []string
	Created, Updated   time.Time
}

// Matches reports whether the rule covers tag (MatchTagPattern: a rule
// whose pattern does not compile covers every tag).
func (p *TagProtection) Matches(tag string) bool { return MatchTagPattern(p.NamePattern, tag) }

// CanChangeTag is the tag rule as a pure function, as Forgejo's
// IsUserAllowedToControlTag: may the user with id userID (0: nobody)
// create or delete tag given the rules? A tag no rule covers: yes; a
// covered one only when one of the rules covering it whitelists the user.
func CanChangeTag(rules []*TagProtection, userID forge.ID, tag string) bool {
	return CanChangeTagAs(rules, Pusher{UserID: userID}, tag)
}

// CanChangeTagAs is CanChangeTag for p: a member of a whitelisted team
// passes too.
func CanChangeTagAs(rules []*TagProtection, p Pusher, tag string) bool {
	allowed := true
	for _, r := range rules {
		if !r.Matches(tag) {
			continue
		}
		allowed = p.listed(r.WhitelistUserIDs, r.WhitelistTeams)
		if allowed {
			return true
		}
	}
	return allowed
}

// checkTag applies the protection check (CheckRefUpdate) to creating or
// deleting tag through the tag API: forge.ErrInvalid (Forgejo's 422) `user
// not allowed to create protected tag` or `user not allowed to delete
// protected tag` when refused.
func (s *Service) checkTag(ctx context.Context, actor forge.Actor, v *View, tag string, deleting bool) error {
	u := RefUpdate{Ref: "refs/tags/" + tag, NewID: "1"}
	if deleting {
		u = RefUpdate{Ref: "refs/tags/" + tag, OldID: "1"}
	}
	_, err := s.checkRefChange(ctx, actor, v, false, u)
	var rc *RefChangeError
	if errors.As(err, &rc) && rc.Refusal == RefBadName {
		return forge.Errorf(forge.ErrInvalid, "%s", rc.Error())
	}
	if errors.As(err, &rc) {
		if deleting {
			return forge.Errorf(forge.ErrInvalid, "user not allowed to delete protected tag")
		}
		return forge.Errorf(forge.ErrInvalid, "user not allowed to create protected tag")
	}
	return err
}

// ListTagProtections lists the tag rules. reqAdmin.
func (s *Service) ListTagProtections(ctx context.Context, actor forge.Actor, owner, name string) ([]*TagProtection, error) {
	if err := actor.Check(forge.AccessRead, forge.CategoryRepository); err != nil {
		return nil, err
	}
	var list []*TagProtection
	err := s.adminTx(ctx, actor, owner, name, false, func(tx Tx, v *View) error {
		var err error
		if list, err = tx.ListTagProtections(ctx, v.Repo.ID); err != nil {
			return err
		}
		return fillTagProtectionNames(ctx, tx, list...)
	})
	return list, err
}

// GetTagProtection returns a tag rule. reqAdmin.
func (s *Service) GetTagProtection(ctx context.Context, actor forge.Actor, owner, name string, id forge.ID) (*TagProtection, error) {
	if err := actor.Check(forge.AccessRead, forge.CategoryRepository); err != nil {
		return nil, err
	}
	var p *TagProtection
	err := s.adminTx(ctx, actor, owner, name, false, func(tx Tx, v *View) error {
		var err error
		if p, err = tx.TagProtection(ctx, v.Repo.ID, id); err != nil {
			return storeMissing(err, tagProtectionMissing(id))
		}
		return fillTagProtectionNames(ctx, tx, p)
	})
	return p, err
}

// TagProtectionEdit is Forgejo's EditTagProtectionOption as a typed value:
// a nil field leaves the rule's value unchanged; a non-nil pointer sets it
// (a pointer to a nil or empty slice empties the list). It has no field for
// the rule's id or repository: EditTagProtection edits only the rule with
// that id in the repository it is given.
type TagProtectionEdit struct {
	NamePattern        *string
	WhitelistUsernames *[]string
	WhitelistTeams     *[]string
}

// Apply sets the non-nil fields of e on p.
func (e TagProtectionEdit) Apply(p *TagProtection) {
	set(&p.NamePattern, e.NamePattern)
	set(&p.WhitelistUsernames, e.WhitelistUsernames)
	set(&p.WhitelistTeams, e.WhitelistTeams)
}

// ErrTagPatternEmpty refuses a tag rule without a pattern (Forgejo
// answers 400).
var ErrTagPatternEmpty = forge.Errorf(forge.ErrInvalid, "name_pattern are empty")

// ErrTagWhitelistEmpty is a new tag rule that whitelists nobody (Forgejo's
// CreateTagProtection, 400).
var ErrTagWhitelistEmpty = forge.Errorf(forge.ErrInvalid, "both whitelist_usernames and whitelist_teams are empty")

// CheckTagPattern reports why pattern cannot be a tag protection pattern:
// empty (ErrTagPatternEmpty), or a /regular expression/ or glob that does
// not compile (forge.ErrInvalid `invalid name_pattern: …`; Forgejo stores
// such a pattern and then fails every change of a tag: refused up front
// here). The pattern is checked as it will be stored (trimmed).
func CheckTagPattern(pattern string) error {
	pattern = strings.TrimSpace(pattern)
	if pattern == "" {
		return ErrTagPatternEmpty
	}
	if _, err := compileTagPattern(pattern); err != nil {
		return forge.Errorf(forge.ErrInvalid, "invalid name_pattern: %v", err)
	}
	return nil
}

// CreateTagProtection adds a tag rule (the pattern trimmed). reqAdmin, not
// archived (checked first, as Forgejo's route does); then forge.ErrInvalid
// for an invalid pattern (CheckTagPattern), ErrTagWhitelistEmpty for a rule
// without whitelisted users or teams, or unknown users;
// forge.ErrConflict `Tag protection already exist` for a pattern the
// repository has a rule for.
func (s *Service) CreateTagProtection(ctx context.Context, actor forge.Actor, owner, name string, p TagProtection) (*TagProtection, error) {
	if err := actor.Check(forge.AccessWrite, forge.CategoryRepository); err != nil {
		return nil, err
	}
	now := s.clock.Now()
	p.ID = 0
	p.Created, p.Updated = now, now
	err := s.adminTx(ctx, actor, owner, name, true, func(tx Tx, v *View) error {
		if err := CheckTagPattern(p.NamePattern); err != nil {
			return err
		}
		p.NamePattern = strings.TrimSpace(p.NamePattern)
		if len(p.WhitelistUsernames) == 0 && len(p.WhitelistTeams) == 0 {
			return ErrTagWhitelistEmpty
		}
		ids, err := userIDsByNames(ctx, tx, p.WhitelistUsernames)
		if err != nil {
			return err
		}
		p.WhitelistUserIDs = ids
		if p.WhitelistTeams, err = teamNames(ctx, tx, v, p.WhitelistTeams); err != nil {
			return err
		}
		p.RepoID = v.Repo.ID
		existing, err := tx.ListTagProtections(ctx, v.Repo.ID)
		if err != nil {
			return err
		}
		for _, r := range existing {
			if r.NamePattern == p.NamePattern {
				return forge.Errorf(forge.ErrConflict, "Tag protection already exist")
			}
		}
		if err := tx.CreateTagProtection(ctx, &p); err != nil {
			return err
		}
		return fillTagProtectionNames(ctx, tx, &p)
	})
	if err != nil {
		return nil, err
	}
	return &p, nil
}

// EditTagProtection changes the tag rule id of owner/name by e and returns
// it as stored. reqAdmin, not archived; the rule is looked up within that
// repository only. Errors: forge.ErrNotFound for a rule of no or another
// repository; forge.ErrInvalid for an invalid pattern or unknown users
// (nothing is stored then).
func (s *Service) EditTagProtection(ctx context.Context, actor forge.Actor, owner, name string, id forge.ID, e TagProtectionEdit) (*TagProtection, error) {
	if err := actor.Check(forge.AccessWrite, forge.CategoryRepository); err != nil {
		return nil, err
	}
	if e.NamePattern != nil {
		if err := CheckTagPattern(*e.NamePattern); err != nil {
			return nil, err
		}
	}
	var out *TagProtection
	err := s.adminTx(ctx, actor, owner, name, true, func(tx Tx, v *View) error {
		p, err := tx.TagProtection(ctx, v.Repo.ID, id)
		if err != nil {
			return storeMissing(err, tagProtectionMissing(id))
		}
		e.Apply(p)
		p.ID, p.RepoID = id, v.Repo.ID
		p.NamePattern = strings.TrimSpace(p.NamePattern)
		if e.WhitelistUsernames != nil {
			if p.WhitelistUserIDs, err = userIDsByNames(ctx, tx, p.WhitelistUsernames); err != nil {
				return err
			}
		}
		if e.WhitelistTeams != nil {
			if p.WhitelistTeams, err = teamNames(ctx, tx, v, p.WhitelistTeams); err != nil {
				return err
			}
		}
		p.Updated = s.clock.Now()
		if err := tx.UpdateTagProtection(ctx, p); err != nil {
			return err
		}
		if out, err = tx.TagProtection(ctx, v.Repo.ID, id); err != nil {
			return err
		}
		return fillTagProtectionNames(ctx, tx, out)
	})
	return out, err
}

// DeleteTagProtection removes a tag rule. reqAdmin with a credential
// granting write:repository (forge.ErrForbidden otherwise), archived or
// not; forge.ErrNotFound (answered as ErrRepoNotFound) if none.
func (s *Service) DeleteTagProtection(ctx context.Context, actor forge.Actor, owner, name string, id forge.ID) error {
	return s.adminWrite(ctx, actor, owner, name, func(tx Tx, v *View) error {
		return storeMissing(tx.DeleteTagProtection(ctx, v.Repo.ID, id), tagProtectionMissing(id))
	})
}
