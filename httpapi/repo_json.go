package httpapi

import (
	"net/url"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/httpapi/wire"
	"github.com/hearthforge/hearth/issues"
)

// repositoryJSON is Forgejo's Repository, generated from its document. The
// alias keeps handlers written against the hand-written struct compiling;
// new code names wire.Repository.
type repositoryJSON = wire.Repository

// repoURL is the web URL of a repository.
func (c *call) repoURL(r *forge.Repository) string { return repoWebURL(c.rootURL(), r) }

// repoAPIURL is the API URL of a repository.
func (c *call) repoAPIURL(r *forge.Repository) string { return repoAPIURL(c.rootURL(), r) }

func repoWebURL(root string, r *forge.Repository) string {
	return root + url.PathEscape(r.OwnerName) + "/" + url.PathEscape(r.Name)
}

func repoAPIURL(root string, r *forge.Repository) string {
	return root + "api/v1/repos/" + url.PathEscape(r.OwnerName) + "/" + url.PathEscape(r.Name)
}

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
		out[i] = repositoryFrom(root, v, related[v.Repo.ID], c.toUser)
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

// repositoryFrom converts a repository view as Forgejo's convert.ToRepo:
// a pure function of the view, what it relates to, the root URL and the
// user converter (which must be pure too). The parent is converted
// shallowly (its own parent and transfer are not shown).
func repositoryFrom(root string, v *repos.View, rel repos.Related, user func(*forge.User) wire.User) wire.Repository {
	r := v.Repo
	html, api := repoWebURL(root, r), repoAPIURL(root, r)
	topics := r.Topics
	if topics == nil {
		topics = []string{}
	}
	out := wire.Repository{
		ID: r.ID, Owner: user(v.Owner), Name: r.Name, FullName: r.FullName(), Description: r.Description,
		Empty: r.Empty, Private: r.Private, Fork: r.ForkID != 0, Template: r.Template, Size: r.Size / 1024,
		LanguagesURL: api + "/languages", HTMLURL: html, URL: api,
		CloneURL: html + ".git", Website: r.Website, Stars: int64(r.NumStars), Forks: int64(r.NumForks),
		Watchers: int64(r.NumWatches), DefaultBranch: r.DefaultBranch, Archived: r.Archived,
		Created: apiTime(r.Created), Updated: apiTime(r.Updated), ArchivedAt: apiTime(r.ArchivedAt),
		HasIssues: r.HasIssues, HasWiki: r.HasWiki, WikiCloneURL: html + ".wiki.git",
		GloballyEditableWiki: r.GloballyEditableWiki, HasPullRequests: r.HasPullRequests, HasProjects: r.HasProjects,
		HasReleases: r.HasReleases, HasPackages: r.HasPackages, HasActions: r.HasActions,
		IgnoreWhitespaceConflicts: r.IgnoreWhitespaceConflicts, AllowMerge: r.AllowMerge, AllowRebase: r.AllowRebase,
		AllowRebaseMerge: r.AllowRebaseExplicit, AllowSquash: r.AllowSquash, AllowFastForwardOnly: r.AllowFastForwardOnly,
		AllowRebaseUpdate: r.AllowRebaseUpdate, DefaultDeleteBranchAfterMerge: r.DefaultDeleteBranchAfterMerge,
		DefaultMergeStyle: r.DefaultMergeStyle, DefaultAllowMaintainerEdit: r.DefaultAllowMaintainerEdit,
		DefaultUpdateStyle: r.DefaultUpdateStyle, Internal: !r.Private && v.Owner.Visibility == forge.VisibilityPrivate,
		ObjectFormatName: wire.RepositoryObjectFormatName(r.ObjectFormat), Topics: topics,
		Permissions: &wire.Permission{Admin: v.IsAdmin(), Push: v.CanWrite(), Pull: v.CanRead()},
	}
	if r.WikiBranch != "" {
		wb := r.WikiBranch
		out.WikiBranch = &wb
	}
	if r.HasIssues {
		if t := r.InternalTracker; t != nil {
			out.InternalTracker = &wire.InternalTracker{EnableTimeTracker: t.EnableTimeTracker,
				AllowOnlyContributorsToTrackTime: t.AllowOnlyContributorsToTrackTime, EnableIssueDependencies: t.EnableIssueDependencies}
		}
		if t := r.ExternalTracker; t != nil {
			out.ExternalTracker = &wire.ExternalTracker{ExternalTrackerURL: t.URL, ExternalTrackerFormat: t.Format,
				ExternalTrackerStyle: t.Style, ExternalTrackerRegexpPattern: t.RegexpPattern}
		}
	}
	if r.HasWiki && r.ExternalWiki != nil {
		out.ExternalWiki = &wire.ExternalWiki{ExternalWikiURL: r.ExternalWiki.URL}
	}
	if r.Avatar != "" {
		out.AvatarURL = root + "repo-avatars/" + r.Avatar
	}
	if p := rel.Parent; p != nil {
		parent := repositoryFrom(root, p, repos.Related{}, user)
		parent.Fork = p.Repo.ForkID != 0
		out.Parent = &parent
	}
	if t := rel.Transfer; t != nil {
		out.RepoTransfer = &wire.RepoTransfer{Doer: user(t.Doer), Recipient: user(t.Recipient), Teams: transferTeamsFrom(root, t.Teams)}
	}
	return out
}
