package httpapi

import (
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/httpapi/convert"
	"github.com/hearthforge/hearth/httpapi/wire"
	"github.com/hearthforge/hearth/issues"
)

// repositoryJSON is Forgejo's Repository, generated from its document. The
// alias keeps handlers written against the hand-written struct compiling;
// new code names wire.Repository.
type repositoryJSON = wire.Repository

// repoURL is the web URL of a repository.
func (c *call) repoURL(r *forge.Repository) string { return convert.RepoWebURL(c.rootURL(), r) }

// repoAPIURL is the API URL of a repository.
func (c *call) repoAPIURL(r *forge.Repository) string { return convert.RepoAPIURL(c.rootURL(), r) }

// toRepo converts one repository view as Forgejo's convert.ToRepo. It costs
// one read transaction (the parent of a fork and a pending transfer).
func (c *call) toRepo(v *repos.View) wire.Repository {
	return c.toRepos([]*repos.View{v})[0]
}

// toRepos converts a page of repository views: one read transaction for
// what they relate to (repos.Service.RelatedOf), whatever the page's
// length, then pure conversions. Should that read fail, repositories are
// shown without parent and transfer, as Forgejo does when it cannot load
// them.
func (c *call) toRepos(list []*repos.View) []wire.Repository {
	ids := make([]forge.ID, len(list))
	for i, v := range list {
		ids[i] = v.Repo.ID
	}
	related, err := c.a.cfg.Repos.RelatedOf(c.r.Context(), c.actor, ids)
	if err != nil {
		c.a.log.WarnContext(c.r.Context(), "api: load related repositories", "err", err)
	}
	counts := c.repoIssueCounts(ids, related)
	root := c.rootURL()
	out := make([]wire.Repository, len(list))
	for i, v := range list {
		out[i] = convert.Repository(root, v, related[v.Repo.ID], c.toUser)
		setIssueCounts(&out[i], counts)
	}
	c.mirrorFields(out)
	return out
}

// repoIssueCounts reads the issue counters of the repositories of a page
// and of their parents (one read transaction, none without an issue
// service). Should the read fail, the counters show 0.
func (c *call) repoIssueCounts(ids []forge.ID, related map[forge.ID]repos.Related) map[forge.ID]issues.RepoCounts {
	if c.a.cfg.Issues == nil {
		return nil
	}
	for _, rel := range related {
		if rel.Parent != nil {
			ids = append(ids, rel.Parent.Repo.ID)
		}
	}
	counts, err := c.a.cfg.Issues.RepoIssueCounts(c.r.Context(), c.actor, ids)
	if err != nil {
		c.a.log.WarnContext(c.r.Context(), "api: load issue counts", "err", err)
	}
	return counts
}

// setIssueCounts sets open_issues_count and open_pr_counter of a converted
// repository and of its parent (Forgejo's NumOpenIssues, NumOpenPulls).
func setIssueCounts(r *wire.Repository, counts map[forge.ID]issues.RepoCounts) {
	n := counts[r.ID]
	r.OpenIssues, r.OpenPulls = n.Issues.Open, n.Pulls.Open
	if r.Parent != nil {
		setIssueCounts(r.Parent, counts)
	}
}
