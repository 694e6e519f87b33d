package httpapi

import (
	"errors"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/httpapi/convert"
	"github.com/hearthforge/hearth/httpapi/wire"
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
	opt := issues.UploadOption{Name: name, Content: &uploadReader{r: file, max: c.a.maxUploadBytes()}}
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

// attachmentError writes the errors of the attachment routes: a refused
// name or type is 422; an unknown issue, comment or attachment a 404 in
// the document's shape for these operations (`{"message", "url"}`;
// Forgejo's NotFoundOrServerError writes `null`); the rest as issueError.
func (c *call) attachmentError(err error) {
	if c.uploadError(err) {
		return
	}
	var owner *repos.OwnerNotFoundError
	if errors.Is(err, forge.ErrNotFound) && !errors.As(err, &owner) && !errors.Is(err, repos.ErrRepoNotFound) {
		c.errorStatus(http.StatusNotFound, err.Error())
		return
	}
	c.issueError(err, on(forge.ErrInvalid, http.StatusUnprocessableEntity))
}

// createIssueAttachment is POST /repos/{owner}/{repo}/issues/{index}/assets: 201.
func (a *API) createIssueAttachment(c *call) { a.createAttachment(c, false) }

// createCommentAttachment is POST
// /repos/{owner}/{repo}/issues/comments/{id}/assets: 201.
func (a *API) createCommentAttachment(c *call) { a.createAttachment(c, true) }

// createAttachment uploads the request's file to the issue or, with
// comment, the comment of the path: 201 with the attachment.
func (a *API) createAttachment(c *call, comment bool) {
	t, ok := c.attachmentTarget(comment)
	if !ok {
		return
	}
	opt, ok := c.issueUpload()
	if !ok {
		return
	}
	var at *issues.Attachment
	var err error
	if comment {
		at, err = a.cfg.Issues.CreateCommentAttachment(c.r.Context(), c.actor, c.owner(), c.repo(), t.CommentID, opt)
	} else {
		at, err = a.cfg.Issues.CreateIssueAttachment(c.r.Context(), c.actor, c.owner(), c.repo(), t.Index, opt)
	}
	jsonAs(c, http.StatusCreated, at, err, c.attachmentError, c.issueAttachment)
}

// issueAttachment converts an attachment of an issue or comment.
func (c *call) issueAttachment(at *issues.Attachment) wire.Attachment {
	return convert.IssueAttachment(c.rootURL(), at)
}

// attachmentTarget is the issue ({index}) or the comment ({id}) of an
// attachment route. A parameter that is not an integer names nothing: 404
// in these operations' error shape.
func (c *call) attachmentTarget(comment bool) (issues.AttachmentTarget, bool) {
	name := "index"
	if comment {
		name = "id"
	}
	n, err := strconv.ParseInt(c.pathValue(name), 10, 64)
	if err != nil {
		c.errorStatus(http.StatusNotFound, "The target couldn't be found.")
		return issues.AttachmentTarget{}, false
	}
	if comment {
		return issues.AttachmentTarget{CommentID: n}, true
	}
	return issues.AttachmentTarget{Index: n}, true
}

// attachmentID reads `{attachment_id}` as attachmentTarget reads its
// parameter.
func (c *call) attachmentID() (forge.ID, bool) {
	id, err := strconv.ParseInt(c.pathValue("attachment_id"), 10, 64)
	if err != nil {
		c.errorStatus(http.StatusNotFound, "The target couldn't be found.")
		return 0, false
	}
	return id, true
}

// listIssueAttachments is GET /repos/{owner}/{repo}/issues/{index}/assets
// and, comment true, /issues/comments/{id}/assets.
func (a *API) listIssueAttachments(comment bool) func(*call) {
	return func(c *call) {
		t, ok := c.attachmentTarget(comment)
		if !ok {
			return
		}
		list, err := a.cfg.Issues.ListAttachments(c.r.Context(), c.actor, c.owner(), c.repo(), t)
		if err != nil {
			c.attachmentError(err)
			return
		}
		c.json(http.StatusOK, convert.IssueAttachments(c.rootURL(), list))
	}
}

// attachmentRef reads the issue or comment and the attachment id of an
// …/assets/{attachment_id} path, answering for itself when one is bad.
func (c *call) attachmentRef(comment bool) (issues.AttachmentTarget, forge.ID, bool) {
	t, ok := c.attachmentTarget(comment)
	if !ok {
		return t, 0, false
	}
	id, ok := c.attachmentID()
	return t, id, ok
}

// getIssueAttachment is GET …/assets/{attachment_id} of an issue or comment.
func (a *API) getIssueAttachment(comment bool) func(*call) {
	return func(c *call) {
		t, id, ok := c.attachmentRef(comment)
		if !ok {
			return
		}
		at, err := a.cfg.Issues.GetAttachment(c.r.Context(), c.actor, c.owner(), c.repo(), t, id)
		jsonAs(c, http.StatusOK, at, err, c.attachmentError, c.issueAttachment)
	}
}

// editIssueAttachment is PATCH …/assets/{attachment_id}: a new name; 201,
// as Forgejo.
func (a *API) editIssueAttachment(comment bool) func(*call) {
	return func(c *call) {
		t, id, ok := c.attachmentRef(comment)
		var o wire.EditAttachmentOptions
		if !ok || !c.decode(&o) {
			return
		}
		at, err := a.cfg.Issues.EditAttachment(c.r.Context(), c.actor, c.owner(), c.repo(), t, id, valueOf(o.Name))
		jsonAs(c, http.StatusCreated, at, err, c.attachmentError, c.issueAttachment)
	}
}

// deleteIssueAttachment is DELETE …/assets/{attachment_id}: 204.
func (a *API) deleteIssueAttachment(comment bool) func(*call) {
	return func(c *call) {
		t, id, ok := c.attachmentRef(comment)
		if !ok {
			return
		}
		c.noContentOr(a.cfg.Issues.DeleteAttachment(c.r.Context(), c.actor, c.owner(), c.repo(), t, id), c.attachmentError)
	}
}
