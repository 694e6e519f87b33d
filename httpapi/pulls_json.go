package httpapi

import (
	"strings"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/httpapi/convert"
	"github.com/hearthforge/hearth/httpapi/wire"
	"github.com/hearthforge/hearth/issues"
)

// pullsJSON converts a page of pull requests: one repos.ViewsOf and one
// toRepos for the base and head repositories of the whole page, then pure
// conversions.
func (c *call) pullsJSON(list []*issues.PullView) []wire.PullRequest {
	seen := map[forge.ID]bool{}
	var held []*forge.Repository
	for _, v := range list {
		for _, r := range []*forge.Repository{v.Repo, v.HeadRepo} {
			if r != nil && !seen[r.ID] {
				seen[r.ID] = true
				held = append(held, r)
			}
		}
	}
	pc := convert.Pulls{Issues: c.issueConv(), Repos: map[forge.ID]wire.Repository{}}
	if len(held) > 0 {
		views, err := c.a.cfg.Repos.ViewsOf(c.r.Context(), c.actor, held)
		var rs []wire.Repository
		if err == nil {
			rs, err = c.toRepos(views)
		}
		if err != nil {
			c.a.log.WarnContext(c.r.Context(), "api: load pull request repositories", "err", err)
		}
		for _, r := range rs {
			pc.Repos[r.ID] = r
		}
	}
	out := make([]wire.PullRequest, len(list))
	for i, v := range list {
		out[i] = pc.Pull(v)
	}
	return out
}

// pullJSON converts one pull request.
func (c *call) pullJSON(v *issues.PullView) wire.PullRequest {
	return c.pullsJSON([]*issues.PullView{v})[0]
}

// commitsJSON converts commits as Forgejo's ToCommit with the stats, the
// files when files, the verification (unsigned) when verification, and the
// accounts of the author and committer e-mails (users, by lower-cased
// e-mail) when known.
func commitsJSON(root string, r *forge.Repository, list []*repos.Commit, users map[string]*forge.User, files, verification bool, user func(*forge.User) wire.User) []wire.Commit {
	api, html := convert.RepoAPIURL(root, r), convert.RepoWebURL(root, r)
	out := make([]wire.Commit, len(list))
	for i, cm := range list {
		out[i] = toCommit(api, html, cm, files, true)
		if out[i].Stats == nil {
			out[i].Stats = &wire.CommitStats{}
		}
		if !verification {
			out[i].Commit.Verification = nil
		}
		if u := users[strings.ToLower(cm.Author.Email)]; u != nil {
			out[i].Author = ptrTo(user(u))
		}
		if u := users[strings.ToLower(cm.Committer.Email)]; u != nil {
			out[i].Committer = ptrTo(user(u))
		}
	}
	return out
}
