package site

import (
	"context"
	"log/slog"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/notify"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/issues"
)

// repoSearch adapts forge/repos to issues.RepoSearch for the issue
// search: repos.Service.IssueRepos, the repositories the actor may read
// issues in (of one owner, of one team of an organisation), with the
// actor's permission on each, in a fixed number of queries.
type repoSearch struct{ repos *repos.Service }

func (s repoSearch) SearchRepos(ctx context.Context, actor forge.Actor, owner, team string) ([]issues.RepoPermission, error) {
	views, err := s.repos.IssueRepos(ctx, actor, owner, team)
	if err != nil {
		return nil, err
	}
	out := make([]issues.RepoPermission, 0, len(views))
	for _, v := range views {
		out = append(out, issues.RepoPermission{Repo: v.Repo, Permission: v.Perm})
	}
	return out, nil
}

// ReposByID implements issues.RepoViews: repos.Service.ViewsByID, the
// repositories of one page of the search with the actor's permission.
func (s repoSearch) ReposByID(ctx context.Context, actor forge.Actor, ids []forge.ID) ([]issues.RepoPermission, error) {
	views, err := s.repos.ViewsByID(ctx, actor, ids)
	if err != nil {
		return nil, err
	}
	out := make([]issues.RepoPermission, 0, len(views))
	for _, v := range views {
		out = append(out, issues.RepoPermission{Repo: v.Repo, Permission: v.Perm})
	}
	return out, nil
}

// issueEvents adapts issues.Listener to notify.Service.Notify: the two
// domains do not import each other. A failure to notify never fails the
// issue operation (it has committed); it is logged.
type issueEvents struct {
	notify *notify.Service
	log    *slog.Logger
}

func (l *issueEvents) IssueEvent(ctx context.Context, e issues.Event) {
	if l.notify == nil || e.Repo == nil || e.Issue == nil || !e.Kind.Notifies() {
		return
	}
	ev := notify.Event{Doer: e.Actor.UserID(), RepoID: e.Repo.ID, IssueID: e.Issue.ID, IsPull: e.Issue.IsPull, Mentioned: e.Mentioned}
	if e.Comment != nil {
		ev.CommentID = e.Comment.ID
	}
	if err := l.notify.Notify(ctx, ev); err != nil {
		l.log.WarnContext(ctx, "site: notify", "issue", e.Issue.ID, "err", err)
	}
}
