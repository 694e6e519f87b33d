package repos

import (
	"context"
	"path"
	"regexp"
	"strings"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// TagProtection restricts who may create or delete tags matching
// NamePattern: a glob, or a regular expression between slashes (/^v\d+/),
// as Forgejo's protected tags.
type TagProtection struct {
	ID                 forge.ID
	RepoID             forge.ID
	NamePattern        string
	WhitelistUsernames []string
	WhitelistTeams     []string
	Created, Updated   time.Time
}

// Matches reports whether the rule covers tag.
func (p *TagProtection) Matches(tag string) bool {
	if len(p.NamePattern) > 2 && strings.HasPrefix(p.NamePattern, "/") && strings.HasSuffix(p.NamePattern, "/") {
		re, err := regexp.Compile(p.NamePattern[1 : len(p.NamePattern)-1])
		return err == nil && re.MatchString(tag)
	}
	ok, _ := path.Match(p.NamePattern, tag)
	return ok || p.NamePattern == tag
}

// CanChangeTag is the tag rule as a pure function: may user create or
// delete tag given the rules? Unprotected tags: yes; protected ones only
// for whitelisted users.
func CanChangeTag(rules []*TagProtection, user *forge.User, tag string) bool {
	for _, r := range rules {
		if !r.Matches(tag) {
			continue
		}
		allowed := false
		for _, n := range r.WhitelistUsernames {
			if user != nil && strings.EqualFold(n, user.Name) {
				allowed = true
			}
		}
		if !allowed {
			return false
		}
	}
	return true
}

func (s *Service) tagRules(ctx context.Context, repo forge.ID) ([]*TagProtection, error) {
	var rules []*TagProtection
	err := s.store.View(ctx, func(tx Tx) error {
		var err error
		rules, err = tx.ListTagProtections(ctx, repo)
		return err
	})
	return rules, err
}

func (s *Service) checkTag(ctx context.Context, actor forge.Actor, v *View, tag string) error {
	rules, err := s.tagRules(ctx, v.Repo.ID)
	if err != nil {
		return err
	}
	if !CanChangeTag(rules, actor.User, tag) {
		return forge.Errorf(forge.ErrForbidden, "user not allowed to create or delete protected tag %s", tag)
	}
	return nil
}

// ListTagProtections lists the tag rules. reqAdmin.
func (s *Service) ListTagProtections(ctx context.Context, actor forge.Actor, owner, name string) ([]*TagProtection, error) {
	var list []*TagProtection
	err := s.adminTx(ctx, actor, owner, name, false, func(tx Tx, v *View) error {
		var err error
		list, err = tx.ListTagProtections(ctx, v.Repo.ID)
		return err
	})
	return list, err
}

// GetTagProtection returns a tag rule. reqAdmin.
func (s *Service) GetTagProtection(ctx context.Context, actor forge.Actor, owner, name string, id forge.ID) (*TagProtection, error) {
	var p *TagProtection
	err := s.adminTx(ctx, actor, owner, name, false, func(tx Tx, v *View) error {
		var err error
		p, err = tx.TagProtection(ctx, v.Repo.ID, id)
		return err
	})
	return p, err
}

// CreateTagProtection adds a tag rule. reqAdmin, not archived;
// forge.ErrInvalid for an empty pattern or unknown users.
func (s *Service) CreateTagProtection(ctx context.Context, actor forge.Actor, owner, name string, p TagProtection) (*TagProtection, error) {
	if strings.TrimSpace(p.NamePattern) == "" {
		return nil, forge.Errorf(forge.ErrInvalid, "name_pattern are empty")
	}
	now := s.clock.Now()
	p.Created, p.Updated = now, now
	err := s.adminTx(ctx, actor, owner, name, true, func(tx Tx, v *View) error {
		if err := checkWhitelist(ctx, tx, p.WhitelistUsernames); err != nil {
			return err
		}
		p.RepoID = v.Repo.ID
		return tx.CreateTagProtection(ctx, &p)
	})
	return &p, err
}

// EditTagProtection changes a tag rule with edit. reqAdmin, not archived.
func (s *Service) EditTagProtection(ctx context.Context, actor forge.Actor, owner, name string, id forge.ID, edit func(*TagProtection)) (*TagProtection, error) {
	var out *TagProtection
	err := s.adminTx(ctx, actor, owner, name, true, func(tx Tx, v *View) error {
		p, err := tx.TagProtection(ctx, v.Repo.ID, id)
		if err != nil {
			return err
		}
		edit(p)
		if err := checkWhitelist(ctx, tx, p.WhitelistUsernames); err != nil {
			return err
		}
		p.Updated = s.clock.Now()
		out = p
		return tx.UpdateTagProtection(ctx, p)
	})
	return out, err
}

// DeleteTagProtection removes a tag rule. reqAdmin.
func (s *Service) DeleteTagProtection(ctx context.Context, actor forge.Actor, owner, name string, id forge.ID) error {
	return s.adminTx(ctx, actor, owner, name, false, func(tx Tx, v *View) error {
		return tx.DeleteTagProtection(ctx, v.Repo.ID, id)
	})
}
