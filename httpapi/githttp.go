package httpapi

import (
	"errors"
	"io"
	"net/http"
	"strings"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

// serveGit serves git's smart HTTP protocol at /{owner}/{repo}(.git)/…:
// clones and fetches need read access (anonymous on public repositories),
// pushes write access to a repository that is not archived. Credentials are
// those of the API (Basic with a password or a token, or a token header);
// tokens need read:repository, or write:repository to push. After a push
// the repository's stored state (size, branches) is refreshed.
func (a *API) serveGit(w http.ResponseWriter, r *http.Request) {
	c := a.newCall(w, r)
	defer c.recover()
	owner, name := chiParam(r, "owner"), strings.TrimSuffix(chiParam(r, "repo"), ".git")
	subpath := "/info/refs"
	if !strings.HasSuffix(r.URL.Path, subpath) {
		subpath = r.URL.Path[strings.LastIndex(r.URL.Path, "/"):]
	}
	push := subpath == "/git-receive-pack" || r.URL.Query().Get("service") == "git-receive-pack"

	deny := func(status int, msg string) {
		if status == http.StatusUnauthorized {
			w.Header().Set("WWW-Authenticate", `Basic realm="Hearth"`)
		}
		http.Error(w, msg, status)
	}
	actor, err := a.cfg.Auth.Authenticate(r.Context(), c.credentials())
	if err != nil {
		deny(http.StatusUnauthorized, err.Error())
		return
	}
	level := forge.AccessRead
	if push {
		level = forge.AccessWrite
	}
	if !actor.Allows(forge.CategoryRepository, level) {
		deny(http.StatusForbidden, "token does not have the required scope: "+level.String()+":repository")
		return
	}
	v, err := a.cfg.Repos.Get(r.Context(), actor, owner, name)
	switch {
	case errors.Is(err, forge.ErrNotFound) && !actor.IsSignedIn():
		deny(http.StatusUnauthorized, "authentication required")
		return
	case errors.Is(err, forge.ErrNotFound):
		deny(http.StatusNotFound, "repository not found")
		return
	case err != nil:
		c.serverError(err)
		return
	}
	if push {
		switch {
		case !actor.IsSignedIn():
			deny(http.StatusUnauthorized, "authentication required")
			return
		case !v.CanWrite():
			deny(http.StatusForbidden, "user should have a permission to write to a repo")
			return
		case v.Repo.Archived:
			deny(http.StatusForbidden, "repository is archived")
			return
		}
	}
	var updates []repos.RefUpdate
	if push && r.Method == http.MethodPost {
		var body io.ReadCloser
		updates, body, err = readPushCommands(r.Body, r.Header.Get("Content-Encoding") == "gzip")
		if err != nil {
			deny(http.StatusBadRequest, err.Error())
			return
		}
		r.Body = body
		if r.Header.Get("Content-Encoding") == "gzip" {
			r.Header.Del("Content-Encoding")
			r.ContentLength = -1 // now uncompressed: git reads to the end
		}
		// TODO(gitwire): enforce plan.FastForwardOnly in the transport.
		if _, err := a.cfg.Repos.CheckPush(r.Context(), actor, owner, name, updates); err != nil {
			deny(http.StatusForbidden, err.Error())
			return
		}
	}
	remote := ""
	if actor.IsSignedIn() {
		remote = actor.User.Name
	}
	a.cfg.Git.ServeGit(w, r, v.Repo.ID, subpath, remote)
	if push && r.Method == http.MethodPost {
		if err := a.cfg.Repos.AfterPush(r.Context(), actor, v.Repo.ID, updates); err != nil {
			a.log.ErrorContext(r.Context(), "after push", "repo", v.Repo.FullName(), "err", err)
		}
	}
}
