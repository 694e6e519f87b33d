package repos

import (
	"context"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// BranchProtection is a protection rule: a branch name or a glob pattern
// (RuleName) and what it requires. Field names follow Forgejo's
// BranchProtection.
//
// The user whitelists are the users' ids (…UserIDs): what is stored and
// what the rules check, so that a right stays with its user through
// renames and dies with the account. The …Usernames lists are the API's
// view of them: on reads the service fills them with the users' current
// names (users that no longer exist are left out); on CreateProtection
// and EditProtection they are the names to whitelist, which the service
// resolves to ids. Stores keep only the ids.
type BranchProtection struct {
	ID       forge.ID
	RepoID   forge.ID
	RuleName string

	EnablePush                    bool
	EnablePushWhitelist           bool
	PushWhitelistUserIDs          []forge.ID
	PushWhitelistUsernames        []string
	PushWhitelistTeams            []string
	PushWhitelistDeployKeys       bool
	EnableMergeWhitelist          bool
	MergeWhitelistUserIDs         []forge.ID
	MergeWhitelistUsernames       []string
	MergeWhitelistTeams           []string
	EnableStatusCheck             bool
	StatusCheckContexts           []string
	RequiredApprovals             int64
	EnableApprovalsWhitelist      bool
	ApprovalsWhitelistUserIDs     []forge.ID
	ApprovalsWhitelistUsernames   []string
	ApprovalsWhitelistTeams       []string
	BlockOnRejectedReviews        bool
	BlockOnOfficialReviewRequests bool
	BlockOnOutdatedBranch         bool
	// DismissStaleApprovals dismisses approvals when new commits change the
	// diff; dismissed approvals never count again.
	DismissStaleApprovals bool
	// IgnoreStaleApprovals leaves stale approvals in place but does not
	// count them.
	IgnoreStaleApprovals    bool
	RequireSignedCommits    bool
	ProtectedFilePatterns   string
	UnprotectedFilePatterns string
	ApplyToAdmins           bool
	Created, Updated        time.Time
}

// IsGlob reports whether the rule is a pattern rather than a branch name
// (IsBranchRuleGlob).
func (p *BranchProtection) IsGlob() bool { return IsBranchRuleGlob(p.RuleName) }

// Matches reports whether the rule protects branch (MatchBranchRule: a
// plain name ignoring case, a glob with '/' as separator).
func (p *BranchProtection) Matches(branch string) bool { return MatchBranchRule(p.RuleName, branch) }

// normalize applies Forgejo's rules: a negative approval count is 0, and
// the push whitelist takes effect only with push enabled.
func (p *BranchProtection) normalize() {
	if p.RequiredApprovals < 0 {
		p.RequiredApprovals = 0
	}
	if !p.EnablePush {
		p.EnablePushWhitelist = false
		p.PushWhitelistDeployKeys = false
	}
}

// ProtectionFor returns the rule protecting branch among rules, as
// Forgejo's GetFirstMatchProtectedBranchRule picks it: plain names before
// patterns, each group in the byte order of the rule names, the first
// that matches (MatchBranchRule). Nil if none.
func ProtectionFor(rules []*BranchProtection, branch string) *BranchProtection {
	var best *BranchProtection
	for _, r := range rules {
		if !r.Matches(branch) {
			continue
		}
		if best == nil || ruleBefore(r, best) {
			best = r
		}
	}
	return best
}

// ruleBefore is Forgejo's order of branch rules: plain names first, then
// by name.
func ruleBefore(a, b *BranchProtection) bool {
	if ag, bg := a.IsGlob(), b.IsGlob(); ag != bg {
		return !ag
	}
	return a.RuleName < b.RuleName
}

// CountApprovals is Forgejo's approval count as a pure rule: official,
// undismissed approvals, leaving out stale ones only when the rule says to
// ignore them.
func CountApprovals(rule *BranchProtection, reviews []Review) int64 {
	var n int64
	for _, r := range reviews {
		if r.Approved && r.Official && !r.Dismissed && !(rule.IgnoreStaleApprovals && r.Stale) {
			n++
		}
	}
	return n
}

// HasEnoughApprovals reports whether reviews satisfy the rule.
func HasEnoughApprovals(rule *BranchProtection, reviews []Review) bool {
	return rule == nil || rule.RequiredApprovals == 0 || CountApprovals(rule, reviews) >= rule.RequiredApprovals
}

// Review is what the approval rules read of a pull-request review.
type Review struct {
	Approved, Official, Dismissed, Stale bool
}

// ListProtections lists a repository's rules. reqAdmin.
func (s *Service) ListProtections(ctx context.Context, actor forge.Actor, owner, name string) ([]*BranchProtection, error) {
	if err := actor.Check(forge.AccessRead, forge.CategoryRepository); err != nil {
		return nil, err
	}
	var list []*BranchProtection
	err := s.store.View(ctx, func(tx Tx) error {
		v, err := load(ctx, tx, actor, owner, name)
		if err != nil {
			return err
		}
		if err := requireAdmin(v); err != nil {
			return err
		}
		if list, err = tx.ListProtections(ctx, v.Repo.ID); err != nil {
			return err
		}
		return fillProtectionNames(ctx, tx, list...)
	})
	return list, err
}

// GetProtection returns a rule by name. reqAdmin; forge.ErrNotFound
// (answered as ErrRepoNotFound, Forgejo's bare 404) if none.
func (s *Service) GetProtection(ctx context.Context, actor forge.Actor, owner, name, rule string) (*BranchProtection, error) {
	if err := actor.Check(forge.AccessRead, forge.CategoryRepository); err != nil {
		return nil, err
	}
	var p *BranchProtection
	err := s.store.View(ctx, func(tx Tx) error {
		v, err := load(ctx, tx, actor, owner, name)
		if err != nil {
			return err
		}
		if err := requireAdmin(v); err != nil {
			return err
		}
		if p, err = tx.Protection(ctx, v.Repo.ID, rule); err != nil {
			return storeMissing(err, protectionMissing(rule))
		}
		return fillProtectionNames(ctx, tx, p)
	})
	return p, err
}

// ErrRuleNameEmpty refuses a rule without a name (Forgejo answers 400).
var ErrRuleNameEmpty = forge.Errorf(forge.ErrInvalid, "both rule_name and branch_name are empty")

// CreateProtection adds a rule. reqAdmin, not archived. The whitelists are
// given by name (…Usernames) and stored as the ids of those users (the
// …UserIDs given are ignored). Errors:
// forge.ErrInvalid `both rule_name and branch_name are empty`;
// ErrWhitelistUserMissing (forge.ErrInvalid `User does not exist`);
// forge.ErrInvalid `team does not exist [...]` for a whitelisted team the
// owning organisation does not have (teams of a user's repository are
// dropped, as Forgejo does); forge.ErrConflict `Branch protection already
// exist`. Members of whitelisted teams pass the whitelists.
func (s *Service) CreateProtection(ctx context.Context, actor forge.Actor, owner, name string, p BranchProtection) (*BranchProtection, error) {
	if err := actor.Check(forge.AccessWrite, forge.CategoryRepository); err != nil {
		return nil, err
	}
	if p.RuleName == "" {
		return nil, ErrRuleNameEmpty
	}
	p.normalize()
	p.ID = 0
	now := s.clock.Now()
	p.Created, p.Updated = now, now
	err := s.adminTx(ctx, actor, owner, name, true, func(tx Tx, v *View) error {
		if err := resolveProtectionNames(ctx, tx, &p, true, true, true); err != nil {
			return err
		}
		if err := resolveProtectionTeams(ctx, tx, v, &p, true, true, true); err != nil {
			return err
		}
		p.RepoID = v.Repo.ID
		if _, err := tx.Protection(ctx, v.Repo.ID, p.RuleName); err == nil {
			return forge.Errorf(forge.ErrConflict, "Branch protection already exist")
		}
		if err := tx.CreateProtection(ctx, &p); err != nil {
			return err
		}
		return fillProtectionNames(ctx, tx, &p)
	})
	if err != nil {
		return nil, err
	}
	return &p, nil
}

// ProtectionEdit is Forgejo's EditBranchProtectionOption as a typed value:
// a nil field leaves the rule's value unchanged; a non-nil pointer sets it
// (a pointer to a nil or empty slice empties the list). It has no field for
// the rule's id, repository or name: which rule is edited is decided only
// by the repository and rule name given to EditProtection.
type ProtectionEdit struct {
	EnablePush                    *bool
	EnablePushWhitelist           *bool
	PushWhitelistUsernames        *[]string
	PushWhitelistTeams            *[]string
	PushWhitelistDeployKeys       *bool
	EnableMergeWhitelist          *bool
	MergeWhitelistUsernames       *[]string
	MergeWhitelistTeams           *[]string
	EnableStatusCheck             *bool
	StatusCheckContexts           *[]string
	RequiredApprovals             *int64
	EnableApprovalsWhitelist      *bool
	ApprovalsWhitelistUsernames   *[]string
	ApprovalsWhitelistTeams       *[]string
	BlockOnRejectedReviews        *bool
	BlockOnOfficialReviewRequests *bool
	BlockOnOutdatedBranch         *bool
	DismissStaleApprovals         *bool
	IgnoreStaleApprovals          *bool
	RequireSignedCommits          *bool
	ProtectedFilePatterns         *string
	UnprotectedFilePatterns       *string
	ApplyToAdmins                 *bool
}

// Apply sets the non-nil fields of e on p (CreateProtection's callers
// build a new rule with it). It never touches p's id, repository or name.
func (e ProtectionEdit) Apply(p *BranchProtection) {
	set(&p.EnablePush, e.EnablePush)
	set(&p.EnablePushWhitelist, e.EnablePushWhitelist)
	set(&p.PushWhitelistUsernames, e.PushWhitelistUsernames)
	set(&p.PushWhitelistTeams, e.PushWhitelistTeams)
	set(&p.PushWhitelistDeployKeys, e.PushWhitelistDeployKeys)
	set(&p.EnableMergeWhitelist, e.EnableMergeWhitelist)
	set(&p.MergeWhitelistUsernames, e.MergeWhitelistUsernames)
	set(&p.MergeWhitelistTeams, e.MergeWhitelistTeams)
	set(&p.EnableStatusCheck, e.EnableStatusCheck)
	set(&p.StatusCheckContexts, e.StatusCheckContexts)
	set(&p.RequiredApprovals, e.RequiredApprovals)
	set(&p.EnableApprovalsWhitelist, e.EnableApprovalsWhitelist)
	set(&p.ApprovalsWhitelistUsernames, e.ApprovalsWhitelistUsernames)
	set(&p.ApprovalsWhitelistTeams, e.ApprovalsWhitelistTeams)
	set(&p.BlockOnRejectedReviews, e.BlockOnRejectedReviews)
	set(&p.BlockOnOfficialReviewRequests, e.BlockOnOfficialReviewRequests)
	set(&p.BlockOnOutdatedBranch, e.BlockOnOutdatedBranch)
	set(&p.DismissStaleApprovals, e.DismissStaleApprovals)
	set(&p.IgnoreStaleApprovals, e.IgnoreStaleApprovals)
	set(&p.RequireSignedCommits, e.RequireSignedCommits)
	set(&p.ProtectedFilePatterns, e.ProtectedFilePatterns)
	set(&p.UnprotectedFilePatterns, e.UnprotectedFilePatterns)
	set(&p.ApplyToAdmins, e.ApplyToAdmins)
}

// EditProtection changes the rule called rule of owner/name by e and
// returns the rule as stored. reqAdmin of owner/name, not archived. The
// rule is looked up within that repository only. Errors: forge.ErrNotFound
// for an unknown rule (or repository); forge.ErrForbidden for a
// non-administrator; ErrWhitelistUserMissing (forge.ErrInvalid `User does
// not exist`) for unknown whitelisted users (nothing is stored then). A
// whitelist the edit gives by name replaces the stored ids with those of
// the named users; the others keep their ids.
func (s *Service) EditProtection(ctx context.Context, actor forge.Actor, owner, name, rule string, e ProtectionEdit) (*BranchProtection, error) {
	if err := actor.Check(forge.AccessWrite, forge.CategoryRepository); err != nil {
		return nil, err
	}
	var out *BranchProtection
	err := s.adminTx(ctx, actor, owner, name, true, func(tx Tx, v *View) error {
		p, err := tx.Protection(ctx, v.Repo.ID, rule)
		if err != nil {
			return storeMissing(err, protectionMissing(rule))
		}
		id, repo, ruleName := p.ID, p.RepoID, p.RuleName
		before := p.RequiredApprovals
		e.Apply(p)
		if p.RequiredApprovals < 0 {
			p.RequiredApprovals = before // Forgejo ignores a negative count on edit
		}
		p.normalize()
		p.ID, p.RepoID, p.RuleName = id, repo, ruleName
		err = resolveProtectionNames(ctx, tx, p, e.PushWhitelistUsernames != nil, e.MergeWhitelistUsernames != nil,
			e.ApprovalsWhitelistUsernames != nil)
		if err != nil {
			return err
		}
		err = resolveProtectionTeams(ctx, tx, v, p, e.PushWhitelistTeams != nil, e.MergeWhitelistTeams != nil,
			e.ApprovalsWhitelistTeams != nil)
		if err != nil {
			return err
		}
		p.Updated = s.clock.Now()
		if err := tx.UpdateProtection(ctx, p); err != nil {
			return err
		}
		if out, err = tx.Protection(ctx, v.Repo.ID, rule); err != nil {
			return err
		}
		return fillProtectionNames(ctx, tx, out)
	})
	return out, err
}

// DeleteProtection removes a rule. reqAdmin with a credential granting
// write:repository (forge.ErrForbidden otherwise), archived or not;
// forge.ErrNotFound (answered as ErrRepoNotFound) if none.
func (s *Service) DeleteProtection(ctx context.Context, actor forge.Actor, owner, name, rule string) error {
	return s.adminWrite(ctx, actor, owner, name, func(tx Tx, v *View) error {
		return storeMissing(tx.DeleteProtection(ctx, v.Repo.ID, rule), protectionMissing(rule))
	})
}
