package repos

import (
	"context"
	"errors"
	"fmt"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/quota"
)

// SyncForkInfo is Forgejo's SyncForkInfo: whether a fork's branch can be
// fast-forwarded to its parent's branch of the same name.
type SyncForkInfo struct {
	// Allowed: the fork's tip is in the parent's branch and behind it.
	Allowed bool
	// ForkCommit and BaseCommit are the tips ("" when not looked at).
	ForkCommit, BaseCommit string
	// CommitsBehind is how many commits the parent's branch has that the
	// fork's lacks (0 unless Allowed).
	CommitsBehind int
}

// ForkSyncGit is what fork sync needs of the git layer besides Git
// (storage/gitstore implements it); a Git without it cannot sync forks.
type ForkSyncGit interface {
	// ForkBehind reports whether commit fork is held by repository repo
	// and reachable from commit head, and how many commits head has that
	// fork lacks; (false, 0, nil) for a fork commit repo lacks or one not
	// reachable from head.
	ForkBehind(ctx context.Context, repo forge.ID, fork, head string) (bool, int, error)
	// SyncForkRef fast-forwards ref of repository fork from oldID to
	// newID, a commit of repository base, fetching it first;
	// forge.ErrConflict unless the update is a fast-forward and ref still
	// points at oldID.
	SyncForkRef(ctx context.Context, base, fork forge.ID, ref, newID, oldID string) error
}

// Errors of fork sync that Forgejo answers 400 with their texts.
var (
	// ErrNotFork: the repository is not a fork (or its parent is gone).
	ErrNotFork = forge.Errorf(forge.ErrInvalid, "The Repo must be a fork")
	// ErrCannotSync: POST sync_fork when SyncForkInfo.Allowed is false
	// (same tips, the parent lacks the branch, or the branches diverged).
	ErrCannotSync = forge.Errorf(forge.ErrInvalid, "You can't sync this branch")
)

// BranchNotExistError is the fork's branch missing: Forgejo answers it 404
// with the branch name as the message and this text in `errors`. It is a
// forge.ErrNotFound.
type BranchNotExistError struct {
	RepoID forge.ID
	Branch string
}

func (e *BranchNotExistError) Error() string {
	return fmt.Sprintf("branch does not exist [repo_id: %d name: %s]", e.RepoID, e.Branch)
}

// Is makes it a forge.ErrNotFound.
func (e *BranchNotExistError) Is(target error) bool { return target == forge.ErrNotFound }

// SyncForkInfo is GET /repos/{owner}/{repo}/sync_fork[/{branch}] (Forgejo's
// GetSyncForkInfo): branch "" is the fork's default branch. The actor
// needs read:repository and read access to the fork's code, and to the
// parent's code at this moment: a parent the actor cannot read (a removed
// collaborator, a parent turned private, a team membership gone, a
// public-only token) is answered as a parent that is gone, ErrNotFork, so
// that neither its tip nor how far the fork is behind is told. Forgejo
// checks only the fork (its GetSyncForkInfo reads the base repository
// whoever asks); Hearth deliberately does not follow it there. Errors:
// ErrNotFork; *BranchNotExistError when the fork lacks the branch; the
// reading errors of Get. An archived fork, a parent without the branch,
// equal tips and diverged branches are answered, not refused: Allowed is
// false.
func (s *Service) SyncForkInfo(ctx context.Context, actor forge.Actor, owner, name, branch string) (*SyncForkInfo, error) {
	if err := actor.Check(forge.AccessRead, forge.CategoryRepository); err != nil {
		return nil, err
	}
	v, err := s.reader(ctx, actor, owner, name)
	if err != nil {
		return nil, err
	}
	info, _, err := s.syncForkInfo(ctx, actor, v, branch)
	return info, err
}

// SyncFork is POST /repos/{owner}/{repo}/sync_fork[/{branch}] (Forgejo's
// SyncFork): the fork's branch ("" its default branch) is fast-forwarded
// to its parent's, with real git, as a push by actor would: protection
// rules apply, the owner's size:repos:all quota is asked, the repository's
// size is refreshed and the push listeners are told of the update. The
// parent's objects are copied into the fork only when actor may read the
// parent's code at this moment (SyncForkInfo's rule: a parent actor lost
// access to is ErrNotFork, and nothing is fetched). Order as Forgejo's
// route: forge.ErrArchived (mustNotBeArchived), then forge.ErrForbidden
// without write access to the code, then ErrNotFork,
// *BranchNotExistError, ErrCannotSync when SyncForkInfo.Allowed is false;
// a *RefChangeError for a protected branch the actor may not push to; a
// *quota.ExceededError; forge.ErrConflict if the branch moved meanwhile.
func (s *Service) SyncFork(ctx context.Context, actor forge.Actor, owner, name, branch string) error {
	if err := actor.Check(forge.AccessWrite, forge.CategoryRepository); err != nil {
		return err
	}
	v, err := s.Get(ctx, actor, owner, name)
	if err != nil {
		return err
	}
	if err := checkWritable(v.Repo); err != nil {
		return err
	}
	if err := requireWrite(v); err != nil {
		return err
	}
	info, base, err := s.syncForkInfo(ctx, actor, v, branch)
	if err != nil {
		return err
	}
	if !info.Allowed {
		return ErrCannotSync
	}
	if branch == "" {
		branch = v.Repo.DefaultBranch
	}
	u := RefUpdate{Ref: "refs/heads/" + branch, OldID: info.ForkCommit, NewID: info.BaseCommit}
	if _, err := s.checkRefChange(ctx, actor, v, false, u); err != nil {
		return err
	}
	if err := s.checkQuota(ctx, v.Repo, quota.SubjectReposAll); err != nil {
		return err
	}
	g, ok := s.git.(ForkSyncGit)
	if !ok {
		return errors.New("repos: the git layer cannot sync forks")
	}
	if err := g.SyncForkRef(ctx, base, v.Repo.ID, u.Ref, u.NewID, u.OldID); err != nil {
		return err
	}
	return s.recordRefMoves(ctx, refMoves{actor: actor, repo: v.Repo.ID, updates: []RefUpdate{u}})
}

// syncForkInfo computes SyncForkInfo for v's repository and returns its
// parent's id; the parent is read as actor (readableParent).
func (s *Service) syncForkInfo(ctx context.Context, actor forge.Actor, v *View, branch string) (*SyncForkInfo, forge.ID, error) {
	if v.Repo.ForkID == 0 {
		return nil, 0, ErrNotFork
	}
	if branch == "" {
		branch = v.Repo.DefaultBranch
	}
	info := &SyncForkInfo{}
	if v.Repo.Archived {
		return info, 0, nil
	}
	base, err := s.readableParent(ctx, actor, v.Repo)
	if err != nil {
		return nil, 0, err
	}
	if !ValidBranchName(branch) {
		return nil, 0, &BranchNotExistError{RepoID: v.Repo.ID, Branch: branch}
	}
	ref := "refs/heads/" + branch
	fork, err := s.git.Resolve(ctx, v.Repo.ID, ref)
	if errors.Is(err, forge.ErrNotFound) {
		return nil, 0, &BranchNotExistError{RepoID: v.Repo.ID, Branch: branch}
	} else if err != nil {
		return nil, 0, err
	}
	info.ForkCommit = fork
	head, err := s.git.Resolve(ctx, base.ID, ref)
	if errors.Is(err, forge.ErrNotFound) {
		return info, base.ID, nil // the parent lacks the branch
	} else if err != nil {
		return nil, 0, err
	}
	info.BaseCommit = head
	if fork == head {
		return info, base.ID, nil
	}
	g, ok := s.git.(ForkSyncGit)
	if !ok {
		return nil, 0, errors.New("repos: the git layer cannot sync forks")
	}
	in, behind, err := g.ForkBehind(ctx, base.ID, fork, head)
	if err != nil {
		return nil, 0, err
	}
	info.Allowed, info.CommitsBehind = in, behind
	return info, base.ID, nil
}

// readableParent returns the parent of fork when actor may read the
// parent's code now, the check every operation that copies a parent's
// objects into a fork (or tells of them) makes at the moment it does so.
// A parent that is gone, invisible to actor, or whose code actor may not
// read is ErrNotFork: Forgejo turns the forks of a deleted repository into
// plain ones, and a parent the actor lost access to is answered the same,
// as the repository's JSON leaves such a parent out (Parent). The account
// state and token scope errors of the actor, and the store's errors, are
// returned as they are.
func (s *Service) readableParent(ctx context.Context, actor forge.Actor, fork *forge.Repository) (*forge.Repository, error) {
	if fork.ForkID == 0 {
		return nil, ErrNotFork
	}
	var parent *View
	err := s.store.View(ctx, func(tx Tx) error {
		var err error
		parent, err = loadByID(ctx, tx, actor, fork.ForkID)
		return err
	})
	if errors.Is(err, forge.ErrNotFound) {
		return nil, ErrNotFork
	} else if err != nil {
		return nil, err
	}
	if requireUnitRead(parent, forge.UnitCode) != nil {
		return nil, ErrNotFork
	}
	return parent.Repo, nil
}
