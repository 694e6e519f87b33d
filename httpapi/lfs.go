package httpapi

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/lfs"
	"github.com/hearthforge/hearth/quota"
)

// lfsMediaType is Git LFS's media type: the batch API's requests and
// answers, and every error body of the LFS routes.
const lfsMediaType = "application/vnd.git-lfs+json"

// mountLFS serves Git LFS beside smart HTTP, as Forgejo's
// /{owner}/{repo}.git/info/lfs group: the batch API, object upload (PUT
// objects/{oid}/{size}, or objects/{oid} with a Content-Length), download
// (GET objects/{oid}[/{filename}]) and verify. Anything else below
// info/lfs (the locks API among it) is 404 in LFS's error shape; git-lfs
// carries on without locks.
func (a *API) mountLFS(r chi.Router) {
	const p = "/{owner}/{repo}/info/lfs"
	r.Post(p+"/objects/batch", a.lfsHandler(a.lfsBatch))
	r.Put(p+"/objects/{oid}/{size}", a.lfsHandler(a.lfsUpload))
	r.Put(p+"/objects/{oid}", a.lfsHandler(a.lfsUpload))
	r.Get(p+"/objects/{oid}/{filename}", a.lfsHandler(a.lfsDownload))
	r.Get(p+"/objects/{oid}", a.lfsHandler(a.lfsDownload))
	r.Post(p+"/verify", a.lfsHandler(a.lfsVerify))
	r.HandleFunc(p+"/*", func(w http.ResponseWriter, _ *http.Request) { lfsStatus(w, http.StatusNotFound, "Not Found") })
}

// lfsHandler authenticates the request as smart HTTP does (Basic with a
// password or a token, or a token header) and runs h with the actor.
func (a *API) lfsHandler(h func(c *call)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		c := a.newCall(w, r)
		defer c.recover()
		actor, err := a.cfg.Auth.Authenticate(r.Context(), c.credentials())
		if err != nil {
			c.lfsError(err)
			return
		}
		c.actor = actor
		h(c)
	}
}

// lfsStatus writes LFS's error body `{"message"}` with its media type
// (Forgejo's writeStatusMessage); 401 carries the challenge git-lfs answers
// with credentials.
func lfsStatus(w http.ResponseWriter, status int, msg string) {
	if status == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", `Basic realm="gitea-lfs"`)
	}
	w.Header().Set("Content-Type", lfsMediaType)
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(struct {
		Message string `json:"message"`
	}{msg})
}

// lfsError maps a domain error to LFS's answer: 401 with the challenge
// (anonymous, or a reader asking to write, as Forgejo's requireAuth), 403
// (account state, token scope, archived repository), 404, 413 for quota
// (`{"message":"quota exceeded"}` with LFS's media type, and the owner as
// in the API's 413), 422 for invalid pointers and mismatched content, 500.
func (c *call) lfsError(err error) {
	var qe *quota.ExceededError
	switch {
	case errors.As(err, &qe):
		c.w.Header().Set("Content-Type", lfsMediaType)
		c.w.WriteHeader(http.StatusRequestEntityTooLarge)
		json.NewEncoder(c.w).Encode(quotaExceededBody{Message: "quota exceeded", UserID: qe.UserID, Username: qe.Username})
	case errors.Is(err, forge.ErrUnauthenticated):
		lfsStatus(c.w, http.StatusUnauthorized, "Unauthorized")
	case errors.Is(err, forge.ErrNotFound):
		lfsStatus(c.w, http.StatusNotFound, "Not Found")
	case errors.Is(err, forge.ErrForbidden), errors.Is(err, forge.ErrArchived):
		lfsStatus(c.w, http.StatusForbidden, err.Error())
	case errors.Is(err, forge.ErrInvalid):
		lfsStatus(c.w, http.StatusUnprocessableEntity, err.Error())
	default:
		c.a.log.ErrorContext(c.r.Context(), "lfs: internal error", "path", c.r.URL.Path, "err", err)
		lfsStatus(c.w, http.StatusInternalServerError, "Internal Server Error")
	}
}

// lfsAccepts is Forgejo's CheckAcceptMediaType: the batch and verify
// requests must accept LFS's media type (415 otherwise).
func (c *call) lfsAccepts() bool {
	if mt, _, _ := strings.Cut(c.r.Header.Get("Accept"), ";"); strings.TrimSpace(mt) != lfsMediaType {
		lfsStatus(c.w, http.StatusUnsupportedMediaType, "Unsupported Media Type")
		return false
	}
	return true
}

// lfsRepo returns the owner and repository name of the path (the domain
// drops one ".git").
func (c *call) lfsRepo() (string, string) { return chiParam(c.r, "owner"), chiParam(c.r, "repo") }

type lfsLink struct {
	Href   string            `json:"href"`
	Header map[string]string `json:"header,omitempty"`
}

type lfsObject struct {
	Oid     string              `json:"oid"`
	Size    int64               `json:"size"`
	Actions map[string]*lfsLink `json:"actions,omitempty"`
	Error   *lfs.ObjectError    `json:"error,omitempty"`
}

// lfsBatch answers POST info/lfs/objects/batch (Forgejo's BatchHandler).
func (a *API) lfsBatch(c *call) {
	if !c.lfsAccepts() {
		return
	}
	var req struct {
		Operation lfs.Operation `json:"operation"`
		Objects   []lfs.Pointer `json:"objects"`
	}
	if err := json.NewDecoder(io.LimitReader(c.r.Body, a.cfg.MaxBodyBytes)).Decode(&req); err != nil {
		lfsStatus(c.w, http.StatusBadRequest, "Bad Request")
		return
	}
	owner, name := c.lfsRepo()
	objs, err := a.cfg.LFS.Batch(c.r.Context(), c.actor, owner, name, req.Operation, req.Objects)
	if err != nil {
		c.lfsError(err)
		return
	}
	header := map[string]string{}
	if v := c.r.Header.Get("Authorization"); v != "" {
		header["Authorization"] = v
	}
	verifyHeader := map[string]string{"Accept": lfsMediaType}
	for k, v := range header {
		verifyHeader[k] = v
	}
	base := c.rootURL() + url.PathEscape(owner) + "/" + url.PathEscape(strings.TrimSuffix(name, ".git")+".git") + "/info/lfs/"
	out := make([]lfsObject, len(objs))
	for i, o := range objs {
		out[i] = lfsObject{Oid: o.Oid, Size: o.Size, Error: o.Error}
		if o.Error != nil {
			continue
		}
		out[i].Actions = map[string]*lfsLink{}
		if o.Download {
			out[i].Actions["download"] = &lfsLink{Href: base + "objects/" + url.PathEscape(o.Oid), Header: header}
		}
		if o.Upload {
			out[i].Actions["upload"] = &lfsLink{Href: base + "objects/" + url.PathEscape(o.Oid) + "/" + strconv.FormatInt(o.Size, 10), Header: header}
			out[i].Actions["verify"] = &lfsLink{Href: base + "verify", Header: verifyHeader}
		}
	}
	c.w.Header().Set("Content-Type", lfsMediaType)
	c.w.WriteHeader(http.StatusOK)
	json.NewEncoder(c.w).Encode(struct {
		Objects []lfsObject `json:"objects"`
	}{out})
}

// lfsUpload answers PUT info/lfs/objects/{oid}/{size} (Forgejo's
// UploadHandler): 200 once stored; the body streams into the blob store.
func (a *API) lfsUpload(c *call) {
	p := lfs.Pointer{Oid: chiParam(c.r, "oid"), Size: c.r.ContentLength}
	if s := chiParam(c.r, "size"); s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			lfsStatus(c.w, http.StatusUnprocessableEntity, err.Error())
			return
		}
		p.Size = n
	}
	if !p.Valid() {
		lfsStatus(c.w, http.StatusUnprocessableEntity, "Unprocessable Entity")
		return
	}
	owner, name := c.lfsRepo()
	defer c.r.Body.Close()
	if err := a.cfg.LFS.Upload(c.r.Context(), c.actor, owner, name, p, c.r.Body); err != nil {
		c.lfsError(err)
		return
	}
	lfsStatus(c.w, http.StatusOK, "OK")
}

// lfsDownload answers GET info/lfs/objects/{oid} with the bytes (ranges
// honoured when the blob store can seek).
func (a *API) lfsDownload(c *call) {
	owner, name := c.lfsRepo()
	rc, meta, err := a.cfg.LFS.Download(c.r.Context(), c.actor, owner, name, chiParam(c.r, "oid"))
	if err != nil {
		c.lfsError(err)
		return
	}
	defer rc.Close()
	c.w.Header().Set("Content-Type", "application/octet-stream")
	if rs, ok := rc.(io.ReadSeeker); ok {
		http.ServeContent(c.w, c.r, "", meta.Created, rs)
		return
	}
	c.w.Header().Set("Content-Length", strconv.FormatInt(meta.Size, 10))
	c.w.WriteHeader(http.StatusOK)
	io.Copy(c.w, rc)
}

// lfsVerify answers POST info/lfs/verify: 200 when the repository holds
// the object with its size, 404 otherwise.
func (a *API) lfsVerify(c *call) {
	if !c.lfsAccepts() {
		return
	}
	var p lfs.Pointer
	if err := json.NewDecoder(io.LimitReader(c.r.Body, a.cfg.MaxBodyBytes)).Decode(&p); err != nil {
		lfsStatus(c.w, http.StatusUnprocessableEntity, "Unprocessable Entity")
		return
	}
	owner, name := c.lfsRepo()
	if err := a.cfg.LFS.Verify(c.r.Context(), c.actor, owner, name, p); err != nil {
		c.lfsError(err)
		return
	}
	lfsStatus(c.w, http.StatusOK, "OK")
}
