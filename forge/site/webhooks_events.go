package site

import (
	"context"
	"errors"
	"log/slog"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/hooks"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/httpapi/convert"
	"github.com/hearthforge/hearth/issues"
)

// issueReader reads an issue and a pull request as the actor sees them
// (issues.Service).
type issueReader interface {
	Get(ctx context.Context, actor forge.Actor, owner, repo string, index int64) (*issues.IssueView, error)
	GetPull(ctx context.Context, actor forge.Actor, owner, repo string, index int64) (*issues.PullView, error)
}

// issueView is the issue of an event as its payloads show it: the issue
// as the event recorded it, with its poster, labels, milestone,
// assignees and attachments as the event's actor reads them now, the
// labels, assignees and milestone after the change for an edit event (its
// detail).
func (h *hookIssues) issueView(ctx context.Context, e issues.Event) *issues.IssueView {
	v := &issues.IssueView{Issue: e.Issue, Repo: e.Repo}
	if h.issues != nil {
		cur, err := h.issues.Get(ctx, e.Actor, e.Repo.OwnerName, e.Repo.Name, e.Issue.Index)
		if err == nil {
			v.Poster, v.Labels, v.Milestone, v.Assignees, v.Assets = cur.Poster, cur.Labels, cur.Milestone, cur.Assignees, cur.Assets
		} else {
			h.log.Warn("webhook: issue not read", "repo", e.Repo.FullName(), "issue", e.Issue.Index, "err", err)
		}
	}
	if v.Poster == nil {
		v.Poster = h.payloads.users(ctx, e.Issue.PosterID)[e.Issue.PosterID]
	}
	if d := e.Detail; d != nil {
		v.Labels, v.Assignees, v.Milestone = d.Labels, d.Assignees, d.Milestone
	}
	return v
}

// pullView is the pull request of a pull-request event as its payloads
// show it: the pull request as the event recorded it (or as read when the
// event carries none), the issue of v, the head repository (read whoever
// asks when the actor may not see it), the base branch's commit and the
// merger, as Forgejo's convert.ToAPIPullRequest; nil when there is none.
func (h *hookIssues) pullView(ctx context.Context, e issues.Event, v *issues.IssueView) *issues.PullView {
	out := &issues.PullView{RequestedReviewers: []*forge.User{}, RequestedTeams: []*forge.Team{}}
	if h.issues != nil {
		read, err := h.issues.GetPull(ctx, e.Actor, e.Repo.OwnerName, e.Repo.Name, e.Issue.Index)
		if err == nil {
			out = read
		} else {
			h.log.Warn("webhook: pull request not read", "repo", e.Repo.FullName(), "pull", e.Issue.Index, "err", err)
		}
	}
	if e.Pull != nil {
		p := *e.Pull
		out.Pull = &p
	}
	if out.Pull == nil {
		return nil
	}
	out.IssueView = v
	p := out.Pull
	if out.HeadRepo == nil && p.HeadRepoID != 0 {
		if p.SameRepo() {
			out.HeadRepo = e.Repo
		} else if h.repos != nil {
			if r, err := h.repos.RepoByID(ctx, p.HeadRepoID); err == nil {
				out.HeadRepo = r
			}
		}
	}
	if out.Merger == nil && p.HasMerged && p.MergerID != 0 {
		out.Merger = h.payloads.users(ctx, p.MergerID)[p.MergerID]
	}
	return out
}

// teamMembers lists a team's members (orgs.Ports.TeamMemberIDs).
type teamMembers interface {
	TeamMemberIDs(ctx context.Context, team forge.ID) ([]forge.ID, error)
}

// RepoReader reads a repository by id whoever asks
// (repos.Ports.RepoByID: the head repository of a pull request, the parent
// of a fork, which Forgejo's payloads show even to hooks whose event's
// actor may not see them).
type RepoReader interface {
	RepoByID(ctx context.Context, id forge.ID) (*forge.Repository, error)
}

// reviewRequest queues the pull_request event review_requested or
// review_request_removed of a user review request; a team review request
// made is told as review_requested for each member of the team but the
// poster (Forgejo's teamReviewRequestNotify; nothing for a team request
// removed, nor without h.teams).
func (h *hookIssues) reviewRequest(ctx context.Context, e issues.Event, v *issues.PullView) error {
	r := e.Review
	removed := e.Kind == issues.EventPullReviewRequestRemoved
	action := hooks.ActionReviewRequested
	if removed {
		action = hooks.ActionReviewRequestRemoved
	}
	tell := func(reviewer forge.ID) error {
		p := h.payloads.Pull(ctx, e.Actor, v, action, nil)
		p.RequestedReviewer = h.payloads.user(h.payloads.users(ctx, reviewer)[reviewer])
		return h.ports.PullReviewRequested(ctx, e.Repo, p)
	}
	switch {
	case r == nil:
		return nil
	case r.ReviewerID != 0:
		return tell(r.ReviewerID)
	case r.ReviewerTeamID != 0 && !removed && h.teams != nil:
		members, err := h.teams.TeamMemberIDs(ctx, r.ReviewerTeamID)
		for _, id := range members {
			if id != e.Issue.PosterID {
				err = errors.Join(err, tell(id))
			}
		}
		return err
	}
	return nil
}

// hookReleases tells the webhook service of releases created, edited and
// deleted (a repos.ReleaseListener).
type hookReleases struct {
	ports    *hooks.Ports
	payloads *HookPayloads
	log      *slog.Logger
}

var _ repos.ReleaseListener = (*hookReleases)(nil)

// AfterRelease queues the release event Forgejo sends for the change, if
// any (hooks.ReleaseAction).
func (h *hookReleases) AfterRelease(ctx context.Context, actor forge.Actor, repo *forge.Repository, e repos.ReleaseEvent) {
	if e.Release == nil {
		return
	}
	r := e.Release
	action := hooks.ReleaseAction(string(e.Op), r.Draft, e.WasDraft, e.TagCreated)
	if action == "" {
		return
	}
	if err := h.ports.ReleaseChanged(ctx, repo, action, h.payloads.Release(ctx, actor, repo, r, action)); err != nil {
		h.log.Warn("webhook events not queued", "repo", repo.FullName(), "release", r.ID, "err", err)
	}
}

// changes is what an edit event changed, for its payload (nil for
// none).
func changes(d *issues.EventDetail) *convert.ChangesPayload {
	if d == nil || d.OldTitle == nil && d.OldBody == nil {
		return nil
	}
	ch := &convert.ChangesPayload{}
	if d.OldTitle != nil {
		ch.Title = &convert.ChangesFromPayload{From: *d.OldTitle}
	}
	if d.OldBody != nil {
		ch.Body = &convert.ChangesFromPayload{From: *d.OldBody}
	}
	return ch
}

// maxManifestRead bounds the build manifest read for sourcehut_builds
// hooks.
const maxManifestRead = 1 << 20

// repoFiles reads repository files for webhooks (a hooks.FileReader): the
// build manifests of sourcehut_builds hooks, through the git store.
type repoFiles struct{ git repos.Git }

var _ hooks.FileReader = repoFiles{}

// ReadFile returns the blob at path in rev; forge.ErrNotFound when it is
// missing or not a file, forge.ErrInvalid when larger than
// maxManifestRead.
func (f repoFiles) ReadFile(ctx context.Context, repo forge.ID, rev, path string) ([]byte, error) {
	e, err := f.git.Entry(ctx, repo, rev, path)
	if err != nil {
		return nil, err
	}
	if e.Type != "blob" {
		return nil, forge.Errorf(forge.ErrNotFound, "%s is not a file", path)
	}
	if e.Size > maxManifestRead {
		return nil, forge.Errorf(forge.ErrInvalid, "%s is larger than %d bytes", path, maxManifestRead)
	}
	return f.git.Blob(ctx, repo, e.ID)
}
