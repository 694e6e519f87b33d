package convert

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/httpapi/wire"
	"github.com/hearthforge/hearth/issues"
)

// The converters of this file are Forgejo's services/convert/pull.go,
// pull_review.go and ToChangedFile: pure functions of domain values, the
// root URL and the user converters. The repositories a page of pull
// requests shows are converted once, before (Pulls.Repos).

// Pulls converts pull requests: the issue converters and the
// repositories of the page, converted, by id.
type Pulls struct {
	Issues
	Repos map[forge.ID]wire.Repository
}

// repo returns the converted repository id, nil if it was not loaded.
func (pc Pulls) repo(id forge.ID) *wire.Repository {
	r, ok := pc.Repos[id]
	if !ok {
		return nil
	}
	return &r
}

// Pull converts a pull request as Forgejo's convert.ToAPIPullRequest: the
// id is the pull request's (not its issue's); url is the issue's API URL,
// html_url, diff_url and patch_url its web URLs; the head's ref is the
// head branch while the head repository is there, refs/pull/N/head (and
// repo_id -1, repo null) once it is gone; merged_by, merged_at and
// merge_commit_sha only when merged.
func (pc Pulls) Pull(v *issues.PullView) wire.PullRequest {
	is, p := pc.Issue(v.IssueView), v.Pull
	out := wire.PullRequest{
		ID: p.ID, URL: is.URL, Index: p.Index, User: is.User, Title: is.Title, Body: is.Body, Labels: is.Labels,
		Milestone: is.Milestone, Assignee: is.Assignee, Assignees: is.Assignees, State: is.State,
		Draft: IsWorkInProgress(is.Title), IsLocked: is.IsLocked, Comments: is.Comments,
		ReviewComments: int64(v.ReviewComments), HTMLURL: is.HTMLURL, DiffURL: is.HTMLURL + ".diff",
		PatchURL: is.HTMLURL + ".patch", HasMerged: p.HasMerged, MergeBase: p.MergeBase, Mergeable: p.Mergeable(),
		Deadline: is.Deadline, Created: is.Created, Updated: is.Updated, Closed: is.Closed, PinOrder: is.PinOrder,
		RequestedReviewers: []wire.User{}, RequestedReviewersTeams: []wire.Team{},
		AllowMaintainerEdit: p.AllowMaintainerEdit, Flow: int64(p.Flow),
		Base: wire.PRBranchInfo{Name: p.BaseBranch, Ref: p.BaseBranch, RepoID: p.BaseRepoID, Sha: v.BaseCommitID,
			Repo: pc.repo(p.BaseRepoID)},
		Head: wire.PRBranchInfo{Name: p.HeadBranch, Ref: p.HeadRef(), RepoID: -1, Sha: p.HeadCommitID},
	}
	if v.HeadRepo != nil {
		out.Head.RepoID = v.HeadRepo.ID
		out.Head.Repo = pc.repo(v.HeadRepo.ID)
		out.Head.Ref = p.HeadBranch
		out.ChangedFiles, out.Additions, out.Deletions = int64(p.ChangedFiles), int64(p.Additions), int64(p.Deletions)
	}
	for _, u := range v.RequestedReviewers {
		out.RequestedReviewers = append(out.RequestedReviewers, pc.AsAnon(u))
	}
	for _, t := range v.RequestedTeams {
		out.RequestedReviewersTeams = append(out.RequestedReviewersTeams, Team(pc.Root, t, nil))
	}
	if p.HasMerged {
		out.Merged = ptr(Time(p.Merged))
		out.MergedCommitID = ptr(p.MergedCommitID)
		out.MergedBy = ptr(pc.AsAnon(OrGhost(v.Merger)))
	}
	return out
}

// wipPrefixes are Forgejo's default [repository.pull-request]
// WORK_IN_PROGRESS_PREFIXES.
var wipPrefixes = []string{"WIP:", "[WIP]"}

// IsWorkInProgress is Forgejo's PullRequest.IsWorkInProgress: the title
// starts with a work-in-progress prefix, ignoring case.
func IsWorkInProgress(title string) bool {
	t := strings.ToUpper(title)
	for _, p := range wipPrefixes {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return false
}

// PathEscapeSegments escapes each segment of a slash-separated path
// (Forgejo's util.PathEscapeSegments).
func PathEscapeSegments(p string) string {
	parts := strings.Split(p, "/")
	for i, s := range parts {
		parts[i] = url.PathEscape(s)
	}
	return strings.Join(parts, "/")
}

// ChangedFile converts a changed file as Forgejo's convert.ToChangedFile:
// the URLs point at commit in repository r (the head repository).
func ChangedFile(root string, r *forge.Repository, commit string, f issues.PullFile) wire.ChangedFile {
	name := PathEscapeSegments(f.Filename)
	out := wire.ChangedFile{Filename: f.Filename, Status: f.Status, Additions: int64(f.Additions),
		Deletions: int64(f.Deletions), Changes: int64(f.Additions + f.Deletions)}
	if r != nil {
		web := RepoWebURL(root, r)
		out.HTMLURL = ptr(web + "/src/commit/" + commit + "/" + name)
		out.ContentsURL = ptr(RepoAPIURL(root, r) + "/contents/" + name + "?ref=" + commit)
		out.RawURL = ptr(web + "/raw/commit/" + commit + "/" + name)
	}
	if f.PreviousFilename != "" {
		out.PreviousFilename = ptr(f.PreviousFilename)
	}
	return out
}

// ReviewHTMLURL is the web URL of a review (Forgejo's Review.HTMLURL).
func ReviewHTMLURL(pullURL string, id forge.ID) string {
	return pullURL + "#pullrequestreview-" + strconv.FormatInt(id, 10)
}

// Review converts a review as Forgejo's convert.ToPullReview: the reviewer
// as the caller may see it, submitted_at its creation.
func (ic Issues) Review(v *issues.ReviewView) wire.PullReview {
	rv := v.Review
	out := wire.PullReview{ID: rv.ID, State: wire.ReviewStateType(rv.Type.State()), Body: rv.Content, CommitID: rv.CommitID,
		Stale: rv.Stale, Official: rv.Official, Dismissed: rv.Dismissed, CodeCommentsCount: int64(v.CodeComments),
		Submitted: Time(rv.Created), Updated: Time(rv.Updated)}
	if v.Reviewer != nil || rv.ReviewerID != 0 || v.Team == nil {
		out.User = ptr(ic.AsDoer(OrGhost(v.Reviewer)))
	}
	if v.Issue != nil && v.Repo != nil {
		out.HTMLPullURL = IssueWebURL(ic.Root, v.Repo, v.Issue.Index, true)
		out.HTMLURL = ReviewHTMLURL(out.HTMLPullURL, rv.ID)
	}
	if v.Team != nil {
		out.Team = ptr(Team(ic.Root, v.Team, nil))
	}
	return out
}

// Reviews converts a list of reviews; never null.
func (ic Issues) Reviews(list []*issues.ReviewView) []wire.PullReview {
	return All(list, ic.Review)
}

// patchHunk is Forgejo's patch2diff: the last hunk of a code comment's
// patch, "" when there is none.
func patchHunk(patch string) string {
	split := strings.Split(patch, "\n@@")
	if len(split) == 2 {
		return "@@" + split[1]
	}
	return ""
}

// ReviewComment converts a code comment as Forgejo's
// convert.ToPullReviewComment: a negative line is a line of the old file
// (original_position), a positive one of the new (position); the web URL
// of a comment of a pending review points at the files tab.
func (ic Issues) ReviewComment(v *issues.ReviewCommentView) wire.PullReviewComment {
	cm := v.Comment
	out := wire.PullReviewComment{ID: cm.ID, Body: cm.Body, User: ic.AsDoer(OrGhost(v.Poster)),
		Created: Time(cm.Created), Updated: Time(cm.Updated), Path: cm.TreePath, CommitID: cm.CommitSHA,
		OrigCommitID: v.OrigCommitID, DiffHunk: patchHunk(cm.Patch)}
	if v.Review != nil {
		out.ReviewID = v.Review.ID
	}
	out.Resolver = Optional(v.Resolver, ic.AsDoer)
	if cm.Line < 0 {
		out.OldLineNum = uint64(-cm.Line)
	} else {
		out.LineNum = uint64(cm.Line)
	}
	if v.Issue != nil && v.Repo != nil {
		web := IssueWebURL(ic.Root, v.Repo, v.Issue.Index, true)
		out.HTMLPullURL = web
		tag := "issuecomment-" + strconv.FormatInt(cm.ID, 10)
		if v.Review == nil || v.Review.Type <= issues.ReviewPending {
			out.HTMLURL = web + "/files#" + tag
		} else {
			out.HTMLURL = web + "#" + tag
		}
	}
	return out
}

// ReviewComments converts a list of code comments; never null.
func (ic Issues) ReviewComments(list []*issues.ReviewCommentView) []wire.PullReviewComment {
	return All(list, ic.ReviewComment)
}
