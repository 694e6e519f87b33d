package httpapi

import (
	"net/url"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/httpapi/wire"
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

// toRepo converts one repository view as Forgejo's convert.ToRepo, from
// its presentation (toRepos).
func (c *call) toRepo(v *repos.View) (wire.Repository, error) {
	out, err := c.toRepos([]*repos.View{v})
	if err != nil {
		return wire.Repository{}, err
	}
	return out[0], nil
}

// writeRepo answers status with the repository v as toRepo converts it,
// or the error of its presentation.
func (c *call) writeRepo(status int, v *repos.View) {
	out, err := c.toRepo(v)
	if err != nil {
		c.writeError(err)
		return
	}
	c.jsonRepository(status, &out)
}

// toRepos converts a page of repository views: one domain read of their
// presentation (repos.Service.PresentAll: what they relate to, their
// issue counters and mirror fields, at a fixed cost whatever the page's
// length), then pure conversions. The read's errors are returned.
func (c *call) toRepos(list []*repos.View) ([]wire.Repository, error) {
	ps, err := c.a.cfg.Repos.PresentAll(c.r.Context(), c.actor, list)
	if err != nil {
		return nil, err
	}
	root := c.rootURL()
	out := make([]wire.Repository, len(ps))
	for i := range ps {
		out[i] = repositoryOf(root, &ps[i], c.toUser)
	}
	return out, nil
}

// repositoryOf converts a repository's presentation: repositoryFrom, with
// open_issues_count and open_pr_counter of the repository and its parent
// (Forgejo's NumOpenIssues, NumOpenPulls) and the pull-mirror fields. A
// pure function, as repositoryFrom is.
func repositoryOf(root string, p *repos.Presentation, user func(*forge.User) wire.User) wire.Repository {
	out := repositoryFrom(root, p.View, p.Related, user)
	out.OpenIssues, out.OpenPulls = p.Counts.OpenIssues, p.Counts.OpenPulls
	if out.Parent != nil {
		out.Parent.OpenIssues, out.Parent.OpenPulls = p.ParentCounts.OpenIssues, p.ParentCounts.OpenPulls
	}
	if m := p.Mirror; m != nil {
		out.Mirror, out.MirrorInterval, out.MirrorUpdated, out.OriginalURL = true, m.Interval.String(), m.Updated, m.OriginalURL
	}
	return out
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
