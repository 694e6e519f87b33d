package httpapi

import (
	"net/http"
	"time"
)

// setIssueDeadline is POST /repos/{owner}/{repo}/issues/{index}/deadline:
// `due_date` sets the due date to the end of its day, null or absent
// clears it; 201 with the deadline stored, which Forgejo shows as the zero
// time when cleared; 403 `Not repo writer` for others.
func (a *API) setIssueDeadline(c *call) {
	index, ok := c.indexParam()
	if !ok {
		return
	}
	var o struct {
		Deadline *time.Time `json:"due_date"`
	}
	if !c.decode(&o) {
		return
	}
	d, err := a.cfg.Issues.SetDeadline(c.r.Context(), c.actor, c.owner(), c.repo(), index, o.Deadline)
	if err != nil {
		c.issueError(err)
		return
	}
	d = d.UTC()
	c.json(http.StatusCreated, struct {
		Deadline *time.Time `json:"due_date"`
	}{&d})
}
