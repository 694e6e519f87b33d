package httpapi

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/httpapi/wire"
	"github.com/hearthforge/hearth/issues"
)

// depError writes the errors of the dependency routes as Forgejo's: the
// issue and repository lookups name what failed
// (ctx.NotFound("IsErrIssueNotExist", err), "IsErrRepoNotExist"); every
// other refusal is a bare ctx.NotFound().
func (c *call) depError(err error) {
	var owner *repos.OwnerNotFoundError
	switch {
	case errors.Is(err, issues.ErrIssueNotFound):
		c.notFoundBody("IsErrIssueNotExist", err.Error())
	case errors.Is(err, issues.ErrRepoNotExist):
		c.notFoundBody("IsErrRepoNotExist", err.Error())
	case errors.As(err, &owner), errors.Is(err, repos.ErrRepoNotFound):
		c.repoError(err)
	default:
		c.issueError(err)
	}
}

// listDependencies is GET /issues/{index}/dependencies: the blockers,
// masked as package issues decides (a placeholder titled HIDDEN, or only
// number, title, state and repository).
func (a *API) listDependencies(c *call) {
	index, ok := c.indexParam()
	if !ok {
		return
	}
	list, err := a.cfg.Issues.Dependencies(c.r.Context(), c.actor, c.owner(), c.repo(), index, c.listOptions())
	if err != nil {
		c.issueError(err)
		return
	}
	ic := c.issueConv()
	out := make([]wire.Issue, 0, len(list))
	for _, d := range list {
		switch {
		case d.Hidden:
			out = append(out, wire.Issue{Title: issues.HiddenTitle, State: wire.StateType(issues.StateOpen),
				Labels: []wire.Label{}, Attachments: []wire.Attachment{}, User: ic.AsDoer(issues.Ghost())})
		case d.RepoOnly:
			is, r := d.Issue, d.Repo
			v := wire.Issue{Index: is.Index, Title: is.Title, State: wire.StateType(issues.StateOf(is.IsClosed)),
				Labels: []wire.Label{}, Attachments: []wire.Attachment{}, User: ic.AsDoer(issues.Ghost()),
				Repository: wire.RepositoryMeta{ID: r.ID, Name: r.Name, Owner: r.OwnerName, FullName: r.FullName()}}
			if is.IsPull {
				v.PullRequest = &wire.PullRequestMeta{}
			}
			out = append(out, v)
		default:
			out = append(out, ic.Issue(d.IssueView))
		}
	}
	c.json(http.StatusOK, out)
}

// listBlocks is GET /issues/{index}/blocks: the issues it blocks that the
// actor may read. Forgejo pages it in memory: a limit of 1 or less is 30,
// with no upper bound.
func (a *API) listBlocks(c *call) {
	index, ok := c.indexParam()
	if !ok {
		return
	}
	q := c.r.URL.Query()
	page, _ := strconv.Atoi(q.Get("page"))
	limit, _ := strconv.Atoi(q.Get("limit"))
	list, err := a.cfg.Issues.Blocks(c.r.Context(), c.actor, c.owner(), c.repo(), index, forge.ListOptions{Page: page, Limit: limit})
	jsonAs(c, http.StatusOK, list, err, with(c.issueError), c.issueConv().Issues)
}

// linkIssue is POST and DELETE of /issues/{index}/dependencies (the path
// issue depends on the body's) and /blocks (the body's depends on the path
// issue's): 201 with the path issue, for removals too (Forgejo).
func (a *API) linkIssue(dependency, add bool) func(*call) {
	return func(c *call) {
		index, ok := c.indexParam()
		var o wire.IssueMeta
		if !ok || !c.decode(&o) {
			return
		}
		ref := issues.IssueRef{Owner: valueOf(o.Owner), Repo: valueOf(o.Name), Index: valueOf(o.Index)}
		svc, ctx := a.cfg.Issues, c.r.Context()
		var v *issues.IssueView
		var err error
		switch {
		case dependency && add:
			v, err = svc.AddDependency(ctx, c.actor, c.owner(), c.repo(), index, ref)
		case dependency:
			v, err = svc.RemoveDependency(ctx, c.actor, c.owner(), c.repo(), index, ref)
		case add:
			v, err = svc.AddBlock(ctx, c.actor, c.owner(), c.repo(), index, ref)
		default:
			v, err = svc.RemoveBlock(ctx, c.actor, c.owner(), c.repo(), index, ref)
		}
		if err != nil {
			c.depError(err)
			return
		}
		c.json(http.StatusCreated, c.issueConv().Issue(v))
	}
}
