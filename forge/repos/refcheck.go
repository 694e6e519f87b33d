package repos

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/hearthforge/hearth/forge"
)

// RefRefusal names why a reference change is refused ("" allows it).
type RefRefusal string

// The reasons CheckRefUpdate refuses a change.
const (
	// RefAllowed: the change may go ahead.
	RefAllowed RefRefusal = ""
	// RefDefaultBranch: the default branch of a non-empty repository is
	// never deleted.
	RefDefaultBranch RefRefusal = "default-branch"
	// RefBranchDeletion: a protected branch is never deleted.
	RefBranchDeletion RefRefusal = "branch-deletion"
	// RefBranchPush: the branch's rule does not let the user push (this
	// covers creating a branch with a protected name).
	RefBranchPush RefRefusal = "branch-push"
	// RefTag: a protected tag the user is not whitelisted for.
	RefTag RefRefusal = "tag"
	// RefBadName: a new branch or tag whose name the API refuses
	// (CheckRefName).
	RefBadName RefRefusal = "bad-name"
	// RefPull: refs/pull/… is written by the forge only (Forgejo accepts
	// pushes there only to AGit pull requests; Hearth has none).
	RefPull RefRefusal = "pull"
	// RefAGit: refs/for/… asks for an AGit pull request, which Hearth
	// does not serve.
	RefAGit RefRefusal = "agit"
)

// RefRules is what CheckRefUpdate reads of a repository.
type RefRules struct {
	Branches []*BranchProtection
	Tags     []*TagProtection
	// DefaultBranch is never deleted unless Empty ("" when the change is a
	// rename: renaming the default branch moves the setting with it).
	DefaultBranch string
	Empty         bool
}

// isZeroID reports whether id is "" or all zeros (git's "no object").
func isZeroID(id string) bool { return strings.Trim(id, "0") == "" }

// Pusher is who changes references, as the protection rules see it: the
// user's id (0 for nobody) and the names of the teams of the repository's
// organisation the user is in (none for users' repositories). A member of
// a whitelisted team passes a whitelist as a whitelisted user does.
type Pusher struct {
	UserID forge.ID
	Teams  []string
	// DeployKey: a deploy key pushes (over SSH); a push whitelist lets it
	// through only with PushWhitelistDeployKeys.
	DeployKey bool
}

// listed reports whether p is on a whitelist of users and teams (team
// names compare ignoring case).
func (p Pusher) listed(users []forge.ID, teams []string) bool {
	if p.UserID == 0 {
		return false
	}
	if slices.Contains(users, p.UserID) {
		return true
	}
	for _, t := range teams {
		for _, mine := range p.Teams {
			if strings.EqualFold(t, mine) {
				return true
			}
		}
	}
	return false
}

// CanPushBranch is CanPushBranchAs for a user in no team.
func CanPushBranch(rule *BranchProtection, userID forge.ID) bool {
	return CanPushBranchAs(rule, Pusher{UserID: userID})
}

// CanPushBranchAs is the branch rule for changes by p: without a rule,
// yes; with one, only when it enables pushing and, when it has a push
// whitelist, p is on it (by user or team). (Write access is checked
// before.)
func CanPushBranchAs(rule *BranchProtection, p Pusher) bool {
	if rule == nil {
		return true
	}
	if !rule.EnablePush {
		return false
	}
	if !rule.EnablePushWhitelist {
		return true
	}
	if p.DeployKey {
		return rule.PushWhitelistDeployKeys
	}
	return p.listed(rule.PushWhitelistUserIDs, rule.PushWhitelistTeams)
}

// CanMergeBranch is Forgejo's IsUserMergeWhitelisted: may p, who can
// (canWriteCode) or cannot write the code, merge into a branch the rule
// protects? Without a merge whitelist, writers may; with one, those on it
// (by user or team).
func CanMergeBranch(rule *BranchProtection, p Pusher, canWriteCode bool) bool {
	if rule == nil || !rule.EnableMergeWhitelist {
		return canWriteCode
	}
	return p.listed(rule.MergeWhitelistUserIDs, rule.MergeWhitelistTeams)
}

// IsOfficialReviewer is Forgejo's IsUserOfficialReviewer: does an approval
// by p count? Without an approvals whitelist, when p can write the code;
// with one, when p is on it (by user or team).
func IsOfficialReviewer(rule *BranchProtection, p Pusher, canWriteCode bool) bool {
	if rule == nil || !rule.EnableApprovalsWhitelist {
		return canWriteCode
	}
	return p.listed(rule.ApprovalsWhitelistUserIDs, rule.ApprovalsWhitelistTeams)
}

// canPush is CanPushBranchAs for an actor whose teams are p.
func canPush(rule *BranchProtection, p Pusher) bool {
	return CanPushBranchAs(rule, p)
}

// CheckRefUpdate is the one protection rule for every way a reference is
// created, moved or deleted (git push, branch and tag API calls, releases,
// renames), as a pure function of the repository's rules, the id of the
// acting user (0 for none) and the update. It returns the refusal, and
// whether the update may only fast-forward (a protected branch that exists
// and stays: Forgejo refuses force pushes to protected branches, v15 has
// no allowlist for them).
//
// A new branch or tag must have a name the API accepts (CheckRefName:
// git push would otherwise create `HEAD` or `-n`). Outside refs/heads/ and
// refs/tags/, as Forgejo's pre-receive hook: refs/pull/… is refused (the
// forge writes it; Forgejo lets users push only to AGit pull requests,
// which Hearth does not have), refs/for/… is refused (AGit, not served);
// any other namespace (refs/notes/…, refs/meta/…) is the repository's to
// use, as in Forgejo, for anyone who may write to it.
func CheckRefUpdate(rules RefRules, userID forge.ID, u RefUpdate) (fastForwardOnly bool, refusal RefRefusal) {
	return CheckRefUpdateAs(rules, Pusher{UserID: userID}, u)
}

// CheckRefUpdateAs is CheckRefUpdate for p: whitelisted teams count.
func CheckRefUpdateAs(rules RefRules, p Pusher, u RefUpdate) (fastForwardOnly bool, refusal RefRefusal) {
	deleting := isZeroID(u.NewID)
	creating := isZeroID(u.OldID) && !deleting
	switch {
	case strings.HasPrefix(u.Ref, "refs/pull/"):
		return false, RefPull
	case strings.HasPrefix(u.Ref, "refs/for/"):
		return false, RefAGit
	}
	if tag, ok := strings.CutPrefix(u.Ref, "refs/tags/"); ok {
		if creating && CheckRefName(tag) != nil {
			return false, RefBadName
		}
		if !CanChangeTagAs(rules.Tags, p, tag) {
			return false, RefTag
		}
		return false, RefAllowed
	}
	branch, ok := strings.CutPrefix(u.Ref, "refs/heads/")
	if !ok {
		return false, RefAllowed
	}
	if creating && CheckRefName(branch) != nil {
		return false, RefBadName
	}
	rule := ProtectionFor(rules.Branches, branch)
	switch {
	case deleting && rules.DefaultBranch != "" && branch == rules.DefaultBranch && !rules.Empty:
		return false, RefDefaultBranch
	case deleting && rule != nil:
		return false, RefBranchDeletion
	case !CanPushBranchAs(rule, p):
		return false, RefBranchPush
	}
	return rule != nil && !isZeroID(u.OldID), RefAllowed
}

// RefChangeError is a reference change refused by CheckRefUpdate. It is a
// forge.ErrForbidden; its message is the one Forgejo's pre-receive hook
// gives a pushing client.
type RefChangeError struct {
	Ref     string
	Refusal RefRefusal
}

func (e *RefChangeError) Error() string {
	name := strings.TrimPrefix(strings.TrimPrefix(e.Ref, "refs/heads/"), "refs/tags/")
	switch e.Refusal {
	case RefDefaultBranch:
		return fmt.Sprintf("branch %s is the default branch and cannot be deleted", name)
	case RefBranchDeletion:
		return fmt.Sprintf("branch %s is protected from deletion", name)
	case RefBranchPush:
		return fmt.Sprintf("Not allowed to push to protected branch %s", name)
	case RefTag:
		return fmt.Sprintf("Tag %s is protected", name)
	case RefBadName:
		if err := CheckRefName(name); err != nil {
			return err.Error()
		}
		return fmt.Sprintf("invalid reference name %q", name)
	case RefPull:
		// Forgejo's answers: no pull request number, or no such (AGit)
		// pull request.
		rest := strings.TrimPrefix(e.Ref, "refs/pull/")
		if i := strings.LastIndexByte(rest, '/'); i >= 0 {
			rest = rest[:i]
		}
		if n, err := strconv.ParseInt(rest, 10, 64); err == nil && n > 0 {
			return fmt.Sprintf("Unable to get pull request %d", n)
		}
		return fmt.Sprintf("Invalid ref: %s", e.Ref)
	case RefAGit:
		return fmt.Sprintf("AGit pull requests are not supported: %s", e.Ref)
	}
	return "reference change refused: " + e.Ref
}

// Is makes it a forge.ErrForbidden.
func (e *RefChangeError) Is(target error) bool { return target == forge.ErrForbidden }

// refRules loads the branch and tag rules of v's repository, and the
// actor as the rules see it, in one read.
func (s *Service) refRules(ctx context.Context, actor forge.Actor, v *View) (RefRules, Pusher, error) {
	rr := RefRules{DefaultBranch: v.Repo.DefaultBranch, Empty: v.Repo.Empty}
	var p Pusher
	err := s.store.View(ctx, func(tx Tx) error {
		var err error
		if rr.Branches, err = tx.ListProtections(ctx, v.Repo.ID); err != nil {
			return err
		}
		if rr.Tags, err = tx.ListTagProtections(ctx, v.Repo.ID); err != nil {
			return err
		}
		p, err = pusherOf(ctx, tx, actor, v)
		return err
	})
	return rr, p, err
}

// pusherOf is the actor as the protection rules see it in v's repository:
// with the names of its teams when an organisation owns it.
func pusherOf(ctx context.Context, tx Tx, actor forge.Actor, v *View) (Pusher, error) {
	p := Pusher{UserID: actor.UserID(), DeployKey: actor.DeployKey != nil}
	if p.UserID == 0 || !v.Owner.IsOrganization() {
		return p, nil
	}
	teams, err := tx.OrgTeams(ctx, v.Repo.OwnerID, p.UserID)
	if err != nil {
		return p, err
	}
	for _, t := range teams {
		p.Teams = append(p.Teams, t.Name)
	}
	return p, nil
}

// checkRefChange applies CheckRefUpdate to updates by actor in v (a view
// loaded for a writer): a *RefChangeError for the first refused update,
// else the references that may only fast-forward.
func (s *Service) checkRefChange(ctx context.Context, actor forge.Actor, v *View, rename bool, updates ...RefUpdate) ([]string, error) {
	rr, p, err := s.refRules(ctx, actor, v)
	if err != nil {
		return nil, err
	}
	return checkRefUpdates(rr, p, rename, updates...)
}

// checkRefUpdates is checkRefChange with the rules and the pusher read
// (refRules).
func checkRefUpdates(rr RefRules, p Pusher, rename bool, updates ...RefUpdate) ([]string, error) {
	if rename {
		rr.DefaultBranch = ""
	}
	var ff []string
	for _, u := range updates {
		only, why := CheckRefUpdateAs(rr, p, u)
		if why != RefAllowed {
			return nil, &RefChangeError{Ref: u.Ref, Refusal: why}
		}
		if only {
			ff = append(ff, u.Ref)
		}
	}
	return ff, nil
}
