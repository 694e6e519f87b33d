package issues

import (
	"errors"
	"path"
	"strings"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

// Reasons of pull-request refusals, below the forge categories, for the
// statuses Forgejo answers that no category names. Test with errors.Is.
var (
	// ErrPullNotFound: no such pull request (or not readable). A
	// forge.ErrNotFound.
	ErrPullNotFound = errors.New("pull request does not exist")
	// ErrMergeNotAllowed: Forgejo answers 405 Method Not Allowed (merged
	// already, not mergeable yet, not allowed to merge, disallowed style,
	// protection checks failed). A forge.ErrPrecondition.
	ErrMergeNotAllowed = errors.New("merge not allowed")
	// ErrPullMergedState: Forgejo answers 412 Precondition Failed
	// (changing the state of a merged pull request). A
	// forge.ErrPrecondition.
	ErrPullMergedState = errors.New("pull request merged")
	// ErrPullReopen: reopening a pull request whose head or base branch is
	// gone. A forge.ErrInvalid (422).
	ErrPullReopen = errors.New("pull request cannot be reopened")
)

func mergeRefused(format string, args ...any) error {
	return forge.Reasonf(forge.ErrPrecondition, ErrMergeNotAllowed, format, args...)
}

// StyleAllowed reports whether repo allows merging with style (Forgejo's
// PullRequestsConfig.IsMergeStyleAllowed).
func StyleAllowed(repo *forge.Repository, style MergeStyle) bool {
	switch style {
	case MergeStyleMerge:
		return repo.AllowMerge
	case MergeStyleRebase:
		return repo.AllowRebase
	case MergeStyleRebaseMerge:
		return repo.AllowRebaseExplicit
	case MergeStyleSquash:
		return repo.AllowSquash
	case MergeStyleFastForwardOnly:
		return repo.AllowFastForwardOnly
	case MergeStyleManuallyMerged:
		return repo.AllowManualMerge
	}
	return false
}

// ApprovalReviews is what repos.CountApprovals reads of reviews: the
// approvals (type approve) with their official, dismissed and stale flags.
// Rejections, comments, pending reviews and requests are left out.
func ApprovalReviews(list []*Review) []repos.Review {
	out := make([]repos.Review, 0, len(list))
	for _, r := range list {
		if r.Type != ReviewApprove {
			continue
		}
		out = append(out, repos.Review{Approved: true, Official: r.Official, Dismissed: r.Dismissed, Stale: r.Stale})
	}
	return out
}

// ApprovalCount is Forgejo's GetGrantedApprovalsCount over reviews, under
// rule (nil: every official undismissed approval counts).
func ApprovalCount(rule *repos.BranchProtection, list []*Review) int64 {
	if rule == nil {
		rule = &repos.BranchProtection{}
	}
	return repos.CountApprovals(rule, ApprovalReviews(list))
}

// StaleOnPush is what Forgejo's AddTestPullRequestTask does to the
// reviews of a pull request whose head moved to head: when the push
// changed its content (contentChanged, PullGit.ContentChanged: Forgejo's
// checkIfPRContentChanged), MarkReviewsAsStale marks every review stale
// and, with rule.DismissStaleApprovals, DismissApprovalReviews dismisses
// the stale approvals; in every case MarkReviewsAsNotStale makes the
// reviews made on head not stale. A push that keeps the content (a rebase
// with the same changes, an amended message) leaves the other reviews as
// they were, so approvals keep counting. With IgnoreStaleApprovals, stale
// approvals stay undismissed (and CountApprovals leaves them out); with
// neither setting, stale approvals still count. Requests and pending
// reviews are left unchanged. It returns the reviews it changed (the
// values in list are updated).
func StaleOnPush(rule *repos.BranchProtection, list []*Review, head string, contentChanged bool) []*Review {
	var changed []*Review
	for _, r := range list {
		if r.Type == ReviewRequest || r.Type == ReviewPending {
			continue
		}
		stale := (r.Stale || contentChanged) && r.CommitID != head
		dismiss := contentChanged && stale && rule != nil && rule.DismissStaleApprovals && r.Type == ReviewApprove && !r.Dismissed
		if r.Stale == stale && !dismiss {
			continue
		}
		r.Stale = stale
		if dismiss {
			r.Dismissed = true
		}
		changed = append(changed, r)
	}
	return changed
}

// RetargetPlan is Forgejo's rule for the pull requests based on a branch
// that is deleted (repos.md §9): children are the open, unmerged pull
// requests whose base is repo/branch. When the branch is deleted as the
// head of merged, a pull request of that same repository (repo), by the
// merge flow (byMerge), with retargeting on, every child is retargeted to
// merged's base branch, except children whose head is that base branch
// of the same repository (they are closed, as their pair would be
// empty). Otherwise every child is closed. Pull requests whose head is
// the deleted branch of repo are closed in every case.
func RetargetPlan(repo forge.ID, branch string, merged *PullRequest, byMerge, retarget bool, open []*PullRequest) (retargeted, closed []*PullRequest) {
	canRetarget := byMerge && retarget && merged != nil && merged.SameRepo() && merged.BaseRepoID == repo &&
		merged.HeadBranch == branch
	for _, p := range open {
		if p.HasMerged || (merged != nil && p.ID == merged.ID) {
			continue
		}
		isChild := p.BaseRepoID == repo && p.BaseBranch == branch
		isHead := p.HeadRepoID == repo && p.HeadBranch == branch
		switch {
		case isChild && canRetarget && !(p.HeadRepoID == repo && p.HeadBranch == merged.BaseBranch):
			retargeted = append(retargeted, p)
		case isChild || isHead:
			closed = append(closed, p)
		}
	}
	return retargeted, closed
}

// ProtectedFiles returns the paths of files that patterns (Forgejo's
// protected_file_patterns: globs separated by ';', matched ignoring case
// with '/' as separator) protect.
func ProtectedFiles(patterns string, files []string) []string {
	var globs []string
	for _, p := range strings.Split(patterns, ";") {
		if p = strings.ToLower(strings.TrimSpace(p)); p != "" {
			globs = append(globs, p)
		}
	}
	var out []string
	for _, f := range files {
		lf := strings.ToLower(f)
		for _, g := range globs {
			if ok, _ := path.Match(g, lf); ok || globMatch(g, lf) {
				out = append(out, f)
				break
			}
		}
	}
	return out
}

// globMatch matches "**" as any number of path segments.
func globMatch(g, f string) bool {
	if !strings.Contains(g, "**") {
		return false
	}
	pre, post, _ := strings.Cut(g, "**")
	if !strings.HasPrefix(f, pre) {
		return false
	}
	rest := f[len(pre):]
	post = strings.TrimPrefix(post, "/")
	if post == "" {
		return true
	}
	for {
		if ok, _ := path.Match(post, rest); ok {
			return true
		}
		i := strings.IndexByte(rest, '/')
		if i < 0 {
			return false
		}
		rest = rest[i+1:]
	}
}

// MergeChecks are the branch-protection facts a merge is checked against.
type MergeChecks struct {
	Rule *repos.BranchProtection
	// Reviews are the pull request's reviews (all types).
	Reviews []*Review
	// StatusState is the combined commit status of the head ("" none).
	StatusState repos.StatusState
	// Statuses are the head's latest statuses by context.
	Statuses []*repos.CommitStatus
	// Behind: the base branch has commits the head lacks.
	Behind bool
	// ProtectedFiles are the changed files the rule protects.
	ProtectedFiles []string
	// Head is the head commit being merged; ReviewedHead the head the
	// reviews' Stale and Dismissed flags were last computed against (the
	// pull request's stored head). When they differ, under
	// dismiss_stale_approvals or ignore_stale_approvals, an approval made
	// on another commit than Head does not count, whatever its flags say.
	// "" Head: the flags are taken as they are.
	Head, ReviewedHead string
}

// ProtectionRefusal is Forgejo's CheckPullBranchProtections: the reason a
// protected base branch refuses the merge ("" none), in Forgejo's order
// and words.
func ProtectionRefusal(c MergeChecks) string {
	r := c.Rule
	if r == nil {
		return ""
	}
	if r.EnableStatusCheck && len(r.StatusCheckContexts) > 0 && !statusChecksPass(r.StatusCheckContexts, c.Statuses) {
		return "Not all required status checks successful"
	}
	if !repos.HasEnoughApprovals(r, ApprovalReviews(staleAgainst(r, c.Reviews, c.Head, c.ReviewedHead))) {
		return "Does not have enough approvals"
	}
	if r.BlockOnRejectedReviews {
		for _, rv := range c.Reviews {
			if rv.Type == ReviewReject && rv.Official && !rv.Dismissed {
				return "There are requested changes"
			}
		}
	}
	if r.BlockOnOfficialReviewRequests {
		for _, rv := range c.Reviews {
			if rv.Type == ReviewRequest && rv.Official {
				return "There are official review requests"
			}
		}
	}
	if r.BlockOnOutdatedBranch && c.Behind {
		return "The head branch is behind the base branch"
	}
	if len(c.ProtectedFiles) > 0 {
		return "Changed protected files"
	}
	return ""
}

// statusChecksPass reports whether every required context (a glob) matches
// at least one status and every matching status succeeded.
func statusChecksPass(required []string, statuses []*repos.CommitStatus) bool {
	for _, req := range required {
		found := false
		for _, st := range statuses {
			if ok, _ := path.Match(req, st.Context); ok || req == st.Context {
				found = true
				if st.State != repos.StatusSuccess && st.State != repos.StatusWarning {
					return false
				}
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// staleAgainst is list as the approval count must read it when merging
// head: when the flags were computed against another head (reviewed),
// under rule's dismiss_stale_approvals or ignore_stale_approvals, the
// approvals made on another commit than head are stale (and dismissed
// under dismiss_stale_approvals). The values of list are not changed.
func staleAgainst(rule *repos.BranchProtection, list []*Review, head, reviewed string) []*Review {
	if head == "" || head == reviewed || !(rule.DismissStaleApprovals || rule.IgnoreStaleApprovals) {
		return list
	}
	out := make([]*Review, 0, len(list))
	for _, r := range list {
		if r.Type == ReviewApprove && r.CommitID != head {
			c := *r
			c.Stale = true
			c.Dismissed = c.Dismissed || rule.DismissStaleApprovals
			r = &c
		}
		out = append(out, r)
	}
	return out
}
