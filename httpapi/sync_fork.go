package httpapi

import (
	"errors"
	"net/http"

	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/httpapi/wire"
)

// syncForkInfo is GET /repos/{owner}/{repo}/sync_fork[/{branch}]
// (Forgejo's SyncForkDefaultInfo / SyncForkBranchInfo): 200 SyncForkInfo;
// 400 `The Repo must be a fork`; 404 with the branch as the message when
// the fork lacks it.
func (a *API) syncForkInfo(c *call) {
	info, err := a.cfg.Repos.SyncForkInfo(c.r.Context(), c.actor, c.owner(), c.repo(), c.pathValue("branch"))
	if err != nil {
		c.syncForkError(err)
		return
	}
	c.json(http.StatusOK, wire.SyncForkInfo{Allowed: info.Allowed, BaseCommit: info.BaseCommit,
		CommitsBehind: int64(info.CommitsBehind), ForkCommit: info.ForkCommit})
}

// syncFork is POST /repos/{owner}/{repo}/sync_fork[/{branch}] (Forgejo's
// SyncForkDefault / SyncForkBranch): 204 once the fork's branch is
// fast-forwarded; 400 `The Repo must be a fork` / `You can't sync this
// branch`; 404 for a missing branch; 423 archived; 403 without write
// access; 413 over quota.
func (a *API) syncFork(c *call) {
	c.noContentOr(a.cfg.Repos.SyncFork(c.r.Context(), c.actor, c.owner(), c.repo(), c.pathValue("branch")), c.syncForkError)
}

// syncForkError answers fork sync's refusals as Forgejo: a missing branch
// is ctx.NotFound(err, branch) (the branch name as the message, the error
// in `errors`), the fork checks 400.
func (c *call) syncForkError(err error) {
	var nb *repos.BranchNotExistError
	if errors.As(err, &nb) {
		c.notFoundBody(nb.Branch, nb.Error())
		return
	}
	c.repoError(err, on(repos.ErrNotFork, http.StatusBadRequest), on(repos.ErrCannotSync, http.StatusBadRequest))
}
