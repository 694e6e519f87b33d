package httpapi

import (
	"net/http"

	"github.com/hearthforge/hearth/httpapi/wire"
)

// compare is GET /repos/{owner}/{repo}/compare/{basehead} (Forgejo's
// CompareDiff): "base...head" or "base..head", head possibly
// "owner:branch"; the commits with their stats (and files unless
// `files=false`), and the changed files.
func (a *API) compare(c *call) {
	v, err := a.cfg.Issues.Compare(c.r.Context(), c.actor, c.owner(), c.repo(), c.pathValue("basehead"))
	if err != nil {
		c.pullError(err)
		return
	}
	out := wire.Compare{TotalCommits: int64(v.TotalCommits),
		Commits: commitsJSON(c.rootURL(), v.Repo, v.Commits, v.Users, c.boolParam("files"), c.boolParam("verification"), c.toUser),
		Files:   make([]wire.CommitAffectedFiles, len(v.Files))}
	for i, f := range v.Files {
		out.Files[i] = wire.CommitAffectedFiles{Filename: f.Filename, Status: f.Status}
	}
	c.json(http.StatusOK, out)
}
