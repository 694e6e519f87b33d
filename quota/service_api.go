package quota

import (
	"context"
	"errors"

	"github.com/hearthforge/hearth/forge"
)

// Refusals with Forgejo's messages.
var (
	errTokenRequired = forge.Errorf(forge.ErrUnauthenticated, "token is required")
	errOrgOwner      = forge.Errorf(forge.ErrForbidden, "Must be an organization owner")
)

// New returns a Service for cfg; forge.ErrInvalid without a Store.
func New(cfg ServiceConfig) (*Service, error) {
	if cfg.Store == nil {
		return nil, forge.Errorf(forge.ErrInvalid, "quota: ServiceConfig.Store is required")
	}
	return &Service{cfg: cfg, store: cfg.Store}, nil
}

// Enabled reports Config.Enabled: the quota API exists only when true.
func (s *Service) Enabled() bool { return s.cfg.Quota.Enabled }

// Config returns the [quota] configuration the Service was given.
func (s *Service) Config() Config { return s.cfg.Quota }

// owner resolves t for reading, checking first what the operations on
// t's quota require (requirementOf): the actor (scope read:user) or an
// organisation the actor owns (read:organization; site administrators
// pass). Errors: forge.Actor.Check's; `token is required` for anonymous
// actors; forge.ErrNotFound for an organisation the actor may not see;
// `Must be an organization owner`.
func (s *Service) owner(ctx context.Context, actor forge.Actor, t Target) (*forge.User, error) {
	if t.Org == "" {
		if err := requirementOf(kindUser, forge.AccessRead).Check(actor); err != nil {
			return nil, err
		}
		return actor.User, nil
	}
	if err := requirementOf(kindOrg, forge.AccessRead).Check(actor); err != nil {
		return nil, err
	}
	if s.cfg.Orgs == nil {
		return nil, forge.Errorf(forge.ErrNotFound, "organization does not exist [name: %s]", t.Org)
	}
	org, isOwner, _, err := s.cfg.Orgs.MemberRole(ctx, actor, t.Org)
	if err != nil {
		return nil, err
	}
	if !actor.IsSignedIn() {
		return nil, errTokenRequired
	}
	if !isOwner && !actor.IsSiteAdmin() {
		return nil, errOrgOwner
	}
	return org, nil
}

// admin checks what the admin operations at level require
// (requirementOf: scope admin, `token is required`, `user should be the
// site admin`).
func admin(actor forge.Actor, level forge.AccessLevel) error {
	return requirementOf(kindAdmin, level).Check(actor)
}

// info reads the usage and the applying groups of owner in tx.
func (s *Service) info(ctx context.Context, tx Tx, owner forge.ID, names bool) (*Info, error) {
	groups, real, err := GroupsFor(ctx, tx, s.cfg.Quota, owner)
	if err != nil {
		return nil, err
	}
	used, err := tx.Usage(ctx, owner)
	if err != nil {
		return nil, err
	}
	out := &Info{Used: used, Groups: []Group{}}
	if real {
		out.Groups = groups
	}
	if !names {
		out.Groups = BlankNames(out.Groups)
	}
	return out, nil
}

// BlankNames returns gs with group and rule names emptied: the user and
// organisation views (Forgejo's withNames=false).
func BlankNames(gs []Group) []Group {
	out := make([]Group, len(gs))
	for i, g := range gs {
		rules := make([]Rule, len(g.Rules))
		for j, r := range g.Rules {
			rules[j] = Rule{Limit: r.Limit, Subjects: r.Subjects}
		}
		out[i] = Group{Rules: rules}
	}
	return out
}

// Info returns the quota of t with names blank (GET /user/quota,
// /orgs/{org}/quota). Groups is [] when only the built-in default applies.
func (s *Service) Info(ctx context.Context, actor forge.Actor, t Target) (*Info, error) {
	o, err := s.owner(ctx, actor, t)
	if err != nil {
		return nil, err
	}
	var out *Info
	err = s.store.View(ctx, func(tx Tx) error {
		out, err = s.info(ctx, tx, o.ID, false)
		return err
	})
	return out, err
}

// Check reports whether t may still write into subject (GET
// /user/quota/check): Forgejo's evaluation with a delta of 0 (always true
// with quota disabled). forge.ErrInvalid `unrecognized quota limit
// subject: [subject: X]` for a missing or unknown subject.
func (s *Service) Check(ctx context.Context, actor forge.Actor, t Target, subject string) (bool, error) {
	o, err := s.owner(ctx, actor, t)
	if err != nil {
		return false, err
	}
	sub, err := ParseSubject(subject)
	if err != nil {
		return false, err
	}
	var ok bool
	err = s.store.View(ctx, func(tx Tx) error {
		groups, _, err := GroupsFor(ctx, tx, s.cfg.Quota, o.ID)
		if err != nil {
			return err
		}
		used, err := tx.Usage(ctx, o.ID)
		ok = Evaluate(s.cfg.Quota, groups, used, sub)
		return err
	})
	return ok, err
}

// ListAttachments returns one page of the attachments charged to t, by size
// descending, and their number.
func (s *Service) ListAttachments(ctx context.Context, actor forge.Actor, t Target, o forge.ListOptions) ([]AttachmentUsage, int64, error) {
	owner, err := s.owner(ctx, actor, t)
	if err != nil {
		return nil, 0, err
	}
	var out []AttachmentUsage
	var n int64
	err = s.store.View(ctx, func(tx Tx) error {
		out, n, err = tx.ListAttachmentUsage(ctx, owner.ID, o.Normalize())
		return err
	})
	return out, n, err
}

// ListPackages returns one page of the package files charged to t (empty
// when the backend stores no packages: its Tx is no PackageUsageTx).
func (s *Service) ListPackages(ctx context.Context, actor forge.Actor, t Target, o forge.ListOptions) ([]PackageUsage, int64, error) {
	owner, err := s.owner(ctx, actor, t)
	if err != nil {
		return nil, 0, err
	}
	out, n := []PackageUsage{}, int64(0)
	err = s.store.View(ctx, func(tx Tx) error {
		if p, ok := tx.(PackageUsageTx); ok {
			out, n, err = p.ListPackageUsage(ctx, owner.ID, o.Normalize())
		}
		return err
	})
	return out, n, err
}

// ListArtifacts returns one page of the unexpired artifacts charged to t
// (empty when the backend's Tx is no ArtifactUsageTx).
func (s *Service) ListArtifacts(ctx context.Context, actor forge.Actor, t Target, o forge.ListOptions) ([]ArtifactUsage, int64, error) {
	owner, err := s.owner(ctx, actor, t)
	if err != nil {
		return nil, 0, err
	}
	out, n := []ArtifactUsage{}, int64(0)
	err = s.store.View(ctx, func(tx Tx) error {
		if p, ok := tx.(ArtifactUsageTx); ok {
			out, n, err = p.ListArtifactUsage(ctx, owner.ID, o.Normalize())
		}
		return err
	})
	return out, n, err
}

// account finds an account by name: forge.ErrNotFound `user does not
// exist [uid: 0, name: X]`.
func account(ctx context.Context, tx Tx, name string) (*forge.User, error) {
	u, err := tx.UserByName(ctx, name)
	if errors.Is(err, forge.ErrNotFound) {
		return nil, forge.Errorf(forge.ErrNotFound, "user does not exist [uid: 0, name: %s]", name)
	}
	return u, err
}

// AdminInfo returns the quota of account username with names (GET
// /admin/users/{username}/quota).
func (s *Service) AdminInfo(ctx context.Context, actor forge.Actor, username string) (*Info, error) {
	if err := admin(actor, forge.AccessRead); err != nil {
		return nil, err
	}
	var out *Info
	err := s.store.View(ctx, func(tx Tx) error {
		u, err := account(ctx, tx, username)
		if err != nil {
			return err
		}
		out, err = s.info(ctx, tx, u.ID, true)
		return err
	})
	return out, err
}

// SetUserGroups replaces the memberships of account username (POST
// /admin/users/{username}/quota/groups) in one transaction. groups nil
// changes nothing (Forgejo's quirk: 204 and no change); an empty list
// removes every membership. forge.ErrInvalid `group not found: [group:
// X]` for a missing group, nothing changed; forge.ErrConflict `user
// already in group: [group: G, userID: N]` for a name listed twice
// (Forgejo answers 500).
func (s *Service) SetUserGroups(ctx context.Context, actor forge.Actor, username string, groups []string) error {
	if err := admin(actor, forge.AccessWrite); err != nil {
		return err
	}
	return s.store.Update(ctx, func(tx Tx) error {
		u, err := account(ctx, tx, username)
		if err != nil || groups == nil {
			return err
		}
		for _, g := range groups {
			if _, err := tx.GroupByName(ctx, g); errors.Is(err, forge.ErrNotFound) {
				return forge.Errorf(forge.ErrInvalid, "group not found: [group: %s]", g)
			} else if err != nil {
				return err
			}
		}
		if err := tx.RemoveMemberships(ctx, u.ID); err != nil {
			return err
		}
		for _, g := range groups {
			if err := addMember(ctx, tx, g, u); err != nil {
				return err
			}
		}
		return nil
	})
}

func addMember(ctx context.Context, tx Tx, group string, u *forge.User) error {
	err := tx.AddGroupMember(ctx, group, u.ID)
	if errors.Is(err, forge.ErrConflict) {
		return forge.Errorf(forge.ErrConflict, "user already in group: [group: %s, userID: %d]", group, u.ID)
	}
	return err
}

// ruleNotFound and groupNotFound are the 404s of the path lookups.
func ruleNotFound(err error) error {
	if errors.Is(err, forge.ErrNotFound) {
		return forge.Errorf(forge.ErrNotFound, "The target couldn't be found.")
	}
	return err
}

// ListRules returns every rule with names, by name.
func (s *Service) ListRules(ctx context.Context, actor forge.Actor) ([]Rule, error) {
	if err := admin(actor, forge.AccessRead); err != nil {
		return nil, err
	}
	var out []Rule
	err := s.store.View(ctx, func(tx Tx) (err error) {
		out, err = tx.ListRules(ctx)
		return err
	})
	return out, err
}

// newRule validates a rule option; limit is the value a nil Limit takes.
func newRule(o RuleOption, limit int64) (*Rule, error) {
	if o.Name == "" {
		return nil, forge.Errorf(forge.ErrInvalid, "[Name]: Required")
	}
	subjects, err := ParseSubjects(o.Subjects)
	if err != nil {
		return nil, err
	}
	if o.Limit != nil {
		limit = *o.Limit
	}
	return &Rule{Name: o.Name, Limit: limit, Subjects: subjects}, nil
}

func createRule(ctx context.Context, tx Tx, r *Rule) error {
	err := tx.CreateRule(ctx, r)
	if errors.Is(err, forge.ErrConflict) {
		return forge.Errorf(forge.ErrConflict, "rule already exists: [name: %s]", r.Name)
	}
	return err
}

// CreateRule creates a rule. forge.ErrInvalid `[Name]: Required`,
// `[Limit]: Required` (nil Limit), a subject error; forge.ErrConflict
// `rule already exists: [name: X]`.
func (s *Service) CreateRule(ctx context.Context, actor forge.Actor, o RuleOption) (*Rule, error) {
	if err := admin(actor, forge.AccessWrite); err != nil {
		return nil, err
	}
	if o.Name == "" {
		return nil, forge.Errorf(forge.ErrInvalid, "[Name]: Required")
	}
	if o.Limit == nil {
		return nil, forge.Errorf(forge.ErrInvalid, "[Limit]: Required")
	}
	r, err := newRule(o, 0)
	if err != nil {
		return nil, err
	}
	return r, s.store.Update(ctx, func(tx Tx) error { return createRule(ctx, tx, r) })
}

// GetRule returns rule name; forge.ErrNotFound if none.
func (s *Service) GetRule(ctx context.Context, actor forge.Actor, name string) (*Rule, error) {
	if err := admin(actor, forge.AccessRead); err != nil {
		return nil, err
	}
	var r *Rule
	err := s.store.View(ctx, func(tx Tx) (err error) {
		r, err = tx.RuleByName(ctx, name)
		return ruleNotFound(err)
	})
	return r, err
}

// EditRule changes rule name (nil fields unchanged; an empty edit returns
// the rule); forge.ErrNotFound; forge.ErrInvalid for a bad subject.
func (s *Service) EditRule(ctx context.Context, actor forge.Actor, name string, e RuleEdit) (*Rule, error) {
	if err := admin(actor, forge.AccessWrite); err != nil {
		return nil, err
	}
	var r *Rule
	err := s.store.Update(ctx, func(tx Tx) (err error) {
		if r, err = tx.RuleByName(ctx, name); err != nil {
			return ruleNotFound(err)
		}
		if e.Limit != nil {
			r.Limit = *e.Limit
		}
		if e.Subjects != nil {
			if r.Subjects, err = ParseSubjects(*e.Subjects); err != nil {
				return err
			}
		}
		return tx.UpdateRule(ctx, r)
	})
	return r, err
}

// DeleteRule removes rule name and detaches it from every group;
// forge.ErrNotFound.
func (s *Service) DeleteRule(ctx context.Context, actor forge.Actor, name string) error {
	if err := admin(actor, forge.AccessWrite); err != nil {
		return err
	}
	return s.store.Update(ctx, func(tx Tx) error { return ruleNotFound(tx.DeleteRule(ctx, name)) })
}

// ListGroups returns every group with its rules and names.
func (s *Service) ListGroups(ctx context.Context, actor forge.Actor) ([]Group, error) {
	if err := admin(actor, forge.AccessRead); err != nil {
		return nil, err
	}
	var out []Group
	err := s.store.View(ctx, func(tx Tx) (err error) {
		out, err = tx.ListGroups(ctx)
		return err
	})
	return out, err
}

// CreateGroup creates a group and attaches its rules in one transaction:
// a rule that exists is attached unchanged (the entry's limit and subjects
// are ignored); a new one is created from the entry, a nil limit being 0.
// forge.ErrInvalid `[Name]: Required` or a subject error;
// forge.ErrConflict `group already exists: [name: X]`, and `rule already
// in group: [group: G, rule: R]` for a rule listed twice (Forgejo answers
// 500).
func (s *Service) CreateGroup(ctx context.Context, actor forge.Actor, o GroupOption) (*Group, error) {
	if err := admin(actor, forge.AccessWrite); err != nil {
		return nil, err
	}
	if o.Name == "" {
		return nil, forge.Errorf(forge.ErrInvalid, "[Name]: Required")
	}
	var g *Group
	err := s.store.Update(ctx, func(tx Tx) error {
		if err := tx.CreateGroup(ctx, o.Name); errors.Is(err, forge.ErrConflict) {
			return forge.Errorf(forge.ErrConflict, "group already exists: [name: %s]", o.Name)
		} else if err != nil {
			return err
		}
		for _, ro := range o.Rules {
			if _, err := tx.RuleByName(ctx, ro.Name); errors.Is(err, forge.ErrNotFound) {
				r, err := newRule(ro, 0)
				if err != nil {
					return err
				}
				if err := createRule(ctx, tx, r); err != nil {
					return err
				}
			} else if err != nil {
				return err
			}
			if err := addRule(ctx, tx, o.Name, ro.Name); err != nil {
				return err
			}
		}
		var err error
		g, err = tx.GroupByName(ctx, o.Name)
		return err
	})
	return g, err
}

func addRule(ctx context.Context, tx Tx, group, rule string) error {
	err := tx.AddGroupRule(ctx, group, rule)
	if errors.Is(err, forge.ErrConflict) {
		return forge.Errorf(forge.ErrConflict, "rule already in group: [group: %s, rule: %s]", group, rule)
	}
	return err
}

// GetGroup returns group name with its rules; forge.ErrNotFound.
func (s *Service) GetGroup(ctx context.Context, actor forge.Actor, name string) (*Group, error) {
	if err := admin(actor, forge.AccessRead); err != nil {
		return nil, err
	}
	var g *Group
	err := s.store.View(ctx, func(tx Tx) (err error) {
		g, err = tx.GroupByName(ctx, name)
		return ruleNotFound(err)
	})
	return g, err
}

// DeleteGroup removes group name with its rule mappings and memberships
// (the rules survive); forge.ErrNotFound.
func (s *Service) DeleteGroup(ctx context.Context, actor forge.Actor, name string) error {
	if err := admin(actor, forge.AccessWrite); err != nil {
		return err
	}
	return s.store.Update(ctx, func(tx Tx) error { return ruleNotFound(tx.DeleteGroup(ctx, name)) })
}

// groupAndRule checks that both exist (forge.ErrNotFound).
func groupAndRule(ctx context.Context, tx Tx, group, rule string) error {
	if _, err := tx.GroupByName(ctx, group); err != nil {
		return ruleNotFound(err)
	}
	_, err := tx.RuleByName(ctx, rule)
	return ruleNotFound(err)
}

// AddGroupRule attaches a rule to a group; forge.ErrNotFound for either
// missing; forge.ErrConflict `rule already in group: [group: G, rule: R]`.
func (s *Service) AddGroupRule(ctx context.Context, actor forge.Actor, group, rule string) error {
	if err := admin(actor, forge.AccessWrite); err != nil {
		return err
	}
	return s.store.Update(ctx, func(tx Tx) error {
		if err := groupAndRule(ctx, tx, group, rule); err != nil {
			return err
		}
		return addRule(ctx, tx, group, rule)
	})
}

// RemoveGroupRule detaches a rule; forge.ErrNotFound for either missing or
// a rule not in the group.
func (s *Service) RemoveGroupRule(ctx context.Context, actor forge.Actor, group, rule string) error {
	if err := admin(actor, forge.AccessWrite); err != nil {
		return err
	}
	return s.store.Update(ctx, func(tx Tx) error {
		if err := groupAndRule(ctx, tx, group, rule); err != nil {
			return err
		}
		return ruleNotFound(tx.RemoveGroupRule(ctx, group, rule))
	})
}

// GroupMembers lists the accounts of a group by id; forge.ErrNotFound.
func (s *Service) GroupMembers(ctx context.Context, actor forge.Actor, group string) ([]*forge.User, error) {
	if err := admin(actor, forge.AccessRead); err != nil {
		return nil, err
	}
	var out []*forge.User
	err := s.store.View(ctx, func(tx Tx) (err error) {
		out, err = tx.GroupMembers(ctx, group)
		return ruleNotFound(err)
	})
	return out, err
}

// AddGroupMember adds account username (a user or an organisation) to a
// group; forge.ErrNotFound for a missing group or account;
// forge.ErrConflict `user already in group: [group: G, userID: N]`.
func (s *Service) AddGroupMember(ctx context.Context, actor forge.Actor, group, username string) error {
	if err := admin(actor, forge.AccessWrite); err != nil {
		return err
	}
	return s.store.Update(ctx, func(tx Tx) error {
		if _, err := tx.GroupByName(ctx, group); err != nil {
			return ruleNotFound(err)
		}
		u, err := account(ctx, tx, username)
		if err != nil {
			return err
		}
		return addMember(ctx, tx, group, u)
	})
}

// RemoveGroupMember removes account username from a group;
// forge.ErrNotFound for a missing group or account or a non-member.
func (s *Service) RemoveGroupMember(ctx context.Context, actor forge.Actor, group, username string) error {
	if err := admin(actor, forge.AccessWrite); err != nil {
		return err
	}
	return s.store.Update(ctx, func(tx Tx) error {
		if _, err := tx.GroupByName(ctx, group); err != nil {
			return ruleNotFound(err)
		}
		u, err := account(ctx, tx, username)
		if err != nil {
			return err
		}
		return ruleNotFound(tx.RemoveGroupMember(ctx, group, u.ID))
	})
}

// Recount recomputes owner's usage from the source rows and returns the
// drift (site administrators, write:admin). When the derived counters
// drifted it rebuilds them; the counters of other domains are reported
// only.
func (s *Service) Recount(ctx context.Context, actor forge.Actor, owner forge.ID) (Drift, error) {
	if err := admin(actor, forge.AccessWrite); err != nil {
		return Drift{}, err
	}
	return RecountOwner(ctx, s.store, owner)
}

// RecountOwner is Recount without the actor check, for background jobs
// and tests: one transaction reads counters and recount, and rebuilds the
// derived counters when they differ.
func RecountOwner(ctx context.Context, store Store, owner forge.ID) (Drift, error) {
	d := Drift{Owner: owner}
	err := store.Update(ctx, func(tx Tx) error {
		var err error
		if d.Counted, err = tx.Usage(ctx, owner); err != nil {
			return err
		}
		if d.Actual, err = tx.RecountUsage(ctx, owner); err != nil {
			return err
		}
		if d.None() {
			return nil
		}
		return tx.RebuildUsage(ctx, owner)
	})
	return d, err
}
