package httpapi

import (
	"net/http"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/httpapi/wire"
)

// toStatus converts a commit status as Forgejo's convert.ToCommitStatus;
// creator is the converted creator (nil when unknown).
func toStatus(api string, st *repos.CommitStatus, creator *wire.User) wire.CommitStatus {
	return wire.CommitStatus{ID: st.ID, Status: string(st.State), TargetURL: st.TargetURL, Description: st.Description,
		URL: api + "/statuses/" + st.SHA, Context: st.Context, Creator: creator,
		Created: apiTime(st.Created), Updated: apiTime(st.Updated)}
}

func (c *call) toStatus(r *forge.Repository, st *repos.CommitStatus) wire.CommitStatus {
	var creator *wire.User
	if st.Creator != nil {
		u := c.toUser(st.Creator)
		creator = &u
	}
	return toStatus(c.repoAPIURL(r), st, creator)
}

// createStatus is POST /repos/{owner}/{repo}/statuses/{sha}: 201.
func (a *API) createStatus(c *call) {
	var o wire.CreateStatusOption
	if !c.decode(&o) {
		return
	}
	v, st, err := a.cfg.Repos.CreateStatus(c.r.Context(), c.actor, c.owner(), c.repo(), c.pathValue("sha"), repos.CommitStatus{
		State: repos.StatusState(deref(o.State)), TargetURL: deref(o.TargetURL), Description: deref(o.Description), Context: deref(o.Context)})
	if err != nil {
		c.repoError(err, on(forge.ErrInvalid, http.StatusBadRequest))
		return
	}
	c.json(http.StatusCreated, c.toStatus(v.Repo, st))
}

// listStatuses is GET .../statuses/{sha} and .../commits/{ref}/statuses.
func (a *API) listStatuses(param string) func(*call) {
	return func(c *call) {
		q := c.r.URL.Query()
		o := c.listOptions()
		v, _, list, total, err := a.cfg.Repos.ListStatuses(c.r.Context(), c.actor, c.owner(), c.repo(), c.pathValue(param),
			repos.StatusFilter{State: repos.StatusState(q.Get("state")), Sort: q.Get("sort")}, o)
		pageAs(c, list, total, o, err, with(c.repoError), each(func(st *repos.CommitStatus) wire.CommitStatus { return c.toStatus(v.Repo, st) }))
	}
}

// combinedStatus is GET /repos/{owner}/{repo}/commits/{ref}/status. A
// commit without statuses (or a ref naming none) answers Forgejo's empty
// CombinedStatus (GetCombinedCommitStatusByRef: `&api.CombinedStatus{}`).
func (a *API) combinedStatus(c *call) {
	v, sha, state, latest, err := a.cfg.Repos.CombinedStatus(c.r.Context(), c.actor, c.owner(), c.repo(), c.pathValue("ref"))
	if err != nil {
		c.repoError(err)
		return
	}
	if len(latest) == 0 {
		c.json(http.StatusOK, wire.CombinedStatus{})
		return
	}
	statuses := make([]wire.CommitStatus, len(latest))
	for i, st := range latest {
		statuses[i] = c.toStatus(v.Repo, st)
	}
	api := c.repoAPIURL(v.Repo)
	repo, err := c.toRepo(v)
	if err != nil {
		c.writeError(err)
		return
	}
	c.json(http.StatusOK, wire.CombinedStatus{State: string(state), SHA: sha, TotalCount: int64(len(latest)),
		Statuses: statuses, Repository: &repo, CommitURL: api + "/commits/" + sha, URL: api + "/commits/" + sha + "/status"})
}

// deref is valueOf (its older name, kept for its callers).
func deref[T any](p *T) T { return valueOf(p) }
