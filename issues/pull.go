package issues

import (
	"context"
	"strconv"
	"time"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

// PullStatus is the mergeability of a pull request, with Forgejo's values
// (models/issues/pull.go PullRequestStatus).
type PullStatus int

// Pull request statuses.
const (
	PullConflict          PullStatus = 0
	PullChecking          PullStatus = 1
	PullMergeable         PullStatus = 2
	PullManuallyMerged    PullStatus = 3
	PullError             PullStatus = 4
	PullEmpty             PullStatus = 5
	PullAncestorsChecking PullStatus = 6
)

// PullRequest is the pull-request row of a pull request's issue (Forgejo's
// pull_request table): the head and base it merges, its mergeability and
// how it was merged. Its issue has IsPull.
type PullRequest struct {
	ID      forge.ID
	IssueID forge.ID
	// Index is the issue's index (kept for lookups by index).
	Index int64
	// BaseRepoID is the repository of the issue; HeadRepoID the repository
	// of the head branch (the same one, or a fork; 0 once that fork is
	// deleted).
	BaseRepoID, HeadRepoID forge.ID
	BaseBranch, HeadBranch string
	// HeadCommitID is the commit refs/pull/{Index}/head pointed at when the
	// pull request was last synchronised.
	HeadCommitID string
	// MergeBase is the best common ancestor of the base branch and the
	// head, as last computed (kept after merge).
	MergeBase string
	Status    PullStatus
	// ConflictedFiles are the paths of a PullConflict.
	ConflictedFiles []string
	// ChangedProtectedFiles are the changed paths the base branch's rule
	// protects (protected_file_patterns).
	ChangedProtectedFiles []string
	// CommitsAhead and CommitsBehind count the head's commits not in the
	// base branch and the base branch's commits not in the head.
	CommitsAhead, CommitsBehind int
	// Additions, Deletions and ChangedFiles summarise the diff between
	// MergeBase and HeadCommitID (the JSON's additions, deletions,
	// changed_files).
	Additions, Deletions, ChangedFiles int
	AllowMaintainerEdit                bool
	HasMerged                          bool
	// Merged is when the pull request was merged, the zero time if not.
	Merged         time.Time
	MergedCommitID string
	MergerID       forge.ID
	// Flow is 0 (branches, "GitHub flow") or 1 (AGit); Hearth makes 0.
	Flow int
}

// Mergeable is the JSON's mergeable: the status allows a merge (Forgejo's
// pr.Mergeable: not checking, conflicting, erroneous or empty... exactly
// PullMergeable; a merged or manually merged pull request is not
// mergeable).
func (p *PullRequest) Mergeable() bool { return p.Status == PullMergeable && !p.HasMerged }

// SameRepo reports whether head and base are the same repository.
func (p *PullRequest) SameRepo() bool { return p.HeadRepoID == p.BaseRepoID }

// HeadRef is the ref of the base repository that holds the head:
// refs/pull/{Index}/head.
func (p *PullRequest) HeadRef() string { return pullHeadRef(p.Index) }

// pullHeadRef is the ref of the base repository that holds pull request
// index's head.
func pullHeadRef(index int64) string { return "refs/pull/" + strconv.FormatInt(index, 10) + "/head" }

// PullView is a pull request with what its JSON shows, as one actor sees
// it.
type PullView struct {
	// IssueView is the pull request's issue (its Repo is the base
	// repository, its Permission the actor's on it).
	*IssueView
	Pull *PullRequest
	// HeadRepo is the head repository, nil once deleted or when the actor
	// may not see it.
	HeadRepo *forge.Repository
	// BaseCommitID is the tip of the base branch ("" if it is gone; the
	// merge base then).
	BaseCommitID string
	// Merger is who merged it, nil if not merged.
	Merger *forge.User
	// RequestedReviewers and RequestedTeams are the open review requests,
	// never nil.
	RequestedReviewers []*forge.User
	RequestedTeams     []*forge.Team
	// ReviewComments counts the code comments (review_comments).
	ReviewComments int
}

// AutoMerge is a merge scheduled to happen when the checks succeed
// (Forgejo's pull_auto_merge).
type AutoMerge struct {
	ID                     forge.ID
	PullID                 forge.ID
	DoerID                 forge.ID
	Style                  MergeStyle
	Message                string
	DeleteBranchAfterMerge bool
	Created                time.Time
}

// PullRepos is what pull requests read of repositories besides
// Config.Repos.RepoAccess. *repos.Service implements it as it is (the
// methods have its signatures), so the wiring passes the repository
// service itself.
type PullRepos interface {
	// Resolve and ResolveByID resolve a repository and the actor's access
	// to it once, for a workflow's inner steps (repos.Resolved); not
	// found for repositories the actor may not see.
	Resolve(ctx context.Context, actor forge.Actor, owner, name string) (*repos.Resolved, error)
	ResolveByID(ctx context.Context, actor forge.Actor, id forge.ID) (*repos.Resolved, error)
	// RepoAccessByID finds a repository by id and the actor's permission
	// on it; not found for repositories the actor may not see.
	RepoAccessByID(ctx context.Context, actor forge.Actor, id forge.ID) (*forge.Repository, forge.Permission, error)
	// GetBranch returns a branch with its head commit and its protection
	// rule; forge.ErrNotFound if missing.
	GetBranch(ctx context.Context, actor forge.Actor, owner, name, branch string) (*repos.View, *repos.Branch, error)
	// ListCollaborators lists a repository's collaborators.
	ListCollaborators(ctx context.Context, actor forge.Actor, owner, name string, o forge.ListOptions) ([]repos.Collaborator, int64, error)
}

// PullForks is optional on Config.Pulls.Repos: it finds the fork of a
// repository that an owner holds, whatever its name, for heads written
// "owner:branch" (*repos.Service implements it). Without it, a head of
// another owner is looked up as owner/{base repository's name} only.
type PullForks interface {
	ForkOf(ctx context.Context, actor forge.Actor, baseID forge.ID, owner string) (*forge.Repository, forge.Permission, error)
}

// PullConfig configures pull requests (Config.Pulls). Without Git or Repos
// every pull-request method answers forge.ErrNotFound (the unit is off).
type PullConfig struct {
	Git   PullGit
	Repos PullRepos
	// RefMoves records the ref moves of an update-branch a maintainer of
	// the base makes in a fork the maintainer may not write (the pull
	// request allows maintainer edits): the host's repos.Ports. Without it
	// such an update is refused (forge.ErrForbidden), since its push
	// could not be recorded.
	RefMoves RefMoveRecorder
	// NoRetargetChildrenOnMerge turns off Forgejo's [repository.pull-request]
	// RETARGET_CHILDREN_ON_MERGE (on by default): with it, deleting the head
	// branch of a merged pull request closes the pull requests based on it
	// instead of retargeting them.
	NoRetargetChildrenOnMerge bool
	// CheckWorkers is how many pull requests the checker (Service.Run)
	// checks at once; 0 is DefaultCheckWorkers.
	CheckWorkers int
}

// RefMoveRecorder records ref moves this package authorised by a rule of
// its own (repos.Ports.RecordRefMoves).
type RefMoveRecorder interface {
	RecordRefMoves(ctx context.Context, actor forge.Actor, repo forge.ID, updates []repos.RefUpdate) error
}

// CreatePullOption opens a pull request (Forgejo's
// CreatePullRequestOption).
type CreatePullOption struct {
	// Head is "branch" of the base repository, or "owner:branch" of a fork.
	Head string
	// Base is a branch of the base repository.
	Base  string
	Title string
	Body  string
	// Assignee and Assignees are user names (writers only).
	Assignee  string
	Assignees []string
	Milestone forge.ID
	Labels    []forge.ID
	Deadline  *time.Time
}

// EditPullOption edits a pull request (Forgejo's EditPullRequestOption);
// nil fields leave values unchanged.
type EditPullOption struct {
	Title *string
	Body  *string
	// Base changes the target branch (writers only).
	Base *string
	// Assignee and Assignees replace the assignees (writers only).
	Assignee  *string
	Assignees []string
	Milestone *forge.ID
	// Labels replaces the labels when non-nil (writers only).
	Labels              []forge.ID
	State               *State
	Deadline            *time.Time
	UnsetDeadline       *bool
	AllowMaintainerEdit *bool
}

// PullSort orders pull-request lists (Forgejo's sort parameter).
type PullSort string

// Pull request orders; "" is Forgejo's default (newest first, by id desc).
const (
	PullSortOldest       PullSort = "oldest"
	PullSortRecentUpdate PullSort = "recentupdate"
	PullSortRecentClose  PullSort = "recentclose"
	PullSortLeastUpdate  PullSort = "leastupdate"
	PullSortMostComment  PullSort = "mostcomment"
	PullSortLeastComment PullSort = "leastcomment"
	PullSortPriority     PullSort = "priority"
)

// ListPullsOption filters GET /repos/{owner}/{repo}/pulls.
type ListPullsOption struct {
	// State is StateOpen (default), StateClosed or StateAll.
	State State
	Sort  PullSort
	// Milestone is a milestone id, 0 any.
	Milestone forge.ID
	// Labels: pulls with any of these label ids.
	Labels []forge.ID
	// Poster is a user name, "" any.
	Poster string
	forge.ListOptions
}

// MergePullOption merges a pull request (Forgejo's MergePullRequestForm).
type MergePullOption struct {
	// Do is the merge style; "" is the repository's default merge style.
	Do MergeStyle
	// MergeCommitID is the commit of a manually merged pull request.
	MergeCommitID     string
	MergeTitleField   string
	MergeMessageField string
	// DeleteBranchAfterMerge: nil uses the repository's default.
	DeleteBranchAfterMerge *bool
	// ForceMerge lets admins merge past unmet protection checks.
	ForceMerge bool
	// HeadCommitID, when set, must be the pull request's head
	// (forge.ErrConflict otherwise).
	HeadCommitID           string
	MergeWhenChecksSucceed bool
}

// UpdateStyle is how a pull request's head is brought up to date with its
// base (POST /pulls/{index}/update?style=).
type UpdateStyle string

// Update styles; "" is UpdateStyleMerge.
const (
	UpdateStyleMerge  UpdateStyle = "merge"
	UpdateStyleRebase UpdateStyle = "rebase"
)

// PullCommitsOption selects GET /pulls/{index}/commits: Files adds the
// changed files (the stats are always there); Verification the signature
// verification (Hearth verifies none: verified false).
type PullCommitsOption struct {
	Files, Verification bool
	forge.ListOptions
}

// PullFilesOption selects GET /pulls/{index}/files.
type PullFilesOption struct {
	// SkipTo starts the list after this file name.
	SkipTo string
	// Whitespace is ignore-all, ignore-change, ignore-eol or show-all.
	Whitespace string
	forge.ListOptions
}

// PullFile is one changed file of a pull request (ChangedFile): status
// "added", "deleted", "changed", "renamed" (…/files), or as repos
// FileChangeStat names them (/compare).
type PullFile struct {
	Filename         string
	PreviousFilename string
	Status           string
	Additions        int
	Deletions        int
}

// PullFilesView is one page of a pull request's files.
type PullFilesView struct {
	Repo *forge.Repository
	// HeadCommitID is the commit the file URLs point at.
	HeadCommitID string
	Files        []PullFile
	Total        int64
}

// PullCommitsView is one page of a pull request's commits, newest first.
type PullCommitsView struct {
	Repo    *forge.Repository
	Commits []*repos.Commit
	Total   int64
	// Users are the accounts of the commits' author and committer e-mails,
	// by lower-cased e-mail.
	Users map[string]*forge.User
}

// CompareView is GET /compare/{basehead} (Forgejo's Compare).
type CompareView struct {
	Repo         *forge.Repository
	TotalCommits int
	Commits      []*repos.Commit
	Files        []PullFile
	Users        map[string]*forge.User
}
