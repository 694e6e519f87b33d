package site

import (
	"context"
	"log/slog"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/hooks"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/issues"
)

// hookPushes tells the webhook service of pushes (a repos.PushListener),
// as the outbox consumer of ref moves.
type hookPushes struct {
	svc *hooks.Service
	log *slog.Logger
}

var _ repos.PushListener = (*hookPushes)(nil)

// AfterPush queues the push's webhook events; it never waits for a
// receiver.
func (p *hookPushes) AfterPush(ctx context.Context, actor forge.Actor, r *forge.Repository, ups []repos.RefUpdate) {
	conv := make([]hooks.RefUpdate, len(ups))
	for i, u := range ups {
		conv[i] = hooks.RefUpdate{Ref: u.Ref, OldID: u.OldID, NewID: u.NewID}
	}
	if err := p.svc.Pushed(ctx, actor, r, conv); err != nil {
		p.log.Warn("webhook events not queued", "repo", r.FullName(), "err", err)
	}
}

// hookIssues tells the webhook service of issue events, as the outbox
// handler of issue events.
type hookIssues struct {
	svc *hooks.Service
	log *slog.Logger
	// pulls reads the pull requests of events (nil sends what the events
	// carry).
	pulls pullReader
	// teams lists the members of teams asked for reviews (nil: team
	// requests are not told).
	teams teamMembers
	// repos reads the head repositories the event's actor may not see
	// (nil: head.repo is then null).
	repos repoReader
}

// IssueEvent queues the issues or issue_comment event; it never waits for
// a receiver.
func (h *hookIssues) IssueEvent(ctx context.Context, e issues.Event) {
	if e.Issue == nil {
		return
	}
	i := e.Issue
	is := hooks.IssueInfo{ID: i.ID, Number: i.Index, Title: i.Title, Body: i.Body, Closed: i.IsClosed, IsPull: i.IsPull,
		PosterID: i.PosterID, Comments: i.NumComments, Created: i.Created, Updated: i.Updated, ClosedAt: i.Closed}
	if h.editEvent(ctx, e, is) {
		return
	}
	var view *issues.PullView
	if i.IsPull && e.Pull == nil && e.Kind != issues.EventComment {
		// An issue edit of a pull request (closed or reopened through
		// the issues API) carries no pull request: Forgejo sends the
		// pull_request event.
		if view = h.pullView(ctx, e); view != nil && view.Pull != nil {
			p := *view.Pull
			e.Pull = &p
		}
	}
	if i.IsPull && e.Pull != nil {
		h.pullEvent(ctx, e, is, view)
		return
	}
	var err error
	switch e.Kind {
	case issues.EventCreate:
		err = h.svc.IssueChanged(ctx, e.Actor, e.Repo, is, hooks.ActionOpened)
	case issues.EventClose:
		err = h.svc.IssueChanged(ctx, e.Actor, e.Repo, is, hooks.ActionClosed)
	case issues.EventReopen:
		err = h.svc.IssueChanged(ctx, e.Actor, e.Repo, is, hooks.ActionReopened)
	case issues.EventPullMerge: // Forgejo: pull_request "closed" (merged)
		err = h.svc.IssueChanged(ctx, e.Actor, e.Repo, is, hooks.ActionClosed)
	case issues.EventPullSync, issues.EventPullRetarget: // "synchronized", "edited"
		err = h.svc.IssueChanged(ctx, e.Actor, e.Repo, is, string(e.Kind))
	case issues.EventComment:
		if c := e.Comment; c != nil {
			err = h.svc.IssueCommented(ctx, e.Actor, e.Repo, is, hooks.CommentInfo{ID: c.ID, Body: c.Body,
				PosterID: c.PosterID, Created: c.Created, Updated: c.Updated}, hooks.ActionCreated)
		}
	}
	if err != nil {
		h.log.Warn("webhook events not queued", "repo", e.Repo.FullName(), "issue", i.Index, "err", err)
	}
}

// pullEvent queues the pull_request event (or a review event) of a
// pull-request event carrying its pull request; v is the pull request as
// read for the event (nil: read here).
func (h *hookIssues) pullEvent(ctx context.Context, e issues.Event, is hooks.IssueInfo, v *issues.PullView) {
	p := e.Pull
	pr := hooks.PullInfo{ID: int64(p.ID), BaseBranch: p.BaseBranch, HeadBranch: p.HeadBranch, HeadCommitID: p.HeadCommitID,
		MergeBase: p.MergeBase, Mergeable: p.Mergeable(), Merged: p.HasMerged, MergedAt: p.Merged,
		MergedCommitID: p.MergedCommitID, MergerID: p.MergerID, AllowMaintainerEdit: p.AllowMaintainerEdit,
		Additions: p.Additions, Deletions: p.Deletions, ChangedFiles: p.ChangedFiles, Flow: p.Flow}
	if p.SameRepo() {
		pr.HeadRepo = e.Repo
	}
	// The fork's head repository and the base branch's commit, as
	// Forgejo's convert.ToAPIPullRequest.
	if v == nil {
		v = h.pullView(ctx, e)
	}
	if v != nil {
		if v.HeadRepo != nil {
			pr.HeadRepo = v.HeadRepo
		}
		pr.BaseCommitID = v.BaseCommitID
	}
	if pr.HeadRepo == nil && p.HeadRepoID != 0 && h.repos != nil {
		if r, err := h.repos.RepoByID(ctx, p.HeadRepoID); err == nil {
			pr.HeadRepo = r
		}
	}
	var err error
	switch e.Kind {
	case issues.EventCreate:
		err = h.svc.PullChanged(ctx, e.Actor, e.Repo, is, pr, hooks.ActionOpened)
	case issues.EventClose, issues.EventPullMerge: // merged: "closed" with pull_request.merged
		err = h.svc.PullChanged(ctx, e.Actor, e.Repo, is, pr, hooks.ActionClosed)
	case issues.EventReopen:
		err = h.svc.PullChanged(ctx, e.Actor, e.Repo, is, pr, hooks.ActionReopened)
	case issues.EventPullSync:
		err = h.svc.PullChanged(ctx, e.Actor, e.Repo, is, pr, hooks.ActionSynchronized)
	case issues.EventPullRetarget:
		err = h.svc.PullChanged(ctx, e.Actor, e.Repo, is, pr, hooks.ActionEdited)
	case issues.EventPullReview:
		if r := e.Review; r != nil {
			kind := ""
			switch r.Type {
			case issues.ReviewApprove:
				kind = hooks.ReviewApproved
			case issues.ReviewReject:
				kind = hooks.ReviewRejected
			case issues.ReviewComment:
				kind = hooks.ReviewComment
			}
			if kind != "" {
				err = h.svc.PullReviewed(ctx, e.Actor, e.Repo, is, pr, hooks.ReviewInfo{Kind: kind, Content: r.Content})
			}
		}
	case issues.EventPullReviewRequest, issues.EventPullReviewRequestRemoved:
		err = h.reviewRequest(ctx, e, is, pr)
	case issues.EventComment:
		if c := e.Comment; c != nil {
			err = h.svc.IssueCommented(ctx, e.Actor, e.Repo, is, hooks.CommentInfo{ID: c.ID, Body: c.Body,
				PosterID: c.PosterID, Created: c.Created, Updated: c.Updated}, hooks.ActionCreated)
		}
	}
	if err != nil {
		h.log.Warn("webhook events not queued", "repo", e.Repo.FullName(), "pull", e.Issue.Index, "err", err)
	}
}

// hookRepos tells the webhook service of repositories created, forked and
// deleted (a repos.RepoListener): default hooks are copied into new
// repositories, and the repository and fork events queued.
type hookRepos struct {
	svc *hooks.Service
	log *slog.Logger
}

var _ repos.RepoListener = (*hookRepos)(nil)

// AfterCreate copies the default hooks and queues the repository event
// "created".
func (h *hookRepos) AfterCreate(ctx context.Context, actor forge.Actor, r *forge.Repository) {
	if err := h.svc.RepoCreated(ctx, actor, r); err != nil {
		h.log.Warn("webhook events not queued", "repo", r.FullName(), "err", err)
	}
}

// AfterDelete queues the repository event "deleted".
func (h *hookRepos) AfterDelete(ctx context.Context, actor forge.Actor, r *forge.Repository) {
	if err := h.svc.RepoDeleted(ctx, actor, r); err != nil {
		h.log.Warn("webhook events not queued", "repo", r.FullName(), "err", err)
	}
}

// AfterFork copies the default hooks into the fork and queues the fork
// event for the parent's hooks (hooks.Service.Forked).
func (h *hookRepos) AfterFork(ctx context.Context, actor forge.Actor, parent, fork *forge.Repository) {
	if err := h.svc.Forked(ctx, actor, parent, fork); err != nil {
		h.log.Warn("webhook events not queued", "repo", parent.FullName(), "fork", fork.FullName(), "err", err)
	}
}

// maxPushWalk bounds the commits read to list a push's commits: a push
// bringing more reports that many as its total.
const maxPushWalk = 1000

// pushCommits reads the commits of pushes for webhook payloads (a
// hooks.CommitReader) from the git store.
type pushCommits struct{ git repos.Git }

var _ hooks.CommitReader = pushCommits{}

// PushCommits lists the commits reachable from newID and not from oldID
// (git rev-list old..new, within maxPushWalk commits of each), newest
// first, at most limit with their files, and counts them.
func (p pushCommits) PushCommits(ctx context.Context, repo forge.ID, oldID, newID string, limit int) ([]*hooks.PushCommit, int, error) {
	seen := map[string]bool{}
	if !hooks.IsZeroID(oldID) {
		old, err := p.git.Log(ctx, repo, repos.LogOptions{Rev: oldID, Limit: maxPushWalk})
		if err != nil {
			return nil, 0, err
		}
		for _, c := range old {
			seen[c.ID] = true
		}
	}
	walk := maxPushWalk
	if hooks.IsZeroID(oldID) {
		walk = limit
	}
	list, err := p.git.Log(ctx, repo, repos.LogOptions{Rev: newID, Limit: walk})
	if err != nil {
		return nil, 0, err
	}
	var out []*hooks.PushCommit
	total := 0
	for _, c := range list {
		if seen[c.ID] {
			continue
		}
		total++
		if len(out) < limit {
			out = append(out, &hooks.PushCommit{ID: c.ID, Message: c.Message,
				Author:    hooks.CommitUser{Name: c.Author.Name, Email: c.Author.Email},
				Committer: hooks.CommitUser{Name: c.Committer.Name, Email: c.Committer.Email},
				Timestamp: c.Committer.When})
		}
	}
	// Files only for the commits listed.
	for _, pc := range out {
		one, err := p.git.Log(ctx, repo, repos.LogOptions{Rev: pc.ID, Limit: 1, Files: true})
		if err != nil {
			return nil, 0, err
		}
		if len(one) == 1 {
			for _, f := range one[0].Files {
				switch f.Status {
				case "added":
					pc.Added = append(pc.Added, f.Filename)
				case "removed":
					pc.Removed = append(pc.Removed, f.Filename)
				default:
					pc.Modified = append(pc.Modified, f.Filename)
				}
			}
		}
	}
	return out, total, nil
}
