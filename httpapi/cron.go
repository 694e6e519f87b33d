package httpapi

import (
	"net/http"

	"github.com/hearthforge/hearth/httpapi/wire"
)

// listCron is GET /admin/cron: the server's periodic tasks, paged, with
// X-Total-Count.
func (a *API) listCron(c *call) {
	o := c.listOptions()
	tasks, total, err := a.cfg.Cron.List(c.r.Context(), c.actor, o)
	if err != nil {
		c.writeError(err)
		return
	}
	out := make([]wire.Cron, len(tasks))
	for i, t := range tasks {
		out[i] = wire.Cron{Name: t.Name, Schedule: t.Schedule, Next: t.Next, Prev: t.Prev, ExecTimes: t.ExecTimes}
	}
	c.writePage(total, o, out)
}

// runCron is POST /admin/cron/{task}: the task run now (204); an unknown
// task is 404.
func (a *API) runCron(c *call) {
	if err := a.cfg.Cron.Run(c.r.Context(), c.actor, c.pathValue("task")); err != nil {
		c.writeError(err)
		return
	}
	c.empty(http.StatusNoContent)
}
