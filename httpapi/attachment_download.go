package httpapi

import (
	"io"
	"mime"
	"net/http"
	"strconv"
)

// downloadAttachments serves /attachments/{uuid} for every kind of
// attachment: an issue or comment attachment the caller may read (package
// issues decides, read:issue), else a release attachment as
// downloadAttachment serves it. One route, one lookup after the other: an
// issue attachment the caller may not read falls through to the release
// lookup, which answers not found, so the answer tells nothing of which
// uuids exist.
func (a *API) downloadAttachments(w http.ResponseWriter, r *http.Request) {
	if a.cfg.Issues != nil {
		c := a.newCall(w, r)
		defer c.recover()
		if !c.authenticate() {
			return
		}
		at, rc, err := a.cfg.Issues.OpenAttachment(r.Context(), c.actor, r.PathValue("uuid"))
		if err == nil {
			defer rc.Close()
			w.Header().Set("Content-Type", "application/octet-stream")
			w.Header().Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": at.Name}))
			w.Header().Set("Content-Length", strconv.FormatInt(at.Size, 10))
			c.wrote = true
			io.Copy(w, rc)
			return
		}
		if a.cfg.Repos == nil {
			c.issueError(err)
			return
		}
	}
	if a.cfg.Repos == nil {
		http.NotFound(w, r)
		return
	}
	a.downloadAttachment(w, r)
}
