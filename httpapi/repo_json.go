package httpapi

import (
	"net/url"
	"time"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

// permissionJSON is Forgejo's Permission.
type permissionJSON struct {
	Admin bool `json:"admin"`
	Push  bool `json:"push"`
	Pull  bool `json:"pull"`
}

// repositoryJSON is Forgejo's Repository.
type repositoryJSON struct {
	ID                            int64                  `json:"id"`
	Owner                         userJSON               `json:"owner"`
	Name                          string                 `json:"name"`
	FullName                      string                 `json:"full_name"`
	Description                   string                 `json:"description"`
	Empty                         bool                   `json:"empty"`
	Private                       bool                   `json:"private"`
	Fork                          bool                   `json:"fork"`
	Template                      bool                   `json:"template"`
	Parent                        *repositoryJSON        `json:"parent"`
	Mirror                        bool                   `json:"mirror"`
	Size                          int64                  `json:"size"`
	Language                      string                 `json:"language"`
	LanguagesURL                  string                 `json:"languages_url"`
	HTMLURL                       string                 `json:"html_url"`
	URL                           string                 `json:"url"`
	Link                          string                 `json:"link"`
	SSHURL                        string                 `json:"ssh_url"`
	CloneURL                      string                 `json:"clone_url"`
	OriginalURL                   string                 `json:"original_url"`
	Website                       string                 `json:"website"`
	Stars                         int                    `json:"stars_count"`
	Forks                         int                    `json:"forks_count"`
	Watchers                      int                    `json:"watchers_count"`
	OpenIssues                    int                    `json:"open_issues_count"`
	OpenPulls                     int                    `json:"open_pr_counter"`
	Releases                      int                    `json:"release_counter"`
	DefaultBranch                 string                 `json:"default_branch"`
	Archived                      bool                   `json:"archived"`
	Created                       time.Time              `json:"created_at"`
	Updated                       time.Time              `json:"updated_at"`
	ArchivedAt                    time.Time              `json:"archived_at"`
	Permissions                   *permissionJSON        `json:"permissions,omitempty"`
	HasIssues                     bool                   `json:"has_issues"`
	InternalTracker               *forge.InternalTracker `json:"internal_tracker,omitempty"`
	ExternalTracker               *forge.ExternalTracker `json:"external_tracker,omitempty"`
	HasWiki                       bool                   `json:"has_wiki"`
	HasWikiContents               bool                   `json:"has_wiki_contents"`
	ExternalWiki                  *forge.ExternalWiki    `json:"external_wiki,omitempty"`
	WikiBranch                    string                 `json:"wiki_branch,omitempty"`
	WikiSSHURL                    string                 `json:"wiki_ssh_url"`
	WikiCloneURL                  string                 `json:"wiki_clone_url"`
	GloballyEditableWiki          bool                   `json:"globally_editable_wiki"`
	HasPullRequests               bool                   `json:"has_pull_requests"`
	HasProjects                   bool                   `json:"has_projects"`
	HasReleases                   bool                   `json:"has_releases"`
	HasPackages                   bool                   `json:"has_packages"`
	HasActions                    bool                   `json:"has_actions"`
	IgnoreWhitespaceConflicts     bool                   `json:"ignore_whitespace_conflicts"`
	AllowMerge                    bool                   `json:"allow_merge_commits"`
	AllowRebase                   bool                   `json:"allow_rebase"`
	AllowRebaseMerge              bool                   `json:"allow_rebase_explicit"`
	AllowSquash                   bool                   `json:"allow_squash_merge"`
	AllowFastForwardOnly          bool                   `json:"allow_fast_forward_only_merge"`
	AllowRebaseUpdate             bool                   `json:"allow_rebase_update"`
	DefaultDeleteBranchAfterMerge bool                   `json:"default_delete_branch_after_merge"`
	DefaultMergeStyle             string                 `json:"default_merge_style"`
	DefaultAllowMaintainerEdit    bool                   `json:"default_allow_maintainer_edit"`
	DefaultUpdateStyle            string                 `json:"default_update_style"`
	AvatarURL                     string                 `json:"avatar_url"`
	Internal                      bool                   `json:"internal"`
	MirrorInterval                string                 `json:"mirror_interval"`
	ObjectFormatName              string                 `json:"object_format_name"`
	MirrorUpdated                 time.Time              `json:"mirror_updated"`
	RepoTransfer                  any                    `json:"repo_transfer"`
	Topics                        []string               `json:"topics"`
}

// repoURLs are the URLs of a repository.
func (c *call) repoURL(r *forge.Repository) string {
	return c.rootURL() + url.PathEscape(r.OwnerName) + "/" + url.PathEscape(r.Name)
}

func (c *call) repoAPIURL(r *forge.Repository) string {
	return c.rootURL() + "api/v1/repos/" + url.PathEscape(r.OwnerName) + "/" + url.PathEscape(r.Name)
}

// toRepoShallow converts a repository without following its parent.
func (c *call) toRepoShallow(v *repos.View) repositoryJSON {
	f := *v.Repo
	f.ForkID = 0
	out := c.toRepo(&repos.View{Repo: &f, Owner: v.Owner, Perm: v.Perm})
	out.Fork = v.Repo.ForkID != 0
	return out
}

// toRepo converts a repository view as Forgejo's convert.ToRepo.
func (c *call) toRepo(v *repos.View) repositoryJSON {
	r := v.Repo
	html := c.repoURL(r)
	topics := r.Topics
	if topics == nil {
		topics = []string{}
	}
	out := repositoryJSON{
		ID: r.ID, Owner: c.toUser(v.Owner), Name: r.Name, FullName: r.FullName(), Description: r.Description,
		Empty: r.Empty, Private: r.Private, Template: r.Template, Size: r.Size / 1024,
		LanguagesURL: c.repoAPIURL(r) + "/languages", HTMLURL: html, URL: c.repoAPIURL(r),
		Link: "", CloneURL: html + ".git", Website: r.Website, Stars: r.NumStars, Forks: r.NumForks,
		Watchers: r.NumWatches, DefaultBranch: r.DefaultBranch, Archived: r.Archived,
		Created: apiTime(r.Created), Updated: apiTime(r.Updated), ArchivedAt: apiTime(r.ArchivedAt),
		HasIssues: r.HasIssues, HasWiki: r.HasWiki, WikiBranch: r.WikiBranch, WikiCloneURL: html + ".wiki.git",
		GloballyEditableWiki: r.GloballyEditableWiki, HasPullRequests: r.HasPullRequests, HasProjects: r.HasProjects,
		HasReleases: r.HasReleases, HasPackages: r.HasPackages, HasActions: r.HasActions,
		IgnoreWhitespaceConflicts: r.IgnoreWhitespaceConflicts, AllowMerge: r.AllowMerge, AllowRebase: r.AllowRebase,
		AllowRebaseMerge: r.AllowRebaseExplicit, AllowSquash: r.AllowSquash, AllowFastForwardOnly: r.AllowFastForwardOnly,
		AllowRebaseUpdate: r.AllowRebaseUpdate, DefaultDeleteBranchAfterMerge: r.DefaultDeleteBranchAfterMerge,
		DefaultMergeStyle: r.DefaultMergeStyle, DefaultAllowMaintainerEdit: r.DefaultAllowMaintainerEdit,
		DefaultUpdateStyle: r.DefaultUpdateStyle, Internal: !r.Private && v.Owner.Visibility == forge.VisibilityPrivate,
		ObjectFormatName: string(r.ObjectFormat), Topics: topics,
		Permissions: &permissionJSON{Admin: v.IsAdmin(), Push: v.CanWrite(), Pull: v.CanRead()},
	}
	if r.HasIssues {
		out.InternalTracker, out.ExternalTracker = r.InternalTracker, r.ExternalTracker
	}
	if r.Avatar != "" {
		out.AvatarURL = c.rootURL() + "repo-avatars/" + r.Avatar
	}
	if r.ForkID != 0 {
		out.Fork = true
		if p := c.a.cfg.Repos.Parent(c.r.Context(), c.actor, r); p != nil {
			parent := c.toRepoShallow(p)
			out.Parent = &parent
		}
	}
	if t, err := c.a.cfg.Repos.PendingTransfer(c.r.Context(), c.actor, r.ID); err == nil && t != nil {
		out.RepoTransfer = struct {
			Doer      userJSON `json:"doer"`
			Recipient userJSON `json:"recipient"`
			Teams     []any    `json:"teams"`
		}{c.toUser(t.Doer), c.toUser(t.Recipient), nil}
	}
	if r.HasWiki {
		out.ExternalWiki = r.ExternalWiki
	}
	return out
}
