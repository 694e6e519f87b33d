package site

import (
	"context"
	"errors"
	"log/slog"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/hooks"
	"github.com/hearthforge/hearth/forge/orgs"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/issues"
)

// pullReader reads a pull request as the actor sees it (issues.Service).
type pullReader interface {
	GetPull(ctx context.Context, actor forge.Actor, owner, repo string, index int64) (*issues.PullView, error)
}

// pullView reads the pull request of an event as its actor sees it, for
// what the event does not carry (the pull request of an issue edit, the
// head repository of a fork, the base branch's commit); nil when it
// cannot be read.
func (h *hookIssues) pullView(ctx context.Context, e issues.Event) *issues.PullView {
	if h.pulls == nil || e.Repo == nil || e.Issue == nil {
		return nil
	}
	v, err := h.pulls.GetPull(ctx, e.Actor, e.Repo.OwnerName, e.Repo.Name, e.Issue.Index)
	if err != nil {
		h.log.Warn("webhook: pull request not read", "repo", e.Repo.FullName(), "pull", e.Issue.Index, "err", err)
		return nil
	}
	return v
}

// teamMembers lists a team's members (orgs.Tx.ListTeamMembers over the
// organisations store).
type teamMembers interface {
	MembersOf(ctx context.Context, team forge.ID) ([]forge.ID, error)
}

// orgTeamMembers is teamMembers over the organisations store.
type orgTeamMembers struct{ store orgs.Store }

// MembersOf returns the ids of the members of team.
func (o orgTeamMembers) MembersOf(ctx context.Context, team forge.ID) ([]forge.ID, error) {
	var ids []forge.ID
	err := o.store.View(ctx, func(tx orgs.Tx) error {
		list, _, err := tx.ListTeamMembers(ctx, team, forge.ListOptions{Page: 1, Limit: -1})
		for _, u := range list {
			ids = append(ids, u.ID)
		}
		return err
	})
	return ids, err
}

// repoReader reads a repository by id whoever asks (the head repository
// of a pull request, which Forgejo's payloads show even to hooks whose
// event's actor may not see it).
type repoReader interface {
	RepoByID(ctx context.Context, id forge.ID) (*forge.Repository, error)
}

// storeRepos is repoReader over the repositories store.
type storeRepos struct{ store repos.Store }

// RepoByID returns the repository with its owner's name;
// forge.ErrNotFound if none.
func (s storeRepos) RepoByID(ctx context.Context, id forge.ID) (*forge.Repository, error) {
	var r *forge.Repository
	err := s.store.View(ctx, func(tx repos.Tx) error {
		var err error
		if r, err = tx.RepoByID(ctx, id); err != nil {
			return err
		}
		u, err := tx.UserByID(ctx, r.OwnerID)
		if err != nil {
			return err
		}
		r.OwnerName = u.Name
		return nil
	})
	return r, err
}

// reviewRequest queues the pull_request event review_requested or
// review_request_removed of a user review request; a team review request
// made is told as review_requested for each member of the team but the
// poster (Forgejo's teamReviewRequestNotify; nothing for a team request
// removed, nor without h.teams).
func (h *hookIssues) reviewRequest(ctx context.Context, e issues.Event, is hooks.IssueInfo, pr hooks.PullInfo) error {
	r := e.Review
	removed := e.Kind == issues.EventPullReviewRequestRemoved
	switch {
	case r == nil:
		return nil
	case r.ReviewerID != 0:
		return h.svc.PullReviewRequested(ctx, e.Actor, e.Repo, is, pr, r.ReviewerID, removed)
	case r.ReviewerTeamID != 0 && !removed && h.teams != nil:
		members, err := h.teams.MembersOf(ctx, r.ReviewerTeamID)
		for _, id := range members {
			if id != is.PosterID {
				err = errors.Join(err, h.svc.PullReviewRequested(ctx, e.Actor, e.Repo, is, pr, id, false))
			}
		}
		return err
	}
	return nil
}

// hookReleases tells the webhook service of releases created, edited and
// deleted (a repos.ReleaseListener).
type hookReleases struct {
	svc *hooks.Service
	log *slog.Logger
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
	info := hooks.ReleaseInfo{ID: int64(r.ID), TagName: r.TagName, Target: r.Target, Name: r.Name, Body: r.Body, Draft: r.Draft,
		Prerelease: r.Prerelease, HideArchiveLinks: r.HideArchiveLinks, AuthorID: r.AuthorID, Created: r.Created}
	for _, a := range r.Assets {
		info.Assets = append(info.Assets, hooks.AssetInfo{ID: int64(a.ID), UUID: a.UUID, Name: a.Name, Size: a.Size,
			Downloads: a.Downloads, ExternalURL: a.ExternalURL, Created: a.Created})
	}
	if err := h.svc.ReleaseChanged(ctx, actor, repo, info, action); err != nil {
		h.log.Warn("webhook events not queued", "repo", repo.FullName(), "release", r.ID, "err", err)
	}
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
