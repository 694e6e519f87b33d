package httpapi

import (
	"io"
	"mime"
	"net/http"
	"strings"
	"time"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/issues"
)

// issueUpload reads an attachment upload as Forgejo's issue and comment
// attachment handlers: the file in the multipart part `attachment`, its
// name overridden by `name` (query or form field), and `updated_at` (query
// or form field, RFC 3339). It answers the request itself and returns ok
// false when there is no file (400; Forgejo answers 500) or updated_at
// does not parse (422 with Go's parse error; Forgejo answers 500). The
// returned option streams the file from the request: fields after the file
// part are not read.
func (c *call) issueUpload() (issues.UploadOption, bool) {
	q := c.r.URL.Query()
	name, updated := q.Get("name"), q.Get("updated_at")
	var file io.Reader
	var fileName string
	if mt, _, _ := mime.ParseMediaType(c.r.Header.Get("Content-Type")); mt == "multipart/form-data" {
		mr, err := c.r.MultipartReader()
		if err != nil {
			c.errorStatus(http.StatusBadRequest, err.Error())
			return issues.UploadOption{}, false
		}
		for file == nil {
			part, err := mr.NextPart()
			if err != nil {
				break
			}
			switch part.FormName() {
			case "attachment":
				file, fileName = part, part.FileName()
			case "name", "updated_at":
				b, _ := io.ReadAll(io.LimitReader(part, 4096))
				if part.FormName() == "name" && name == "" {
					name = string(b)
				} else if part.FormName() == "updated_at" && updated == "" {
					updated = string(b)
				}
			}
		}
	}
	if file == nil {
		c.errorStatus(http.StatusBadRequest, "no attachment given: send the file as the multipart field `attachment`")
		return issues.UploadOption{}, false
	}
	opt := issues.UploadOption{Name: name, Content: file}
	if opt.Name == "" {
		opt.Name = fileName
	}
	if updated = strings.TrimSpace(updated); updated != "" {
		t, err := time.Parse(time.RFC3339, updated)
		if err != nil {
			c.errorStatus(http.StatusUnprocessableEntity, err.Error())
			return issues.UploadOption{}, false
		}
		opt.UpdatedAt = &t
	}
	return opt, true
}

// attachmentError writes an upload's errors: over the size limit is 413,
// a refused name or type 422, the rest as issueError.
func (c *call) attachmentError(err error) {
	c.issueError(err, on(forge.ErrInvalid, http.StatusUnprocessableEntity))
}

// createIssueAttachment is POST /repos/{owner}/{repo}/issues/{index}/assets: 201.
func (a *API) createIssueAttachment(c *call) {
	index, ok := c.indexParam()
	if !ok {
		return
	}
	opt, ok := c.issueUpload()
	if !ok {
		return
	}
	at, err := a.cfg.Issues.CreateIssueAttachment(c.r.Context(), c.actor, c.owner(), c.repo(), index, opt)
	if err != nil {
		c.attachmentError(err)
		return
	}
	c.json(http.StatusCreated, toIssueAttachment(c.rootURL(), at))
}

// createCommentAttachment is POST
// /repos/{owner}/{repo}/issues/comments/{id}/assets: 201.
func (a *API) createCommentAttachment(c *call) {
	id, ok := c.commentID()
	if !ok {
		return
	}
	opt, ok := c.issueUpload()
	if !ok {
		return
	}
	at, err := a.cfg.Issues.CreateCommentAttachment(c.r.Context(), c.actor, c.owner(), c.repo(), id, opt)
	if err != nil {
		c.attachmentError(err)
		return
	}
	c.json(http.StatusCreated, toIssueAttachment(c.rootURL(), at))
}
