package httpapi

import (
	"context"
	"errors"
	"net/http"
	"sync"

	"github.com/hearthforge/hearth/forge"

	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/quota"
)

// quotaPushRefusal answers a push the owner's quota refuses
// (repos.Service.CheckPush's *quota.ExceededError), before git runs: in
// git's own report, each update refused with Forgejo's "Quota exceeded",
// when the client reads reports; else 413 with the quota body. It reports
// whether err was such a refusal.
func (a *API) quotaPushRefusal(w http.ResponseWriter, c *call, updates []repos.RefUpdate, caps []string, err error) bool {
	if !errors.Is(err, quota.ErrExceeded) {
		return false
	}
	if report := pushRefusal(updates, caps, "Quota exceeded"); report != nil {
		w.Header().Set("Content-Type", "application/x-git-receive-pack-result")
		w.Header().Set("Cache-Control", "no-cache, max-age=0, must-revalidate")
		w.Write(report)
		return true
	}
	return c.writeQuotaExceeded(err)
}

// pushReservation makes a push (run with ctx) reserve quota at git's
// pre-receive step, when the size of what it brought is known
// (repos.Ports.ReservePush): it returns ctx carrying the reserver, and the
// release to call once the push ended and AfterPush measured the size (or
// at once, when no reference moved). A push quota does not limit
// (plan.QuotaAllowance -1: quota disabled, or the push only deletes)
// reserves nothing.
func (a *API) pushReservation(ctx context.Context, plan *repos.PushPlan) (context.Context, func()) {
	if plan.QuotaAllowance < 0 {
		return ctx, func() {}
	}
	var (
		mu   sync.Mutex
		held []forge.ID
	)
	ports := a.cfg.RepoPorts
	reserve := func(ctx context.Context, n int64) error {
		if ports == nil {
			err := errors.New("httpapi: Config.RepoPorts is required to reserve a push's quota")
			a.log.ErrorContext(ctx, "push refused", "err", err)
			return err
		}
		id, err := ports.ReservePush(ctx, plan, n)
		mu.Lock()
		held = append(held, id)
		mu.Unlock()
		return err
	}
	release := func() {
		mu.Lock()
		defer mu.Unlock()
		for _, id := range held {
			ports.ReleasePush(context.WithoutCancel(ctx), id)
		}
	}
	return repos.WithPushReserver(ctx, reserve), release
}
