package site

import (
	"context"
	"log/slog"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/hooks"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/httpapi/convert"
	"github.com/hearthforge/hearth/issues"
)

// hookPushes tells the webhook service of pushes (a repos.PushListener),
// as the outbox consumer of ref moves.
type hookPushes struct {
	ports    *hooks.Ports
	payloads *HookPayloads
	log      *slog.Logger
}

var _ repos.PushListener = (*hookPushes)(nil)

// AfterPush queues the push's webhook events; it never waits for a
// receiver.
func (p *hookPushes) AfterPush(ctx context.Context, actor forge.Actor, r *forge.Repository, ups []repos.RefUpdate) {
	conv := make([]hooks.RefUpdate, len(ups))
	for i, u := range ups {
		conv[i] = hooks.RefUpdate{Ref: u.Ref, OldID: u.OldID, NewID: u.NewID}
	}
	if err := p.ports.Pushed(ctx, r, p.payloads.Refs(ctx, actor, r, conv)); err != nil {
		p.log.Warn("webhook events not queued", "repo", r.FullName(), "err", err)
	}
}

// hookIssues tells the webhook service of issue events, as the outbox
// handler of issue events.
type hookIssues struct {
	ports    *hooks.Ports
	payloads *HookPayloads
	log      *slog.Logger
	// issues reads the issue and pull request of events as their actor
	// sees them, for what the events do not carry (nil sends what the
	// events carry).
	issues issueReader
	// teams lists the members of teams asked for reviews (nil: team
	// requests are not told).
	teams teamMembers
	// repos reads the head repositories the event's actor may not see
	// (nil: head.repo is then null).
	repos RepoReader
}

// issueActions are the webhook actions of the issue and pull request
// events that are not edits.
var issueActions = map[issues.EventKind]string{
	issues.EventCreate:       hooks.ActionOpened,
	issues.EventClose:        hooks.ActionClosed,
	issues.EventReopen:       hooks.ActionReopened,
	issues.EventPullMerge:    hooks.ActionClosed, // Forgejo: "closed" with pull_request.merged
	issues.EventPullSync:     hooks.ActionSynchronized,
	issues.EventPullRetarget: hooks.ActionEdited,
}

// IssueEvent queues the issues, pull_request or issue_comment event; it
// never waits for a receiver.
func (h *hookIssues) IssueEvent(ctx context.Context, e issues.Event) {
	if e.Issue == nil || e.Repo == nil {
		return
	}
	v := h.issueView(ctx, e)
	if h.editEvent(ctx, e, v) {
		return
	}
	var err error
	switch {
	case e.Kind == issues.EventComment:
		if c := e.Comment; c != nil {
			err = h.ports.IssueCommented(ctx, e.Repo, e.Issue.IsPull, h.payloads.Comment(ctx, e.Actor, v, c, hooks.ActionCreated, nil))
		}
	case e.Issue.IsPull:
		if pv := h.pullView(ctx, e, v); pv != nil {
			err = h.pullEvent(ctx, e, pv)
			break
		}
		// A pull request that cannot be read: its issue, as the
		// pull_request event.
		fallthrough
	default:
		if action := issueActions[e.Kind]; action != "" {
			err = h.ports.IssueChanged(ctx, e.Repo, e.Issue.IsPull, action, h.payloads.Issue(ctx, e.Actor, v, action, nil))
		}
	}
	if err != nil {
		h.log.Warn("webhook events not queued", "repo", e.Repo.FullName(), "issue", e.Issue.Index, "err", err)
	}
}

// pullEvent queues the pull_request event (or a review event) of a
// pull-request event, v its pull request.
func (h *hookIssues) pullEvent(ctx context.Context, e issues.Event, v *issues.PullView) error {
	switch e.Kind {
	case issues.EventPullReview:
		r := e.Review
		if r == nil {
			return nil
		}
		kind := map[issues.ReviewType]string{issues.ReviewApprove: hooks.ReviewApproved, issues.ReviewReject: hooks.ReviewRejected,
			issues.ReviewComment: hooks.ReviewComment}[r.Type]
		if kind == "" {
			return nil
		}
		p := h.payloads.Pull(ctx, e.Actor, v, hooks.ActionReviewed, nil)
		p.Review = &convert.ReviewPayload{Type: kind, Content: r.Content}
		return h.ports.PullReviewed(ctx, e.Repo, kind, p)
	case issues.EventPullReviewRequest, issues.EventPullReviewRequestRemoved:
		return h.reviewRequest(ctx, e, v)
	}
	action := issueActions[e.Kind]
	if action == "" {
		return nil
	}
	return h.ports.IssueChanged(ctx, e.Repo, true, action, h.payloads.Pull(ctx, e.Actor, v, action, nil))
}

// hookRepos tells the webhook service of repositories created, forked and
// deleted (a repos.RepoListener): default hooks are copied into new
// repositories, and the repository and fork events queued.
type hookRepos struct {
	ports    *hooks.Ports
	payloads *HookPayloads
	log      *slog.Logger
}

var _ repos.RepoListener = (*hookRepos)(nil)

// AfterCreate copies the default hooks and queues the repository event
// "created".
func (h *hookRepos) AfterCreate(ctx context.Context, actor forge.Actor, r *forge.Repository) {
	if err := h.ports.RepoCreated(ctx, r, h.payloads.Repository(ctx, actor, r, "created")); err != nil {
		h.log.Warn("webhook events not queued", "repo", r.FullName(), "err", err)
	}
}

// AfterDelete queues the repository event "deleted".
func (h *hookRepos) AfterDelete(ctx context.Context, actor forge.Actor, r *forge.Repository) {
	if err := h.ports.RepoDeleted(ctx, r, h.payloads.Repository(ctx, actor, r, "deleted")); err != nil {
		h.log.Warn("webhook events not queued", "repo", r.FullName(), "err", err)
	}
}

// AfterFork copies the default hooks into the fork and queues the fork
// event for the parent's hooks (hooks.Ports.Forked).
func (h *hookRepos) AfterFork(ctx context.Context, actor forge.Actor, parent, fork *forge.Repository) {
	payload, created := h.payloads.Fork(ctx, actor, parent, fork)
	if err := h.ports.Forked(ctx, parent, fork, payload, created); err != nil {
		h.log.Warn("webhook events not queued", "repo", parent.FullName(), "fork", fork.FullName(), "err", err)
	}
}

// maxPushWalk bounds the commits read to list a push's commits: a push
// bringing more reports that many as its total.
const maxPushWalk = 1000

// pushCommits reads the commits of pushes for webhook payloads (a
// PushCommitReader) from the git store.
type pushCommits struct{ git repos.Git }

var _ PushCommitReader = pushCommits{}

// PushCommits lists the commits reachable from newID and not from oldID
// (git rev-list old..new, within maxPushWalk commits of each), newest
// first, at most limit with their files, and counts them.
func (p pushCommits) PushCommits(ctx context.Context, repo forge.ID, oldID, newID string, limit int) ([]*repos.Commit, int, error) {
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
	var out []*repos.Commit
	total := 0
	for _, c := range list {
		if seen[c.ID] {
			continue
		}
		total++
		if len(out) < limit {
			out = append(out, c)
		}
	}
	// Files only for the commits listed.
	for i, c := range out {
		one, err := p.git.Log(ctx, repo, repos.LogOptions{Rev: c.ID, Limit: 1, Files: true})
		if err != nil {
			return nil, 0, err
		}
		if len(one) == 1 {
			out[i] = one[0]
		}
	}
	return out, total, nil
}
