package issues

import (
	"context"
	"io"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

// PullGit is the git storage pull requests consume. storage/gitstore
// implements it with the git command line for SHA-1 and SHA-256
// repositories; every method works in bare repositories, with no checkout
// and no working tree, and returns forge.ErrNotFound for a repository or
// commit that does not exist.
//
// A pull request's head is first copied into its base repository as the
// ref refs/pull/{index}/head (SyncHead), as Forgejo does; every other
// method then works inside the base repository on commit ids.
type PullGit interface {
	// SyncHead points ref (refs/pull/N/head) of repository base at the tip
	// of branch of repository head, copying the objects it needs when head
	// is another repository (a fork), and returns that commit id.
	// forge.ErrNotFound if the branch does not exist; forge.ErrInvalid for
	// a branch name git refuses or a ref outside refs/pull/.
	SyncHead(ctx context.Context, base, head forge.ID, branch, ref string) (string, error)
	// MergeBase returns the best common ancestor of commits a and b;
	// forge.ErrNotFound if they share no history.
	MergeBase(ctx context.Context, repo forge.ID, a, b string) (string, error)
	// Compare lists the commits reachable from head and not from base
	// (git log base..head), newest first, o.Skip and o.Limit applied (Limit 0:
	// all), with Files and line stats when o.Files; and their total number.
	// o.Rev and o.Path are ignored.
	Compare(ctx context.Context, repo forge.ID, base, head string, o repos.LogOptions) ([]*repos.Commit, int, error)
	// DiffFiles lists the files changed between base and head (`git diff
	// -M base head`, renames found) in git's path order, with git's line
	// counts and the statuses of Forgejo's ChangedFile: "added", "deleted",
	// "renamed" (PreviousFilename set), "changed", or "unchanged" for a file
	// none of whose lines changed (a mode change, a binary file).
	DiffFiles(ctx context.Context, repo forge.ID, base, head string) ([]repos.FileChangeStat, error)
	// Diff writes the change from base to head to w, as Forgejo's
	// GetDiffOrPatch: kind "diff" is `git diff -p base head`, "binary" is
	// `git diff -p --binary --histogram base head`, "patch" is `git
	// format-patch --binary --stdout base...head`. forge.ErrInvalid for
	// another kind.
	Diff(ctx context.Context, repo forge.ID, base, head, kind string, w io.Writer) error
	// TestMerge merges head into base in memory (git merge-tree
	// --write-tree) and reports the conflicting paths, none when the merge
	// is clean. It changes nothing.
	TestMerge(ctx context.Context, repo forge.ID, base, head string) (*MergeCheck, error)
	// Merge makes the commits of m.Style from m.Head onto m.Base and moves
	// refs/heads/{m.Branch} from m.Base to the result, only if the branch
	// still points at m.Base (forge.ErrConflict otherwise). It works in a
	// temporary index or object directory and moves the ref last: on any
	// failure no ref has changed. forge.ErrConflict (wrapping *MergeConflict)
	// when the merge or a rebased commit conflicts; forge.ErrInvalid when
	// MergeStyleFastForwardOnly cannot fast-forward, m.Base or m.Head is not
	// a commit id, or the branch name, an identity or the message is one git
	// refuses. It returns the new tip of the branch. Rebased commits are those of `git rebase` (base...head,
	// merges and commits already in base left out, commits that become
	// empty dropped); when there is none, or Base already contains Head,
	// rebase and rebase-merge leave the branch at Base, and when Base is
	// an ancestor of Head the rebase styles keep Head's commits as they are.
	Merge(ctx context.Context, repo forge.ID, m MergeCommand) (string, error)
	// IsAncestor reports whether commit a is reachable from commit b.
	IsAncestor(ctx context.Context, repo forge.ID, a, b string) (bool, error)
	// ContentChanged reports whether moving a pull request's head from
	// oldHead to newHead changed what it proposes to base (Forgejo's
	// checkIfPRContentChanged): with mb the merge base of base and
	// newHead, true when some path of newHead differs both from oldHead
	// and from mb (the paths of the combined diff `git diff --name-only
	// newHead oldHead mb`). A rebase that keeps the same changes, or an
	// amended message, changes nothing.
	ContentChanged(ctx context.Context, repo forge.ID, base, oldHead, newHead string) (bool, error)
}

// MergeStyle is a way of merging a pull request, with Forgejo's wire names.
type MergeStyle string

// Merge styles Forgejo offers (its `Do` field of MergePullRequestOption).
const (
	MergeStyleMerge           MergeStyle = "merge"
	MergeStyleRebase          MergeStyle = "rebase"
	MergeStyleRebaseMerge     MergeStyle = "rebase-merge"
	MergeStyleSquash          MergeStyle = "squash"
	MergeStyleFastForwardOnly MergeStyle = "fast-forward-only"
	// MergeStyleManuallyMerged records a pull request merged outside
	// Hearth; no git operation is made.
	MergeStyleManuallyMerged MergeStyle = "manually-merged"
	// MergeStyleRebaseUpdate (Forgejo's internal "rebase-update-only", not
	// a wire value) updates a pull request's head branch by rebase: the
	// commits of Base...Head are replayed onto Base and Branch (the head
	// branch) moves from Head, where it must still point, to the result.
	MergeStyleRebaseUpdate MergeStyle = "rebase-update-only"
)

// MergeCommand is one merge to make in a repository.
type MergeCommand struct {
	Style MergeStyle
	// Branch is the branch the result lands on (the base branch; the head
	// branch when updating a pull request by merge or rebase).
	Branch string
	// Base is the commit Branch must still point at.
	Base string
	// Head is the commit merged into Branch.
	Head string
	// Source is a repository Merge copies Base or Head from when the
	// repository merged into lacks it: the base repository when updating
	// the head branch of a fork with its base branch (by merge, Head is the
	// base branch's tip; by MergeStyleRebaseUpdate, Base is). 0: none.
	Source forge.ID
	// Message is the merge or squash commit message (subject, blank line,
	// body); rebased commits keep theirs.
	Message   string
	Author    repos.Signature
	Committer repos.Signature
}

// MergeCheck is the result of a test merge.
type MergeCheck struct {
	// Conflicts lists the conflicting paths, nil when the merge is clean.
	Conflicts []string
	// Tree is the id of the merge result's tree when clean: an id to
	// compare (with the base's tree: nothing to merge), not an object to
	// read, as TestMerge stores nothing.
	Tree string
}

// MergeConflict is the error Merge wraps with forge.ErrConflict when the
// merge cannot be made without a conflict.
type MergeConflict struct {
	// Paths are the conflicting paths, when known.
	Paths []string
}

func (e *MergeConflict) Error() string { return "merge conflict" }

// CrossCompareGit is optional on PullConfig.Git: it compares a commit of a
// base repository with one of another repository of its network without
// copying the other's objects into the base (storage/gitstore implements
// it). Without it, Compare copies the head's commit into the base under a
// compare ref and drops the ref afterwards, leaving unreferenced objects
// until git's gc.
type CrossCompareGit interface {
	// CompareAcross lists the commits of baseTip..headTip (o applied) and
	// their number, the merge base (baseTip when none) and the files
	// changed from it to headTip, reading head's objects in place.
	CompareAcross(ctx context.Context, base, head forge.ID, baseTip, headTip string, o repos.LogOptions) (*CrossComparison, error)
}

// CrossComparison is what CrossCompareGit answers.
type CrossComparison struct {
	Commits   []*repos.Commit
	Total     int
	MergeBase string
	Files     []repos.FileChangeStat
}
