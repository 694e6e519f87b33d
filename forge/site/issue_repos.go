package site

import (
	"context"
	"maps"
	"slices"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/issues"
)

// IssueRepos is issues.RepoSearch and issues.RepoViews over the
// repository service, as New wires the issue search (exported for hosts
// and tests that build the services one by one; package issues reaches
// repositories through values only, so the adapter lives here): repos.Service.IssueRepos
// lists the repositories the actor may read issues in (of one owner, of one
// team of an organisation) and repos.Service.ViewsByID those of one page,
// each with the actor's permission, in a fixed number of queries. Both
// check the actor themselves.
type IssueRepos struct{ Repos *repos.Service }

var (
	_ issues.RepoSearch = IssueRepos{}
	_ issues.RepoViews  = IssueRepos{}
)

// SearchRepos implements issues.RepoSearch.
func (s IssueRepos) SearchRepos(ctx context.Context, actor forge.Actor, owner, team string) ([]issues.RepoPermission, error) {
	views, err := s.Repos.IssueRepos(ctx, actor, owner, team)
	if err != nil {
		return nil, err
	}
	return repoPermissions(views), nil
}

// ReposByID implements issues.RepoViews.
func (s IssueRepos) ReposByID(ctx context.Context, actor forge.Actor, ids []forge.ID) ([]issues.RepoPermission, error) {
	views, err := s.Repos.ViewsByID(ctx, actor, ids)
	if err != nil {
		return nil, err
	}
	return repoPermissions(slices.Collect(maps.Values(views))), nil
}

// repoPermissions is views as issues.RepoPermissions.
func repoPermissions(views []*repos.View) []issues.RepoPermission {
	out := make([]issues.RepoPermission, 0, len(views))
	for _, v := range views {
		out = append(out, issues.RepoPermission{Repo: v.Repo, Permission: v.Perm})
	}
	return out
}
