package httpapi

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/issues"
)

// searchIssues is GET /repos/issues/search: issues across the repositories
// the caller may read, with Forgejo's SearchIssues parameters (`limit` 0
// or absent is 20, the UI's page, and at most 50; `per_page` is not
// read). An unknown owner or team, or a team without owner, is 400 with
// the error's text; an unparsable since/before 422.
func (a *API) searchIssues(c *call) {
	before, since, ok := c.beforeSince()
	if !ok {
		return
	}
	q := c.r.URL.Query()
	flag := func(name string) bool { b, _ := strconv.ParseBool(q.Get(name)); return b }
	page, _ := strconv.Atoi(q.Get("page"))
	limit, _ := strconv.Atoi(q.Get("limit"))
	if limit <= 0 {
		limit = issues.SearchPageSize
	}
	o := forge.ListOptions{Page: page, Limit: limit}.Normalize()
	opt := issues.SearchOption{
		State: issueState(q.Get("state")), Type: issueType(q.Get("type")),
		Labels: splitList(strings.TrimSpace(q.Get("labels"))), Milestones: splitList(strings.TrimSpace(q.Get("milestones"))),
		Keyword: strings.TrimSpace(q.Get("q")), Since: since, Before: before,
		Assigned: flag("assigned"), Created: flag("created"), Mentioned: flag("mentioned"),
		Owner: q.Get("owner"), Team: q.Get("team"), Sort: issues.IssueSort(q.Get("sort")), ListOptions: o,
	}
	list, total, err := a.cfg.Issues.Search(c.r.Context(), c.actor, opt)
	if err != nil {
		// Forgejo: ctx.Error(400, "Owner not found" / "Team not found", err).
		c.writeError(err, on(forge.ErrNotFound, http.StatusBadRequest), on(forge.ErrInvalid, http.StatusBadRequest))
		return
	}
	c.writePage(total, o, c.issueConv().Issues(list))
}
