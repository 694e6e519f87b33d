package httpapi

import (
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/notify"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/httpapi/convert"
	"github.com/hearthforge/hearth/httpapi/wire"
)

// notifyQuery reads the list filters of GET /notifications and GET
// /repos/{owner}/{repo}/notifications as Forgejo's
// getFindNotificationOptions: `all`, `status-types` (default unread and
// pinned), `subject-type`, `since`/`before` (422 when they do not parse),
// `page`/`limit`. ok is false when it answered.
func (c *call) notifyQuery() (notify.Query, bool) {
	before, since, ok := c.beforeSince()
	if !ok {
		return notify.Query{}, false
	}
	q := c.r.URL.Query()
	out := notify.Query{Owner: c.owner(), Repo: c.repo(), All: formBool(q.Get("all")), Since: since, Before: before,
		Sources: notify.ParseSources(q["subject-type"]), ListOptions: c.listOptions()}
	if !out.All {
		out.Statuses = notify.ParseStatuses(q["status-types"], []string{"unread", "pinned"})
	}
	return out, true
}

// formBool is Forgejo's ctx.FormBool: strconv.ParseBool, false when it
// does not parse.
func formBool(s string) bool {
	b, _ := strconv.ParseBool(s)
	return b
}

// notifyToStatus reads `to-status` (default read; an unknown word is read too,
// as Forgejo's statusStringToNotificationStatus gives 0 and the handler
// then takes read).
func (c *call) notifyToStatus() notify.Status {
	if st, ok := notify.ParseStatus(c.r.URL.Query().Get("to-status")); ok {
		return st
	}
	return notify.StatusRead
}

// notifyError maps the service's errors: a repository the actor may not
// see as the repository routes do, the rest by category.
func (c *call) notifyError(err error) {
	var owner *repos.OwnerNotFoundError
	if errors.As(err, &owner) || errors.Is(err, repos.ErrRepoNotFound) {
		c.repoError(err)
		return
	}
	c.writeError(err)
}

// listNotifications is GET /notifications and GET
// /repos/{owner}/{repo}/notifications: 200 with X-Total-Count (Forgejo
// sets no Link header here).
func (a *API) listNotifications(c *call) {
	q, ok := c.notifyQuery()
	if !ok {
		return
	}
	list, total, err := a.cfg.Notify.List(c.r.Context(), c.actor, q)
	totalAs(c, list, total, err, c.notifyError, c.toThreads)
}

// markNotifications is PUT /notifications and PUT
// /repos/{owner}/{repo}/notifications: `last_read_at` (400 when it does not
// parse), `all`, `status-types` (default unread), `to-status` (default
// read); 205 with the changed threads.
func (a *API) markNotifications(c *call) {
	q := c.r.URL.Query()
	var lastRead time.Time
	if s := strings.TrimSpace(q.Get("last_read_at")); s != "" {
		t, err := time.Parse(time.RFC3339, s)
		if err != nil {
			c.errorStatus(http.StatusBadRequest, err.Error())
			return
		}
		lastRead = t
	}
	nq := notify.Query{Owner: c.owner(), Repo: c.repo(), All: formBool(q.Get("all")), Before: lastRead}
	if !nq.All {
		nq.Statuses = notify.ParseStatuses(q["status-types"], []string{"unread"})
	}
	list, err := a.cfg.Notify.Mark(c.r.Context(), c.actor, nq, c.notifyToStatus())
	jsonAs(c, http.StatusResetContent, list, err, c.notifyError, c.toThreads)
}

// newNotifications is GET /notifications/new: {"new": <unread threads>}.
func (a *API) newNotifications(c *call) {
	n, err := a.cfg.Notify.CountUnread(c.r.Context(), c.actor)
	if err != nil {
		c.notifyError(err)
		return
	}
	c.json(http.StatusOK, wire.NotificationCount{New: n})
}

// threadID reads {id}; a value that is not a number is no thread (Forgejo
// parses it to 0, which no thread has).
func (c *call) threadID() forge.ID {
	id, _ := strconv.ParseInt(c.pathValue("id"), 10, 64)
	return id
}

// getThread is GET /notifications/threads/{id}.
func (a *API) getThread(c *call) {
	v, err := a.cfg.Notify.Thread(c.r.Context(), c.actor, c.threadID())
	if err != nil {
		c.notifyError(err)
		return
	}
	c.threadAnswer(http.StatusOK, v)
}

// markThread is PATCH /notifications/threads/{id}: 205 with the thread.
func (a *API) markThread(c *call) {
	v, err := a.cfg.Notify.MarkThread(c.r.Context(), c.actor, c.threadID(), c.notifyToStatus())
	if err != nil {
		c.notifyError(err)
		return
	}
	c.threadAnswer(http.StatusResetContent, v)
}

func (c *call) threadAnswer(status int, v *notify.View) {
	out := c.toThreads([]*notify.View{v})
	if len(out) == 0 {
		c.notFound()
		return
	}
	c.json(status, out[0])
}

// toThreads converts a page of threads as Forgejo's ToNotifications: the
// repositories in one read (repos.Service.ViewsByID) and one conversion,
// then pure conversions. A thread whose repository the actor may not see
// (gone since the service read it) is left out.
func (c *call) toThreads(list []*notify.View) []wire.NotificationThread {
	ids := make([]forge.ID, 0, len(list))
	for _, v := range list {
		ids = append(ids, v.Thread.RepoID)
	}
	views, err := c.a.cfg.Repos.ViewsByID(c.r.Context(), c.actor, ids)
	if err != nil {
		c.a.log.WarnContext(c.r.Context(), "api: load notification repositories", "err", err)
	}
	var uniq []*repos.View
	at := map[forge.ID]int{}
	for _, id := range ids {
		if _, seen := at[id]; !seen && views[id] != nil {
			at[id] = len(uniq)
			uniq = append(uniq, views[id])
		}
	}
	repoJSON, err := c.toRepos(uniq)
	if err != nil {
		c.a.log.WarnContext(c.r.Context(), "api: load notification repositories", "err", err)
		uniq, at = nil, nil
	}
	root := c.rootURL()
	out := make([]wire.NotificationThread, 0, len(list))
	for _, v := range list {
		i, ok := at[v.Thread.RepoID]
		if !ok {
			continue
		}
		r := repoJSON[i]
		r.Permissions = nil // Forgejo removes them (convert.ToNotificationThread)
		out = append(out, threadFrom(root, uniq[i].Repo, r, v))
	}
	return out
}

// threadFrom is Forgejo's convert.ToNotificationThread for an issue or a
// pull request's thread: a pure function of the thread, its repository
// and the root URL.
func threadFrom(root string, repo *forge.Repository, rj wire.Repository, v *notify.View) wire.NotificationThread {
	t, s := v.Thread, v.Subject
	out := wire.NotificationThread{ID: t.ID, Repository: rj, Unread: t.Status == notify.StatusUnread,
		Pinned: t.Status == notify.StatusPinned, UpdatedAt: apiTime(t.Updated),
		URL: root + "api/v1/notifications/threads/" + strconv.FormatInt(t.ID, 10)}
	api, html := convert.RepoAPIURL(root, repo), convert.RepoWebURL(root, repo)
	kind, typ := "issues", "Issue"
	if t.Source == notify.SourcePull {
		kind, typ = "pulls", "Pull"
	}
	index := strconv.FormatInt(s.Index, 10)
	state := "open"
	if s.IsClosed {
		state = "closed"
	}
	out.Subject = wire.NotificationSubject{Type: typ, Title: s.Title, State: state,
		URL: api + "/issues/" + index, HTMLURL: html + "/" + kind + "/" + index}
	if s.LastCommentID != 0 {
		cid := strconv.FormatInt(s.LastCommentID, 10)
		out.Subject.LatestCommentURL = api + "/issues/comments/" + cid
		out.Subject.LatestCommentHTMLURL = out.Subject.HTMLURL + "#issuecomment-" + url.PathEscape(cid)
	}
	return out
}
