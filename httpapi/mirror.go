package httpapi

import (
	"errors"
	"net/http"
	"time"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/httpapi/wire"
	"github.com/hearthforge/hearth/mirror"
)

// mirrorSync is POST /repos/{owner}/{repo}/mirror-sync: 200 with no body;
// 400 `Repository is not a mirror` / `Mirror feature is disabled`.
func (a *API) mirrorSync(c *call) {
	c.emptyOr(http.StatusOK, a.cfg.Mirror.SyncNow(c.r.Context(), c.actor, c.owner(), c.repo()),
		with(c.repoError, on(mirror.ErrNotMirror, http.StatusBadRequest), on(mirror.ErrDisabled, http.StatusBadRequest)))
}

// convertMirror is POST /repos/{owner}/{repo}/convert: the pull mirror
// becomes a normal repository; 200 with the repository, 422 `Repository is
// not a mirror`.
func (a *API) convertMirror(c *call) {
	ctx := c.r.Context()
	if err := a.cfg.Mirror.Convert(ctx, c.actor, c.owner(), c.repo()); err != nil {
		c.repoError(err, on(mirror.ErrNotMirror, http.StatusUnprocessableEntity))
		return
	}
	v, err := a.cfg.Repos.Get(ctx, c.actor, c.owner(), c.repo())
	if err != nil {
		c.repoError(err)
		return
	}
	c.writeRepo(http.StatusOK, v)
}

// pushMirrorError answers the push-mirror operations: Forgejo answers
// their validation failures (address, interval, disabled feature) 400.
func (c *call) pushMirrorError(err error) {
	if errors.Is(err, forge.ErrInvalid) {
		c.errorStatus(http.StatusBadRequest, err.Error())
		return
	}
	c.repoError(err)
}

func toPushMirror(repoName string, m *mirror.PushMirror) wire.PushMirror {
	out := wire.PushMirror{
		BranchFilter: m.BranchFilter, CreatedUnix: m.Created, Interval: m.Interval.String(),
		LastError: m.LastError, PublicKey: m.PublicKey, RemoteAddress: m.RemoteAddress,
		RemoteName: m.RemoteName, RepoName: repoName, SyncOnCommit: m.SyncOnCommit,
	}
	if !m.LastUpdate.IsZero() {
		t := m.LastUpdate
		out.LastUpdateUnix = &t
	}
	if m.Created.IsZero() {
		out.CreatedUnix = time.Unix(0, 0)
	}
	return out
}

// listPushMirrors is GET /repos/{owner}/{repo}/push_mirrors (paged).
func (a *API) listPushMirrors(c *call) {
	o := c.listOptions()
	list, total, err := a.cfg.Mirror.PushMirrors(c.r.Context(), c.actor, c.owner(), c.repo(), o)
	pageAs(c, list, total, o, err, c.pushMirrorError, each(func(m *mirror.PushMirror) wire.PushMirror { return toPushMirror(c.repo(), m) }))
}

// getPushMirror is GET /repos/{owner}/{repo}/push_mirrors/{name}.
func (a *API) getPushMirror(c *call) {
	m, err := a.cfg.Mirror.PushMirror(c.r.Context(), c.actor, c.owner(), c.repo(), c.pathValue("name"))
	if err != nil {
		c.pushMirrorError(err)
		return
	}
	c.json(http.StatusOK, toPushMirror(c.repo(), m))
}

// addPushMirror is POST /repos/{owner}/{repo}/push_mirrors: 200 with the
// push mirror (the credentials are never answered).
func (a *API) addPushMirror(c *call) {
	var opt wire.CreatePushMirrorOption
	if !c.decode(&opt) {
		return
	}
	m, err := a.cfg.Mirror.AddPushMirror(c.r.Context(), c.actor, c.owner(), c.repo(), mirror.PushMirrorOptions{
		RemoteAddress: deref(opt.RemoteAddress), RemoteUsername: deref(opt.RemoteUsername),
		RemotePassword: deref(opt.RemotePassword), Interval: deref(opt.Interval),
		SyncOnCommit: deref(opt.SyncOnCommit), UseSSH: deref(opt.UseSSH), BranchFilter: deref(opt.BranchFilter),
	})
	if err != nil {
		c.pushMirrorError(err)
		return
	}
	c.json(http.StatusOK, toPushMirror(c.repo(), m))
}

// deletePushMirror is DELETE /repos/{owner}/{repo}/push_mirrors/{name}: 204.
func (a *API) deletePushMirror(c *call) {
	if err := a.cfg.Mirror.DeletePushMirror(c.r.Context(), c.actor, c.owner(), c.repo(), c.pathValue("name")); err != nil {
		c.pushMirrorError(err)
		return
	}
	c.noContent()
}

// syncPushMirrors is POST /repos/{owner}/{repo}/push_mirrors-sync: 200
// with no body.
func (a *API) syncPushMirrors(c *call) {
	c.emptyOr(http.StatusOK, a.cfg.Mirror.SyncPushMirrors(c.r.Context(), c.actor, c.owner(), c.repo()), c.pushMirrorError)
}

// editMirrorFields applies the pull-mirror fields of an EditRepoOption
// (mirror_interval, enable_prune: each alone; silently ignored on a
// repository that is not a mirror, even an unparsable interval) through
// the mirror service, before the other fields, and takes them out of o.
// It answers the request and returns false on failure. Without a mirror
// service o is left as it is.
func (a *API) editMirrorFields(c *call, o *wire.EditRepoOption) bool {
	if a.cfg.Mirror == nil || (o.MirrorInterval == nil && o.EnablePrune == nil) {
		return true
	}
	err := a.cfg.Mirror.EditPullMirror(c.r.Context(), c.actor, c.owner(), c.repo(),
		mirror.PullEdit{Interval: o.MirrorInterval, EnablePrune: o.EnablePrune})
	if err != nil {
		c.repoError(err)
		return false
	}
	o.MirrorInterval, o.EnablePrune = nil, nil
	return true
}
