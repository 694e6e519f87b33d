package httpapi

import (
	"context"
	"encoding/base64"
	"io"
	"net/http"

	"github.com/hearthforge/hearth/httpapi/wire"
)

// setAvatar is POST /repos/{owner}/{repo}/avatar: `{"image": <base64>}`, 204.
func (a *API) setAvatar(c *call) {
	var o wire.UpdateRepoAvatarOption
	img, ok := c.avatarImage(&o, &o.Image)
	if !ok {
		return
	}
	c.noContentOr(a.cfg.Repos.SetAvatar(c.r.Context(), c.actor, c.owner(), c.repo(), img), with(c.repoError))
}

// avatarImage decodes the body into o and returns the image its field
// image holds in base64; a body that is not o, or an image that is not
// base64, answers 422 and is not ok.
func (c *call) avatarImage(o any, image **string) ([]byte, bool) {
	if !c.decode(o) {
		return nil, false
	}
	img, err := base64.StdEncoding.DecodeString(deref(*image))
	if err != nil {
		c.errorStatus(http.StatusUnprocessableEntity, "[Image]: invalid base64")
		return nil, false
	}
	return img, true
}

// deleteAvatar is DELETE /repos/{owner}/{repo}/avatar: 204.
func (a *API) deleteAvatar(c *call) {
	c.noContentOr(a.cfg.Repos.DeleteAvatar(c.r.Context(), c.actor, c.owner(), c.repo()), with(c.repoError))
}

// serveAvatar serves /repo-avatars/{key}, the avatar_url of repositories.
func (a *API) serveAvatar(w http.ResponseWriter, r *http.Request) {
	a.serveStoredAvatar(w, r, a.cfg.Repos.OpenAvatar)
}

// serveStoredAvatar serves the uploaded avatar that open finds under the
// path's {key}: its bytes with the type they sniff as, cacheable for a
// day; 404 when open finds none.
func (a *API) serveStoredAvatar(w http.ResponseWriter, r *http.Request, open func(context.Context, string) (io.ReadCloser, error)) {
	rc, err := open(r.Context(), chiParam(r, "key"))
	if err != nil {
		a.newCall(w, r).notFound()
		return
	}
	defer rc.Close()
	head := make([]byte, 512)
	n, _ := io.ReadFull(rc, head)
	w.Header().Set("Content-Type", http.DetectContentType(head[:n]))
	w.Header().Set("Cache-Control", "public, max-age=86400")
	w.Write(head[:n])
	io.Copy(w, rc)
}
