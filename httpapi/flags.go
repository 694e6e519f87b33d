package httpapi

import (
	"net/http"

	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/httpapi/wire"
)

// flagError writes the flag operations' errors: an unknown flag is
// Forgejo's default 404 body.
func (c *call) flagError(err error) {
	if err == repos.ErrFlagNotFound {
		c.notFound()
		return
	}
	c.repoError(err)
}

// listFlags is GET /repos/{owner}/{repo}/flags.
func (a *API) listFlags(c *call) {
	flags, err := a.cfg.Repos.ListFlags(c.r.Context(), c.actor, c.owner(), c.repo())
	if err != nil {
		c.flagError(err)
		return
	}
	c.setTotalCount(int64(len(flags)))
	c.json(http.StatusOK, flags)
}

// replaceFlags is PUT /repos/{owner}/{repo}/flags.
func (a *API) replaceFlags(c *call) {
	var opt wire.ReplaceFlagsOption
	if !c.decode(&opt) {
		return
	}
	var flags []string
	if opt.Flags != nil {
		flags = *opt.Flags
	}
	a.flagsDone(c, a.cfg.Repos.ReplaceFlags(c.r.Context(), c.actor, c.owner(), c.repo(), flags))
}

// deleteAllFlags is DELETE /repos/{owner}/{repo}/flags.
func (a *API) deleteAllFlags(c *call) {
	a.flagsDone(c, a.cfg.Repos.ReplaceFlags(c.r.Context(), c.actor, c.owner(), c.repo(), nil))
}

// checkFlag is GET /repos/{owner}/{repo}/flags/{flag}: 204 when the
// repository has it, 404 when not.
func (a *API) checkFlag(c *call) {
	a.flagsDone(c, a.cfg.Repos.HasFlag(c.r.Context(), c.actor, c.owner(), c.repo(), c.pathValue("flag")))
}

// addFlag is PUT /repos/{owner}/{repo}/flags/{flag}.
func (a *API) addFlag(c *call) {
	a.flagsDone(c, a.cfg.Repos.AddFlag(c.r.Context(), c.actor, c.owner(), c.repo(), c.pathValue("flag")))
}

// deleteFlag is DELETE /repos/{owner}/{repo}/flags/{flag}.
func (a *API) deleteFlag(c *call) {
	a.flagsDone(c, a.cfg.Repos.DeleteFlag(c.r.Context(), c.actor, c.owner(), c.repo(), c.pathValue("flag")))
}

// flagsDone answers 204, or err.
func (a *API) flagsDone(c *call, err error) {
	if err != nil {
		c.flagError(err)
		return
	}
	c.noContent()
}

// topicSearchResults is Forgejo's TopicSearch answer.
type topicSearchResults struct {
	Topics []wire.TopicResponse `json:"topics"`
}

// searchTopics is GET /topics/search: Forgejo's Link header and
// X-Total-Count, the topics most used first.
func (a *API) searchTopics(c *call) {
	o := c.listOptions()
	list, total, err := a.cfg.Repos.SearchTopics(c.r.Context(), c.actor, c.r.URL.Query().Get("q"), o)
	if err != nil {
		c.repoError(err)
		return
	}
	out := topicSearchResults{Topics: make([]wire.TopicResponse, len(list))}
	for i, tp := range list {
		out.Topics[i] = wire.TopicResponse{ID: tp.ID, Name: tp.Name, RepoCount: tp.RepoCount, Created: tp.Created, Updated: tp.Updated}
	}
	c.writePage(total, o, out)
}
