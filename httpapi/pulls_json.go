package httpapi

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/httpapi/wire"
	"github.com/hearthforge/hearth/issues"
)

// The converters of this file are Forgejo's services/convert/pull.go,
// pull_review.go and ToChangedFile: pure functions of domain values, the
// root URL and the user converters. The repositories a page of pull
// requests shows are converted once, before (pullsJSON).

// pullConv converts pull requests: the issue converters and the
// repositories of the page, converted, by id.
type pullConv struct {
	issueConv
	repos map[forge.ID]wire.Repository
}

// pullsJSON converts a page of pull requests: one repos.ViewsOf and one
// toRepos for the base and head repositories of the whole page, then pure
// conversions.
func (c *call) pullsJSON(list []*issues.PullView) []wire.PullRequest {
	seen := map[forge.ID]bool{}
	var held []*forge.Repository
	for _, v := range list {
		for _, r := range []*forge.Repository{v.Repo, v.HeadRepo} {
			if r != nil && !seen[r.ID] {
				seen[r.ID] = true
				held = append(held, r)
			}
		}
	}
	pc := pullConv{issueConv: c.issueConv(), repos: map[forge.ID]wire.Repository{}}
	if len(held) > 0 {
		views, err := c.a.cfg.Repos.ViewsOf(c.r.Context(), c.actor, held)
		var rs []wire.Repository
		if err == nil {
			rs, err = c.toRepos(views)
		}
		if err != nil {
			c.a.log.WarnContext(c.r.Context(), "api: load pull request repositories", "err", err)
		}
		for _, r := range rs {
			pc.repos[r.ID] = r
		}
	}
	out := make([]wire.PullRequest, len(list))
	for i, v := range list {
		out[i] = pc.pull(v)
	}
	return out
}

// pullJSON converts one pull request.
func (c *call) pullJSON(v *issues.PullView) wire.PullRequest {
	return c.pullsJSON([]*issues.PullView{v})[0]
}

// repo returns the converted repository id, nil if it was not loaded.
func (pc pullConv) repo(id forge.ID) *wire.Repository {
	r, ok := pc.repos[id]
	if !ok {
		return nil
	}
	return &r
}

// pull converts a pull request as Forgejo's convert.ToAPIPullRequest: the
// id is the pull request's (not its issue's); url is the issue's API URL,
// html_url, diff_url and patch_url its web URLs; the head's ref is the
// head branch while the head repository is there, refs/pull/N/head (and
// repo_id -1, repo null) once it is gone; merged_by, merged_at and
// merge_commit_sha only when merged.
func (pc pullConv) pull(v *issues.PullView) wire.PullRequest {
	is, p := pc.issue(v.IssueView), v.Pull
	out := wire.PullRequest{
		ID: p.ID, URL: is.URL, Index: p.Index, User: is.User, Title: is.Title, Body: is.Body, Labels: is.Labels,
		Milestone: is.Milestone, Assignee: is.Assignee, Assignees: is.Assignees, State: is.State,
		Draft: isWorkInProgress(is.Title), IsLocked: is.IsLocked, Comments: is.Comments,
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
		out.RequestedReviewers = append(out.RequestedReviewers, pc.asAnon(u))
	}
	for _, t := range v.RequestedTeams {
		out.RequestedReviewersTeams = append(out.RequestedReviewersTeams, teamFrom(pc.root, t, nil))
	}
	if p.HasMerged {
		out.Merged = ptrTo(apiTime(p.Merged))
		out.MergedCommitID = ptrTo(p.MergedCommitID)
		if v.Merger != nil {
			out.MergedBy = ptrTo(pc.asAnon(v.Merger))
		} else {
			out.MergedBy = ptrTo(pc.asAnon(userOrGhost(nil)))
		}
	}
	return out
}

// wipPrefixes are Forgejo's default [repository.pull-request]
// WORK_IN_PROGRESS_PREFIXES.
var wipPrefixes = []string{"WIP:", "[WIP]"}

// isWorkInProgress is Forgejo's PullRequest.IsWorkInProgress: the title
// starts with a work-in-progress prefix, ignoring case.
func isWorkInProgress(title string) bool {
	t := strings.ToUpper(title)
	for _, p := range wipPrefixes {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return false
}

// pathEscapeSegments escapes each segment of a slash-separated path
// (Forgejo's util.PathEscapeSegments).
func pathEscapeSegments(p string) string {
	parts := strings.Split(p, "/")
	for i, s := range parts {
		parts[i] = url.PathEscape(s)
	}
	return strings.Join(parts, "/")
}

// changedFile converts a changed file as Forgejo's convert.ToChangedFile:
// the URLs point at commit in repository r (the head repository).
func changedFile(root string, r *forge.Repository, commit string, f issues.PullFile) wire.ChangedFile {
	name := pathEscapeSegments(f.Filename)
	out := wire.ChangedFile{Filename: f.Filename, Status: f.Status, Additions: int64(f.Additions),
		Deletions: int64(f.Deletions), Changes: int64(f.Additions + f.Deletions)}
	if r != nil {
		web := repoWebURL(root, r)
		out.HTMLURL = ptrTo(web + "/src/commit/" + commit + "/" + name)
		out.ContentsURL = ptrTo(repoAPIURL(root, r) + "/contents/" + name + "?ref=" + commit)
		out.RawURL = ptrTo(web + "/raw/commit/" + commit + "/" + name)
	}
	if f.PreviousFilename != "" {
		out.PreviousFilename = ptrTo(f.PreviousFilename)
	}
	return out
}

// commitsJSON converts commits as Forgejo's ToCommit with the stats, the
// files when files, the verification (unsigned) when verification, and the
// accounts of the author and committer e-mails (users, by lower-cased
// e-mail) when known.
func commitsJSON(root string, r *forge.Repository, list []*repos.Commit, users map[string]*forge.User, files, verification bool, user func(*forge.User) wire.User) []wire.Commit {
	api, html := repoAPIURL(root, r), repoWebURL(root, r)
	out := make([]wire.Commit, len(list))
	for i, cm := range list {
		out[i] = toCommit(api, html, cm, files, true)
		if out[i].Stats == nil {
			out[i].Stats = &wire.CommitStats{}
		}
		if !verification {
			out[i].Commit.Verification = nil
		}
		if u := users[strings.ToLower(cm.Author.Email)]; u != nil {
			out[i].Author = ptrTo(user(u))
		}
		if u := users[strings.ToLower(cm.Committer.Email)]; u != nil {
			out[i].Committer = ptrTo(user(u))
		}
	}
	return out
}

// reviewHTMLURL is the web URL of a review (Forgejo's Review.HTMLURL).
func reviewHTMLURL(pullURL string, id forge.ID) string {
	return pullURL + "#pullrequestreview-" + strconv.FormatInt(id, 10)
}

// review converts a review as Forgejo's convert.ToPullReview: the reviewer
// as the caller may see it, submitted_at its creation.
func (ic issueConv) review(v *issues.ReviewView) wire.PullReview {
	rv := v.Review
	out := wire.PullReview{ID: rv.ID, State: wire.ReviewStateType(rv.Type.State()), Body: rv.Content, CommitID: rv.CommitID,
		Stale: rv.Stale, Official: rv.Official, Dismissed: rv.Dismissed, CodeCommentsCount: int64(v.CodeComments),
		Submitted: apiTime(rv.Created), Updated: apiTime(rv.Updated)}
	if v.Reviewer != nil || rv.ReviewerID != 0 || v.Team == nil {
		out.User = ptrTo(ic.asDoer(userOrGhost(v.Reviewer)))
	}
	if v.Issue != nil && v.Repo != nil {
		out.HTMLPullURL = issueWebURL(ic.root, v.Repo, v.Issue.Index, true)
		out.HTMLURL = reviewHTMLURL(out.HTMLPullURL, rv.ID)
	}
	if v.Team != nil {
		out.Team = ptrTo(teamFrom(ic.root, v.Team, nil))
	}
	return out
}

// reviews converts a list of reviews; never null.
func (ic issueConv) reviews(list []*issues.ReviewView) []wire.PullReview {
	out := make([]wire.PullReview, len(list))
	for i, v := range list {
		out[i] = ic.review(v)
	}
	return out
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

// reviewComment converts a code comment as Forgejo's
// convert.ToPullReviewComment: a negative line is a line of the old file
// (original_position), a positive one of the new (position); the web URL
// of a comment of a pending review points at the files tab.
func (ic issueConv) reviewComment(v *issues.ReviewCommentView) wire.PullReviewComment {
	cm := v.Comment
	out := wire.PullReviewComment{ID: cm.ID, Body: cm.Body, User: ic.asDoer(userOrGhost(v.Poster)),
		Created: apiTime(cm.Created), Updated: apiTime(cm.Updated), Path: cm.TreePath, CommitID: cm.CommitSHA,
		OrigCommitID: v.OrigCommitID, DiffHunk: patchHunk(cm.Patch)}
	if v.Review != nil {
		out.ReviewID = v.Review.ID
	}
	if v.Resolver != nil {
		out.Resolver = ptrTo(ic.asDoer(v.Resolver))
	}
	if cm.Line < 0 {
		out.OldLineNum = uint64(-cm.Line)
	} else {
		out.LineNum = uint64(cm.Line)
	}
	if v.Issue != nil && v.Repo != nil {
		web := issueWebURL(ic.root, v.Repo, v.Issue.Index, true)
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

// reviewComments converts a list of code comments; never null.
func (ic issueConv) reviewComments(list []*issues.ReviewCommentView) []wire.PullReviewComment {
	out := make([]wire.PullReviewComment, len(list))
	for i, v := range list {
		out[i] = ic.reviewComment(v)
	}
	return out
}
