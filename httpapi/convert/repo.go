package convert

import (
	"net/url"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/httpapi/wire"
)

// RepoWebURL is the web URL of a repository.
func RepoWebURL(root string, r *forge.Repository) string {
	return root + url.PathEscape(r.OwnerName) + "/" + url.PathEscape(r.Name)
}

// RepoAPIURL is the API URL of a repository.
func RepoAPIURL(root string, r *forge.Repository) string {
	return root + "api/v1/repos/" + url.PathEscape(r.OwnerName) + "/" + url.PathEscape(r.Name)
}

// Repository converts a repository view as Forgejo's convert.ToRepo:
// a pure function of the view, what it relates to, the root URL and the
// user converter (which must be pure too). The parent is converted
// shallowly (its own parent and transfer are not shown).
func Repository(root string, v *repos.View, rel repos.Related, user UserFunc) wire.Repository {
	r := v.Repo
	html, api := RepoWebURL(root, r), RepoAPIURL(root, r)
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
		Created: Time(r.Created), Updated: Time(r.Updated), ArchivedAt: Time(r.ArchivedAt),
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
		parent := Repository(root, p, repos.Related{}, user)
		parent.Fork = p.Repo.ForkID != 0
		out.Parent = &parent
	}
	if t := rel.Transfer; t != nil {
		out.RepoTransfer = &wire.RepoTransfer{Doer: user(t.Doer), Recipient: user(t.Recipient), Teams: Teams(root, t.Teams)}
	}
	return out
}

// Presented converts a repository's presentation (repos.Service.Present,
// PresentAll): Repository, with open_issues_count and open_pr_counter of
// the repository and its parent (Forgejo's NumOpenIssues, NumOpenPulls)
// and the pull-mirror fields (mirror, mirror_interval, mirror_updated,
// original_url). A pure function, as Repository is.
func Presented(root string, p *repos.Presentation, user UserFunc) wire.Repository {
	out := Repository(root, p.View, p.Related, user)
	out.OpenIssues, out.OpenPulls = p.Counts.OpenIssues, p.Counts.OpenPulls
	if out.Parent != nil {
		out.Parent.OpenIssues, out.Parent.OpenPulls = p.ParentCounts.OpenIssues, p.ParentCounts.OpenPulls
	}
	if m := p.Mirror; m != nil {
		out.Mirror, out.MirrorInterval, out.MirrorUpdated, out.OriginalURL = true, m.Interval.String(), m.Updated, m.OriginalURL
	}
	return out
}
