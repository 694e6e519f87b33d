package repos

import (
	"context"
	"errors"
	"strings"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/quota"
)

// Branch is a branch with its head commit and protection.
type Branch struct {
	Name      string
	Commit    *Commit
	Protected bool
	Rule      *BranchProtection
	// CanPush and CanMerge are for the actor.
	CanPush bool
}

// Branches lists the branches of owner/name with their head commits.
func (s *Service) Branches(ctx context.Context, actor forge.Actor, owner, name string) (*View, []*Branch, error) {
	v, rules, err := s.branchReader(ctx, actor, owner, name)
	if err != nil {
		return nil, nil, err
	}
	refs, err := s.git.Refs(ctx, v.Repo.ID)
	if err != nil {
		return nil, nil, err
	}
	var out []*Branch
	for _, ref := range refs {
		b, ok := strings.CutPrefix(ref.Name, "refs/heads/")
		if !ok {
			continue
		}
		br, err := s.branch(ctx, v, rules, b)
		if err != nil {
			return nil, nil, err
		}
		out = append(out, br)
	}
	if out == nil {
		out = []*Branch{}
	}
	return v, out, nil
}

// branchReader loads owner/name for a branch read (read:repository, read
// access) with its protection rules.
func (s *Service) branchReader(ctx context.Context, actor forge.Actor, owner, name string) (*View, branchRules, error) {
	if err := actor.Check(forge.AccessRead, forge.CategoryRepository); err != nil {
		return nil, branchRules{}, err
	}
	v, err := s.reader(ctx, actor, owner, name)
	if err != nil {
		return nil, branchRules{}, err
	}
	rr, p, err := s.refRules(ctx, actor, v)
	if err != nil {
		return nil, branchRules{}, err
	}
	return v, branchRules{rr.Branches, p}, nil
}

// branchRules are the branch rules of a repository and the actor as they
// see it.
type branchRules struct {
	rules  []*BranchProtection
	pusher Pusher
}

func (s *Service) branch(ctx context.Context, v *View, br branchRules, name string) (*Branch, error) {
	log, err := s.git.Log(ctx, v.Repo.ID, LogOptions{Rev: "refs/heads/" + name, Limit: 1})
	if err != nil {
		return nil, err
	}
	if len(log) == 0 {
		return nil, forge.Errorf(forge.ErrNotFound, "branch does not exist [name: %s]", name)
	}
	rule := ProtectionFor(br.rules, name)
	return &Branch{Name: name, Commit: log[0], Protected: rule != nil, Rule: rule,
		CanPush: v.CanWrite() && canPush(rule, br.pusher)}, nil
}

// GetBranch returns one branch; forge.ErrNotFound if missing.
func (s *Service) GetBranch(ctx context.Context, actor forge.Actor, owner, name, branch string) (*View, *Branch, error) {
	v, rules, err := s.branchReader(ctx, actor, owner, name)
	if err != nil {
		return nil, nil, err
	}
	b, err := s.getBranch(ctx, v, rules, branch)
	return v, b, err
}

// getBranch is GetBranch in v, a view resolved for a reader of its code,
// with its rules as the actor sees them.
func (s *Service) getBranch(ctx context.Context, v *View, rules branchRules, branch string) (*Branch, error) {
	if _, err := s.git.Resolve(ctx, v.Repo.ID, "refs/heads/"+branch); err != nil {
		return nil, forge.Errorf(forge.ErrNotFound, "branch does not exist [name: %s]", branch)
	}
	return s.branch(ctx, v, rules, branch)
}

// CreateBranch creates newName at from (resolved by ResolveRef: a branch,
// then a tag, then a commit id, short ones included; "" is the default
// branch). Writers only, not archived. Errors: forge.ErrInvalid for an
// invalid name or from (see CheckRefName, CheckRevision); a
// *RefChangeError (forge.ErrForbidden) when a protection rule does not let
// the actor push to newName; forge.ErrConflict `The branch already
// exists.`, or `The branch with the same tag already exists.` when a tag
// holds the name (so no read could confuse the two); forge.ErrNotFound
// `The old branch does not exist` for an unknown from.
func (s *Service) CreateBranch(ctx context.Context, actor forge.Actor, owner, name, newName, from string) (*View, *Branch, error) {
	if err := actor.Check(forge.AccessWrite, forge.CategoryRepository); err != nil {
		return nil, nil, err
	}
	v, err := s.writer(ctx, actor, owner, name)
	if err != nil {
		return nil, nil, err
	}
	if err := checkBranchName("NewBranchName", newName); err != nil {
		return nil, nil, err
	}
	if err := s.checkQuota(ctx, v.Repo, quota.SubjectReposAll); err != nil {
		return nil, nil, err
	}
	if from != "" {
		if err := CheckRevision(from); err != nil {
			return nil, nil, forge.Errorf(forge.ErrInvalid, "[OldRefName]: %v", err)
		}
	}
	rr, err := s.resolveRef(ctx, v, from, true)
	if err != nil {
		return nil, nil, forge.Errorf(forge.ErrNotFound, "The old branch does not exist")
	}
	id := rr.Commit
	if _, err := s.git.Resolve(ctx, v.Repo.ID, "refs/tags/"+newName); err == nil {
		return nil, nil, forge.Errorf(forge.ErrConflict, "The branch with the same tag already exists.")
	}
	// The rules read for the check are those the answer shows: the view
	// and the rules are read once (the branch is answered as GetBranch
	// would, without resolving the repository again).
	rules, p, err := s.refRules(ctx, actor, v)
	if err != nil {
		return nil, nil, err
	}
	if _, err := checkRefUpdates(rules, p, false, RefUpdate{Ref: "refs/heads/" + newName, NewID: id}); err != nil {
		return nil, nil, err
	}
	if err := s.git.SetRef(ctx, v.Repo.ID, "refs/heads/"+newName, id, ""); err != nil {
		if errors.Is(err, forge.ErrConflict) {
			return nil, nil, forge.Errorf(forge.ErrConflict, "The branch already exists.")
		}
		return nil, nil, err
	}
	if err := s.recordRefMoves(ctx, refMoves{actor: actor, repo: v.Repo.ID,
		updates: []RefUpdate{{Ref: "refs/heads/" + newName, NewID: id}}}); err != nil {
		return nil, nil, err
	}
	b, err := s.getBranch(ctx, v, branchRules{rules.Branches, p}, newName)
	if err != nil {
		return nil, nil, err
	}
	return v, b, nil
}

// DeleteBranch deletes a branch. Writers only, not archived. The default
// branch (`can not delete default branch`) and protected branches (`branch
// protected`) are refused with forge.ErrForbidden, by the same rule as
// pushes (CheckRefUpdate); forge.ErrNotFound when the branch is missing.
func (s *Service) DeleteBranch(ctx context.Context, actor forge.Actor, owner, name, branch string) error {
	if err := actor.Check(forge.AccessWrite, forge.CategoryRepository); err != nil {
		return err
	}
	v, err := s.writer(ctx, actor, owner, name)
	if err != nil {
		return err
	}
	return s.deleteBranch(ctx, actor, v, branch)
}

// deleteBranch is DeleteBranch in v, a view resolved for a writer of its
// code (writer's rule). The protection rules are read here, at the moment
// of the deletion.
func (s *Service) deleteBranch(ctx context.Context, actor forge.Actor, v *View, branch string) error {
	_, err := s.checkRefChange(ctx, actor, v, false, RefUpdate{Ref: "refs/heads/" + branch})
	var rc *RefChangeError
	if errors.As(err, &rc) {
		switch rc.Refusal {
		case RefDefaultBranch:
			return forge.Errorf(forge.ErrForbidden, "can not delete default branch")
		case RefBranchDeletion:
			return forge.Errorf(forge.ErrForbidden, "branch protected")
		}
	}
	if err != nil {
		return err
	}
	id, err := s.git.Resolve(ctx, v.Repo.ID, "refs/heads/"+branch)
	if err != nil {
		return forge.Errorf(forge.ErrNotFound, "branch does not exist [name: %s]", branch)
	}
	if err := s.git.SetRef(ctx, v.Repo.ID, "refs/heads/"+branch, "", id); err != nil {
		return err
	}
	// As a push deleting the branch: its pull requests are closed, hooks
	// get the delete event.
	return s.recordRefMoves(ctx, refMoves{actor: actor, repo: v.Repo.ID,
		updates: []RefUpdate{{Ref: "refs/heads/" + branch, OldID: id, NewID: ""}}})
}

// RefUpdate is one reference a push changes: NewID "" (or all zeros)
// deletes it.
type RefUpdate struct {
	Ref   string
	OldID string
	NewID string
}

// PushPlan is what a push may do once CheckPush accepted its commands.
type PushPlan struct {
	// View is the repository as the pushing actor sees it.
	View *View
	// FastForwardOnly lists the references (refs/heads/…) whose update the
	// transport must refuse unless the new commit descends from the old one:
	// protected branches are protected from force pushes (Forgejo's
	// "protected from force push"). The objects of a push arrive after its
	// commands, so this is checked where they are (git's pre-receive step).
	FastForwardOnly []string
	// QuotaAllowance is how many bytes of pack the push may bring before
	// it crosses the owner's quota (size:repos:all); -1 is no limit. The
	// transport refuses a larger pack before any reference moves
	// (WithPushAllowance). A push the quota refuses outright (the owner is
	// already at a limit and it does not only delete) is refused by
	// CheckPush with a *quota.ExceededError.
	QuotaAllowance int64
}

// CheckPush applies the account state, the write:repository scope, write
// access, the archived state and branch and tag protection to the
// reference updates of a push by the actor to owner/name: protected
// branches take pushes only as their rule allows, are never deleted, and
// never move except by fast-forward (listed in the plan's FastForwardOnly
// for the transport to enforce); the default branch is never deleted;
// protected tags change only for their whitelisted users. This is the
// same rule (CheckRefUpdate) as the branch, tag and release methods apply.
// Forgejo v15 has no force-push allowlist (its BranchProtection has no
// enable_force_push): no one force-pushes a protected branch. Returns
// forge.ErrNotFound for a repository the actor cannot read, a
// *RefChangeError (forge.ErrForbidden, with the message Forgejo's hook
// gives) for a refused update, forge.ErrForbidden otherwise.
func (s *Service) CheckPush(ctx context.Context, actor forge.Actor, owner, name string, updates []RefUpdate) (*PushPlan, error) {
	if err := actor.Check(forge.AccessWrite, forge.CategoryRepository); err != nil {
		return nil, err
	}
	v, err := s.writer(ctx, actor, owner, name)
	if err != nil {
		return nil, err
	}
	ff, err := s.checkRefChange(ctx, actor, v, false, updates...)
	if err != nil {
		return nil, err
	}
	allow, err := s.pushAllowance(ctx, v.Repo, updates)
	if err != nil {
		return nil, err
	}
	return &PushPlan{View: v, FastForwardOnly: ff, QuotaAllowance: allow}, nil
}

// RenameBranch renames a branch (and the default branch setting with it).
// Writers only, not archived. Errors: forge.ErrInvalid for an invalid new
// name; forge.ErrForbidden `Branch is protected` when a rule covers from,
// a *RefChangeError when the rule of the new name does not let the actor
// push there; forge.ErrNotFound when from is missing; forge.ErrConflict
// when the new name exists.
func (s *Service) RenameBranch(ctx context.Context, actor forge.Actor, owner, name, from, to string) error {
	if err := actor.Check(forge.AccessWrite, forge.CategoryRepository); err != nil {
		return err
	}
	v, err := s.writer(ctx, actor, owner, name)
	if err != nil {
		return err
	}
	if err := checkBranchName("Name", to); err != nil {
		return err
	}
	id, err := s.git.Resolve(ctx, v.Repo.ID, "refs/heads/"+from)
	if err != nil {
		return forge.Errorf(forge.ErrNotFound, "branch does not exist [name: %s]", from)
	}
	_, err = s.checkRefChange(ctx, actor, v, true,
		RefUpdate{Ref: "refs/heads/" + from, OldID: id},
		RefUpdate{Ref: "refs/heads/" + to, NewID: id})
	var rc *RefChangeError
	if errors.As(err, &rc) && rc.Ref == "refs/heads/"+from {
		return forge.Errorf(forge.ErrForbidden, "Branch is protected")
	}
	if err != nil {
		return err
	}
	if err := s.git.SetRef(ctx, v.Repo.ID, "refs/heads/"+to, id, ""); err != nil {
		if errors.Is(err, forge.ErrConflict) {
			return forge.Errorf(forge.ErrConflict, "branch already exists [name: %s]", to)
		}
		return err
	}
	if err := s.git.SetRef(ctx, v.Repo.ID, "refs/heads/"+from, "", id); err != nil {
		return err
	}
	if from == v.Repo.DefaultBranch {
		err := s.store.Update(ctx, func(tx Tx) error {
			r, err := tx.RepoByID(ctx, v.Repo.ID)
			if err != nil {
				return err
			}
			r.DefaultBranch, r.Updated = to, s.clock.Now()
			return tx.UpdateRepo(ctx, r)
		})
		if err != nil {
			return err
		}
	}
	return s.recordRefMoves(ctx, refMoves{actor: actor, repo: v.Repo.ID, rename: &BranchRename{From: from, To: to},
		updates: []RefUpdate{{Ref: "refs/heads/" + from, OldID: id}, {Ref: "refs/heads/" + to, NewID: id}}})
}
