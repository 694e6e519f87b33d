package issues

import (
	"context"
	"io"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

var errPullUnimplemented = forge.Errorf(forge.ErrNotFound, "pull requests: not implemented")

// CreatePull opens a pull request from opt.Head into opt.Base of
// owner/repo (write:issue; read on the pulls unit of the base and read on
// the code of the head repository, as Forgejo's CreatePullRequest). The
// poster needs no write access; labels, milestone and assignees are set
// only for writers (as issue creation). Errors: forge.ErrInvalid
// `[Title]: Required`; forge.ErrInvalid (422) when head and base are the
// same branch of the same repository (`Invalid PullRequest: There are no
// changes between the head and the base`); forge.ErrNotFound for an
// unknown base or head branch or head repository; forge.ErrConflict (409)
// `pull request already exists for these targets [id: N, issue_id: N,
// head_repo_id: N, base_repo_id: N, head_branch: X, base_branch: Y]` when
// an open pull request exists for the pair.
func (s *Service) CreatePull(ctx context.Context, actor forge.Actor, owner, repo string, opt CreatePullOption) (*PullView, error) {
	return nil, errPullUnimplemented
}

// ListPulls returns one page of owner/repo's pull requests matching opt,
// and their number (read:issue, read on the pulls unit).
func (s *Service) ListPulls(ctx context.Context, actor forge.Actor, owner, repo string, opt ListPullsOption) ([]*PullView, int64, error) {
	return nil, 0, errPullUnimplemented
}

// PinnedPulls returns owner/repo's pinned pull requests in pin order.
func (s *Service) PinnedPulls(ctx context.Context, actor forge.Actor, owner, repo string) ([]*PullView, error) {
	return nil, errPullUnimplemented
}

// GetPull returns pull request index. ErrPullNotFound (forge.ErrNotFound)
// when there is none, when index is an issue, or when the actor may not
// read pulls.
func (s *Service) GetPull(ctx context.Context, actor forge.Actor, owner, repo string, index int64) (*PullView, error) {
	return nil, errPullUnimplemented
}

// GetPullByBaseHead returns the newest pull request from head ("branch" or
// "owner:branch") into base. forge.ErrNotFound if none.
func (s *Service) GetPullByBaseHead(ctx context.Context, actor forge.Actor, owner, repo, base, head string) (*PullView, error) {
	return nil, errPullUnimplemented
}

// EditPull edits pull request index: the poster and writers may change
// title, body and state; writers the rest (assignees, labels, milestone,
// deadline, base). Changing the base to the head branch, an unknown branch
// (forge.ErrNotFound), or where a pull request for the new pair exists
// (forge.ErrConflict), or of a merged pull request, is refused. Reopening
// is refused (forge.ErrInvalid) when the base or head branch no longer
// exists or an open pull request exists for the pair.
func (s *Service) EditPull(ctx context.Context, actor forge.Actor, owner, repo string, index int64, opt EditPullOption) (*PullView, error) {
	return nil, errPullUnimplemented
}

// PullDiff writes the diff (kind "diff") or the patch (kind "patch") of
// pull request index to w. forge.ErrNotFound for another kind.
func (s *Service) PullDiff(ctx context.Context, actor forge.Actor, owner, repo string, index int64, kind string, binary bool, w io.Writer) error {
	return errPullUnimplemented
}

// PullFiles returns one page of the files pull request index changes.
func (s *Service) PullFiles(ctx context.Context, actor forge.Actor, owner, repo string, index int64, opt PullFilesOption) (*PullFilesView, error) {
	return nil, errPullUnimplemented
}

// PullCommits returns one page of the commits of pull request index
// (newest first; limit default 30, max 50) with their stats and, with
// opt.Files, their files (repos.md §8).
func (s *Service) PullCommits(ctx context.Context, actor forge.Actor, owner, repo string, index int64, opt PullCommitsOption) (*PullCommitsView, error) {
	return nil, errPullUnimplemented
}

// MergePull merges pull request index with opt.Do (write:repository;
// write on the base repository's code, or a user on the base branch's
// merge whitelist). Errors as Forgejo answers them: forge.ErrNotFound
// when not a pull request or not readable; ErrPullMergeNotAllowed
// (forge.ErrMethodNotAllowed, 405) for a closed, conflicting, still
// checking or already merged pull request, a disallowed style (`Invalid
// merge style`... Forgejo's messages), unmet approvals, status checks or
// protected files (unless opt.ForceMerge by an admin);
// forge.ErrConflict (409) when opt.HeadCommitID is not the head, or the
// merge conflicts. With opt.MergeWhenChecksSucceed and pending checks it
// schedules the merge instead. With delete_branch_after_merge it deletes
// the head branch and retargets or closes the pulls based on it
// (RetargetRule).
func (s *Service) MergePull(ctx context.Context, actor forge.Actor, owner, repo string, index int64, opt MergePullOption) error {
	return errPullUnimplemented
}

// IsPullMerged reports whether pull request index is merged
// (forge.ErrNotFound if it is not a pull request).
func (s *Service) IsPullMerged(ctx context.Context, actor forge.Actor, owner, repo string, index int64) (bool, error) {
	return false, errPullUnimplemented
}

// CancelScheduledMerge cancels the merge scheduled for pull request index
// (its scheduler or a writer). forge.ErrNotFound if none is scheduled.
func (s *Service) CancelScheduledMerge(ctx context.Context, actor forge.Actor, owner, repo string, index int64) error {
	return errPullUnimplemented
}

// UpdatePull brings the head of pull request index up to date with its
// base by a merge or a rebase (who may push to the head branch; the
// repository's allow_rebase_update for rebase). forge.ErrConflict on a
// conflict; forge.ErrInvalid... when the head is not behind.
func (s *Service) UpdatePull(ctx context.Context, actor forge.Actor, owner, repo string, index int64, style UpdateStyle) error {
	return errPullUnimplemented
}

// Compare returns the commits and files between basehead ("base...head"
// or "base..head"; head may be "owner:branch").
func (s *Service) Compare(ctx context.Context, actor forge.Actor, owner, repo, basehead string) (*CompareView, error) {
	return nil, errPullUnimplemented
}

// CommitPull returns the pull request merged as commit sha.
// forge.ErrNotFound if none.
func (s *Service) CommitPull(ctx context.Context, actor forge.Actor, owner, repo, sha string) (*PullView, error) {
	return nil, errPullUnimplemented
}

// ReviewerCandidates lists the users who may be asked to review pull
// requests of owner/repo (GET /reviewers).
func (s *Service) ReviewerCandidates(ctx context.Context, actor forge.Actor, owner, repo string) ([]*forge.User, error) {
	return nil, errPullUnimplemented
}

// AssigneeCandidates lists the users who may be assigned to issues and
// pull requests of owner/repo (GET /assignees).
func (s *Service) AssigneeCandidates(ctx context.Context, actor forge.Actor, owner, repo string) ([]*forge.User, error) {
	return nil, errPullUnimplemented
}

// AfterPush is repos.PushListener: after a push to repo it synchronises
// the open pull requests whose head branch moved (refs/pull/N/head, merge
// base, mergeability, a CommentPullPush, stale and dismissed approvals),
// recomputes those based on a moved branch, and closes the open pull
// requests whose head or base branch the push deleted. It logs its errors.
func (s *Service) AfterPush(ctx context.Context, actor forge.Actor, repo *forge.Repository, updates []repos.RefUpdate) {
}
