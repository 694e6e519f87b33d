package repos

import (
	"bytes"
	"cmp"
	"context"
	"strings"

	"github.com/hearthforge/hearth/forge"
)

// PatchOptions are Forgejo's ApplyDiffPatchFileOptions, as ApplyPatch
// takes them.
type PatchOptions struct {
	// Patch is the diff to apply (`git diff` or `git format-patch`
	// output), as the request's content carries it: not base64.
	Patch []byte
	// Message of the commit; "" is Forgejo's `apply-patch`.
	Message   string
	Branch    string // "" is the default branch
	NewBranch string // "" (or Branch) moves Branch
	Author    Signature
	Committer Signature
}

// DefaultPatchMessage is the message of a patch's commit when none is
// given (Forgejo's ApplyDiffPatch).
const DefaultPatchMessage = "apply-patch"

// ApplyPatch applies o.Patch to the tip of o.Branch and commits the result
// on it (or on o.NewBranch, created), as Forgejo's ApplyDiffPatch, with
// every check of a contents write (ChangeFiles): writers of the code only
// (forge.ErrNotFound to those who may not see the repository), not
// archived, a token with write:repository, author and committer
// (CheckSignature), the owner's quota (size:repos:all, the patch's size
// reserved until the repository is measured), the branch rules
// (forge.ErrForbidden `user should have a permission to write to this
// branch`), forge.ErrNotFound `branch does not exist [name: b]` (an empty
// repository has none), forge.ErrConflict `branch already exists [name:
// b]` for an existing o.NewBranch. A patch that is empty, does not apply
// or touches a path CleanTreePath refuses is forge.ErrInvalid, and nothing
// is written. The commit is recorded as a push of its branch
// (recordRefMoves). It returns the repository as stored after the commit,
// and the commit with its files.
func (s *Service) ApplyPatch(ctx context.Context, actor forge.Actor, owner, name string, o PatchOptions) (*View, *Commit, error) {
	if err := actor.Check(forge.AccessWrite, forge.CategoryRepository); err != nil {
		return nil, nil, err
	}
	if err := CheckSignature("author", o.Author); err != nil {
		return nil, nil, err
	}
	if err := CheckSignature("committer", o.Committer); err != nil {
		return nil, nil, err
	}
	msg := strings.TrimSpace(o.Message)
	if msg == "" {
		msg = DefaultPatchMessage
	}
	msg += "\n" // as Forgejo's CommitTree writes it
	if strings.ContainsRune(msg, 0) {
		return nil, nil, forge.Errorf(forge.ErrInvalid, "commit message contains a NUL byte")
	}
	v, err := s.writer(ctx, actor, owner, name)
	if err != nil {
		return nil, nil, err
	}
	if len(bytes.TrimSpace(o.Patch)) == 0 {
		return nil, nil, forge.Errorf(forge.ErrInvalid, "[Content]: Required")
	}
	pg, ok := s.git.(PatchGit)
	if !ok {
		return nil, nil, forge.Errorf(forge.ErrInvalid, "patches are not supported by this git storage")
	}
	held, err := s.reserveQuota(ctx, v.Repo, int64(len(o.Patch)))
	if err != nil {
		return nil, nil, err
	}
	keep := false // a commit whose size was not measured keeps it until it expires
	defer func() {
		if !keep {
			s.releaseQuota(context.WithoutCancel(ctx), held)
		}
	}()
	newBranch := o.NewBranch
	if newBranch == cmp.Or(o.Branch, v.Repo.DefaultBranch) {
		newBranch = ""
	}
	bw, err := s.checkBranchWrite(ctx, actor, v, o.Branch, newBranch)
	if err != nil {
		return nil, nil, err
	}
	if bw.parent == "" {
		// Forgejo's Validate: the branch the patch applies to must exist.
		return nil, nil, forge.Errorf(forge.ErrNotFound, "branch does not exist [name: %s]", bw.branch)
	}
	author, committer := s.commitSignatures(actor, o.Author, o.Committer)
	c, err := pg.ApplyPatch(ctx, v.Repo.ID, PatchSet{Branch: bw.branch, NewBranch: newBranch, Patch: o.Patch,
		Message: msg, Author: author, Committer: committer})
	if err != nil {
		return nil, nil, err
	}
	fresh, ok := s.landed(ctx, actor, v, bw.target, newBranch != "", c)
	keep = !ok
	return fresh, c, nil
}
