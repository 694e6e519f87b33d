package httpapi

import (
	"context"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

// The git transports (smart HTTP, githttp.go; SSH, gitssh.go) differ only
// in how they frame git's protocol and answer refusals. What a clone,
// fetch or push may do, and what happens after a push, is decided here,
// once, for both: authorizeGit, then for a push beginPush around git.

// authorizeGit decides a git request by actor on owner/name (as the path
// names it: the repository service drops a ".git" suffix and resolves
// the name, so every transport reaches the same repository). Every
// request needs an account that may act (forge.Actor.CheckState). A fetch
// needs read:repository and the code unit (repos.Service.Get; a
// repository whose code the actor may not read is not found). A push is
// repos.Service.CheckPush of updates (nil: may the actor push at all):
// account state, write access, archive, branch and tag protection, quota.
// It returns the repository and, for a push, its plan; the errors are the
// services' (an *forge.AccountStateError, forge.ErrNotFound,
// forge.ErrForbidden, a *repos.RefChangeError, a *quota.ExceededError…).
func (a *API) authorizeGit(ctx context.Context, actor forge.Actor, owner, name string, push bool, updates []repos.RefUpdate) (forge.ID, *repos.PushPlan, error) {
	if err := actor.CheckState(); err != nil {
		return 0, nil, err
	}
	if push {
		plan, err := a.cfg.Repos.CheckPush(ctx, actor, owner, name, updates)
		if err != nil {
			return 0, nil, err
		}
		return plan.View.Repo.ID, plan, nil
	}
	if err := actor.RequireScope(forge.AccessRead, forge.CategoryRepository); err != nil {
		return 0, nil, err
	}
	v, err := a.cfg.Repos.Get(ctx, actor, owner, name)
	if err == nil && !v.CanRead() {
		// A team whose code unit is none sees the repository (its
		// issues, say) but may not fetch its code.
		err = repos.ErrRepoNotFound
	}
	if err != nil {
		return 0, nil, err
	}
	return v.Repo.ID, nil, nil
}

// beginPush prepares git's run of an authorised push: the returned
// context carries the plan's quota allowance and reserver (git's
// pre-receive step reserves the pack's size: pushReservation), and end,
// called with the updates git applied, records them through the one
// after-push path (repos.Service.AfterPush: events, hooks, pull requests,
// the repository's size) even if the client hung up, then releases the
// reservation once the size is measured. A push whose after-push step
// failed keeps its reservation until it expires. label names the
// repository in the log.
func (a *API) beginPush(ctx context.Context, actor forge.Actor, plan *repos.PushPlan, label string) (context.Context, func([]repos.RefUpdate)) {
	ctx = repos.WithPushAllowance(ctx, plan.QuotaAllowance)
	ctx, release := a.pushReservation(ctx, plan) // quota_git.go
	repo := plan.View.Repo.ID
	return ctx, func(applied []repos.RefUpdate) {
		if len(applied) > 0 {
			if err := a.cfg.Repos.AfterPush(context.WithoutCancel(ctx), actor, repo, applied); err != nil {
				a.log.ErrorContext(ctx, "after push", "repo", label, "err", err)
				return // unmeasured: the reservation stays until it expires
			}
		}
		release()
	}
}

// remoteUser is the name git's hooks see as REMOTE_USER ("" for
// anonymous requests and deploy keys).
func remoteUser(actor forge.Actor) string {
	if actor.IsSignedIn() {
		return actor.User.Name
	}
	return ""
}
