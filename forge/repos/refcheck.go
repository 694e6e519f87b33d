package repos

import (
	"context"
	"fmt"
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

// CanPushBranch is the branch rule for changes by user: without a rule,
// yes; with one, only when it enables pushing and, when it has a push
// whitelist, user is on it. (Write access is checked before.)
func CanPushBranch(rule *BranchProtection, user *forge.User) bool {
	if rule == nil {
		return true
	}
	if !rule.EnablePush {
		return false
	}
	if !rule.EnablePushWhitelist {
		return true
	}
	for _, n := range rule.PushWhitelistUsernames {
		if user != nil && strings.EqualFold(n, user.Name) {
			return true
		}
	}
	return false
}

// canPush is CanPushBranch for an actor.
func canPush(rule *BranchProtection, actor forge.Actor, _ *View) bool {
	return CanPushBranch(rule, actor.User)
}

// CheckRefUpdate is the one protection rule for every way a reference is
// created, moved or deleted (git push, branch and tag API calls, releases,
// renames), as a pure function of the repository's rules, the acting user
// and the update. It returns the refusal, and whether the update may only
// fast-forward (a protected branch that exists and stays: Forgejo refuses
// force pushes to protected branches, v15 has no allowlist for them).
// References outside refs/heads/ and refs/tags/ are not ruled here.
func CheckRefUpdate(rules RefRules, user *forge.User, u RefUpdate) (fastForwardOnly bool, refusal RefRefusal) {
	deleting := isZeroID(u.NewID)
	if tag, ok := strings.CutPrefix(u.Ref, "refs/tags/"); ok {
		if !CanChangeTag(rules.Tags, user, tag) {
			return false, RefTag
		}
		return false, RefAllowed
	}
	branch, ok := strings.CutPrefix(u.Ref, "refs/heads/")
	if !ok {
		return false, RefAllowed
	}
	rule := ProtectionFor(rules.Branches, branch)
	switch {
	case deleting && rules.DefaultBranch != "" && branch == rules.DefaultBranch && !rules.Empty:
		return false, RefDefaultBranch
	case deleting && rule != nil:
		return false, RefBranchDeletion
	case !CanPushBranch(rule, user):
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
	}
	return "reference change refused: " + e.Ref
}

// Is makes it a forge.ErrForbidden.
func (e *RefChangeError) Is(target error) bool { return target == forge.ErrForbidden }

// refRules loads the branch and tag rules of v's repository in one read.
func (s *Service) refRules(ctx context.Context, v *View) (RefRules, error) {
	rr := RefRules{DefaultBranch: v.Repo.DefaultBranch, Empty: v.Repo.Empty}
	err := s.store.View(ctx, func(tx Tx) error {
		var err error
		if rr.Branches, err = tx.ListProtections(ctx, v.Repo.ID); err != nil {
			return err
		}
		rr.Tags, err = tx.ListTagProtections(ctx, v.Repo.ID)
		return err
	})
	return rr, err
}

// checkRefChange applies CheckRefUpdate to updates by actor in v (a view
// loaded for a writer): a *RefChangeError for the first refused update,
// else the references that may only fast-forward.
func (s *Service) checkRefChange(ctx context.Context, actor forge.Actor, v *View, rename bool, updates ...RefUpdate) ([]string, error) {
	rr, err := s.refRules(ctx, v)
	if err != nil {
		return nil, err
	}
	if rename {
		rr.DefaultBranch = ""
	}
	var ff []string
	for _, u := range updates {
		only, why := CheckRefUpdate(rr, actor.User, u)
		if why != RefAllowed {
			return nil, &RefChangeError{Ref: u.Ref, Refusal: why}
		}
		if only {
			ff = append(ff, u.Ref)
		}
	}
	return ff, nil
}
