package httpapi

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

// gitRequest is what a smart HTTP request asks for.
type gitRequest struct {
	// service is "git-upload-pack" or "git-receive-pack".
	service string
	// advertise is set for GET info/refs?service=….
	advertise bool
}

// parseGitRequest reads the service of a smart HTTP request from its
// method, path and query, refusing ambiguity: info/refs needs service
// query values that all agree (the dumb protocol, without one, is
// refused); on git-upload-pack and git-receive-pack any service query value
// must name the path's service. The status is 400 or 403 with the message.
func parseGitRequest(method, path string, query map[string][]string) (gitRequest, int, string) {
	vals := query["service"]
	agree := func(want string) bool {
		for _, v := range vals {
			if v != want {
				return false
			}
		}
		return true
	}
	switch {
	case strings.HasSuffix(path, "/info/refs") && (method == http.MethodGet || method == http.MethodHead):
		if len(vals) == 0 {
			return gitRequest{}, http.StatusForbidden, "the dumb git protocol is not supported"
		}
		if !agree(vals[0]) {
			return gitRequest{}, http.StatusBadRequest, "conflicting service parameters"
		}
		if vals[0] != "git-upload-pack" && vals[0] != "git-receive-pack" {
			return gitRequest{}, http.StatusForbidden, "unsupported service"
		}
		return gitRequest{service: vals[0], advertise: true}, 0, ""
	case method == http.MethodPost && (strings.HasSuffix(path, "/git-upload-pack") || strings.HasSuffix(path, "/git-receive-pack")):
		svc := path[strings.LastIndex(path, "/")+1:]
		if !agree(svc) {
			return gitRequest{}, http.StatusBadRequest, "service parameter does not match the request path"
		}
		return gitRequest{service: svc}, 0, ""
	}
	return gitRequest{}, http.StatusNotFound, "not found"
}

// serveGit serves git's smart HTTP protocol at /{owner}/{repo}(.git)/…:
// info/refs?service=…, git-upload-pack and git-receive-pack. Credentials
// are those of the API (Basic with a password or a token, or a token
// header). Every request needs an account that may act (Actor.CheckState:
// 403 with Forgejo's message otherwise); the domain decides access: clones
// and fetches repos.Service.Get (read:repository scope), pushes and their
// advertisement repos.Service.CheckPush, whose plan's fast-forward-only
// references the git server enforces. Exactly the authorised service is
// run. Anonymous requests refused are answered 401 with a Basic challenge
// so that git asks for credentials. After a push the updates git applied
// are handed to repos.Service.AfterPush.
func (a *API) serveGit(w http.ResponseWriter, r *http.Request) {
	c := a.newCall(w, r)
	defer c.recover()
	// The domain drops one ".git" suffix itself: trimming here too would
	// make /{owner}/{repo}.git.git name {repo}.
	owner, name := chiParam(r, "owner"), chiParam(r, "repo")
	gr, status, msg := parseGitRequest(r.Method, r.URL.Path, r.URL.Query())
	if status != 0 {
		http.Error(w, msg, status)
		return
	}
	push := gr.service == "git-receive-pack"

	actor, err := a.cfg.Auth.Authenticate(r.Context(), c.credentials())
	if err != nil {
		var state *forge.AccountStateError
		if errors.As(err, &state) {
			http.Error(w, err.Error(), http.StatusForbidden)
			return
		}
		gitDeny(w, http.StatusUnauthorized, err.Error())
		return
	}
	if err := actor.CheckState(); err != nil {
		http.Error(w, err.Error(), http.StatusForbidden)
		return
	}

	var (
		repo    forge.ID
		updates []repos.RefUpdate
		caps    []string
		ffOnly  []string
		end     func([]repos.RefUpdate)
	)
	if push {
		if r.Method == http.MethodPost {
			var body io.ReadCloser
			gz := r.Header.Get("Content-Encoding") == "gzip"
			updates, caps, body, err = readPushCommands(r.Body, gz)
			if err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			r.Body = body
			if gz {
				r.Header.Del("Content-Encoding")
				r.ContentLength = -1 // now uncompressed: git reads to the end
			}
		}
		var plan *repos.PushPlan
		repo, plan, err = a.authorizeGit(r.Context(), actor, owner, name, true, updates) // gitcore.go
		// A quota refusal: quota_git.go.
		if err != nil && a.quotaPushRefusal(w, c, updates, caps, err) {
			return
		}
		if err != nil {
			// A signed-in writer refused an update (protected branch or
			// tag) reads why in git's own report, as from a declined hook.
			if refusal := pushRefusal(updates, caps, err.Error()); refusal != nil && actor.IsSignedIn() &&
				errors.Is(err, forge.ErrForbidden) && canWrite(r, a, actor, owner, name) {
				w.Header().Set("Content-Type", "application/x-git-receive-pack-result")
				w.Header().Set("Cache-Control", "no-cache, max-age=0, must-revalidate")
				w.Write(refusal)
				return
			}
			a.gitError(w, c, actor, err)
			return
		}
		ffOnly = plan.FastForwardOnly
		var ctx context.Context
		ctx, end = a.beginPush(r.Context(), actor, plan, owner+"/"+name) // gitcore.go
		r = r.WithContext(ctx)
	} else {
		if repo, _, err = a.authorizeGit(r.Context(), actor, owner, name, false, nil); err != nil {
			a.gitError(w, c, actor, err)
			return
		}
	}

	applied := a.cfg.Git.ServeGitRPC(w, r, repo, gr.service, gr.advertise, remoteUser(actor), ffOnly)
	if push {
		// The refs moved: record it even if the client hangs up now.
		end(applied)
	}
}

// gitError answers a refusal by the domain: 401 with a challenge for
// anonymous requests refused or not found, 404, 403 with the message, 500.
func (a *API) gitError(w http.ResponseWriter, c *call, actor forge.Actor, err error) {
	switch {
	case !actor.IsSignedIn() && (errors.Is(err, forge.ErrNotFound) || errors.Is(err, forge.ErrForbidden) ||
		errors.Is(err, forge.ErrUnauthenticated)):
		gitDeny(w, http.StatusUnauthorized, "authentication required")
	case errors.Is(err, forge.ErrUnauthenticated):
		gitDeny(w, http.StatusUnauthorized, err.Error())
	case errors.Is(err, forge.ErrNotFound):
		http.Error(w, "repository not found", http.StatusNotFound)
	case errors.Is(err, forge.ErrForbidden), errors.Is(err, forge.ErrArchived), errors.Is(err, forge.ErrInvalid):
		http.Error(w, err.Error(), http.StatusForbidden)
	default:
		c.serverError(err)
	}
}

// gitDeny answers status with msg, with a Basic challenge for 401.
func gitDeny(w http.ResponseWriter, status int, msg string) {
	if status == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", `Basic realm="Hearth"`)
	}
	http.Error(w, msg, status)
}

// canWrite reports whether the actor may push to owner/name at all, so that
// only refusals of particular updates are reported in git's report.
func canWrite(r *http.Request, a *API, actor forge.Actor, owner, name string) bool {
	_, _, err := a.authorizeGit(r.Context(), actor, owner, name, true, nil)
	return err == nil
}
