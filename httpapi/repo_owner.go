package httpapi

import (
	"net/http"
	"strings"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/httpapi/wire"
)

// transferRepo is POST /repos/{owner}/{repo}/transfer: 202 with the
// repository when it moved at once, 201 with it showing the pending
// transfer when the recipient must accept (Forgejo's repo.Transfer).
func (a *API) transferRepo(c *call) {
	var o wire.TransferRepoOption
	if !c.decode(&o) || !c.present("NewOwner", o.NewOwner != "") {
		return
	}
	var teams []forge.ID
	if o.TeamIDs != nil {
		teams = append([]forge.ID{}, *o.TeamIDs...)
	}
	v, err := a.cfg.Repos.StartTransfer(c.r.Context(), c.actor, c.owner(), c.repo(), o.NewOwner, teams)
	if err != nil {
		c.repoError(err, on(forge.ErrConflict, http.StatusUnprocessableEntity))
		return
	}
	status := http.StatusCreated
	if strings.EqualFold(v.Repo.OwnerName, o.NewOwner) {
		status = http.StatusAccepted
	}
	c.writeRepo(status, v)
}

// acceptTransfer is POST /repos/{owner}/{repo}/transfer/accept: 202.
func (a *API) acceptTransfer(c *call) {
	v, err := a.cfg.Repos.AcceptTransfer(c.r.Context(), c.actor, c.owner(), c.repo())
	if err != nil {
		c.repoError(err, on(forge.ErrConflict, http.StatusUnprocessableEntity))
		return
	}
	c.writeRepo(http.StatusAccepted, v)
}

// rejectTransfer is POST /repos/{owner}/{repo}/transfer/reject: 200.
func (a *API) rejectTransfer(c *call) {
	v, err := a.cfg.Repos.RejectTransfer(c.r.Context(), c.actor, c.owner(), c.repo())
	if err != nil {
		c.repoError(err)
		return
	}
	c.writeRepo(http.StatusOK, v)
}

// createFork is POST /repos/{owner}/{repo}/forks: 202 with the fork.
func (a *API) createFork(c *call) {
	var o wire.CreateForkOption
	if !c.decode(&o) {
		return
	}
	v, err := a.cfg.Repos.ForkInto(c.r.Context(), c.actor, c.owner(), c.repo(), valueOf(o.Name), valueOf(o.Organization))
	if err != nil {
		c.repoError(err)
		return
	}
	c.writeRepo(http.StatusAccepted, v)
}

// listForks is GET /repos/{owner}/{repo}/forks.
func (a *API) listForks(c *call) {
	v, err := a.cfg.Repos.Get(c.r.Context(), c.actor, c.owner(), c.repo())
	if err != nil {
		c.repoError(err)
		return
	}
	o := c.listOptions()
	list, total, err := a.cfg.Repos.List(c.r.Context(), c.actor, repos.RepoFilter{ForkOf: v.Repo.ID}, o)
	if err != nil {
		c.repoError(err)
		return
	}
	c.writeRepos(list, total, o)
}
