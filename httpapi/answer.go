package httpapi

import (
	"net/http"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/httpapi/convert"
)

// A handler's last step is one shape: call the service, then either answer
// its error through the handler's error mapping (fail: c.issueError,
// c.timeError, …) or answer its result. The functions below are that step,
// written once; each writes exactly one answer and returns, so a handler
// ends with one of them. On an error, the result is never converted (it is
// usually nil).

// noContentOr answers 204 when err is nil, else fail(err).
func (c *call) noContentOr(err error, fail func(error)) {
	c.emptyOr(http.StatusNoContent, err, fail)
}

// emptyOr answers status with no body when err is nil, else fail(err).
func (c *call) emptyOr(status int, err error, fail func(error)) {
	if err != nil {
		fail(err)
		return
	}
	c.empty(status)
}

// presenceOr answers Forgejo's yes/no checks (membership, merged, starred):
// 204 when ok, 404 when not, fail(err) on an error.
func (c *call) presenceOr(ok bool, err error, fail func(error)) {
	switch {
	case err != nil:
		fail(err)
	case !ok:
		c.notFound()
	default:
		c.noContent()
	}
}

// jsonOr answers status with v as JSON when err is nil, else fail(err).
func (c *call) jsonOr(status int, v any, err error, fail func(error)) {
	if err != nil {
		fail(err)
		return
	}
	c.json(status, v)
}

// jsonAs answers status with conv(v) as JSON when err is nil, else
// fail(err) (conv is not called).
func jsonAs[V, W any](c *call, status int, v V, err error, fail func(error), conv func(V) W) {
	if err != nil {
		fail(err)
		return
	}
	c.json(status, conv(v))
}

// totalAs answers 200 with conv(list) and X-Total-Count total when err is
// nil, else fail(err) (conv is not called).
func totalAs[V, W any](c *call, list V, total int64, err error, fail func(error), conv func(V) W) {
	if err != nil {
		fail(err)
		return
	}
	c.setTotalCount(total)
	c.json(http.StatusOK, conv(list))
}

// pageAs answers a page of a list (writePage: Link, X-Total-Count, 200
// with conv(list)) when err is nil, else fail(err) (conv is not called).
func pageAs[V, W any](c *call, list V, total int64, o forge.ListOptions, err error, fail func(error), conv func(V) W) {
	if err != nil {
		fail(err)
		return
	}
	c.writePage(total, o, conv(list))
}

// with is an error mapping that takes per-operation overrides
// (c.repoError, c.writeError, …) as a fail for the functions above, with
// overrides bound: with(c.repoError) or with(c.issueError,
// on(forge.ErrInvalid, http.StatusBadRequest)).
func with(fail func(error, ...statusFor), overrides ...statusFor) func(error) {
	return func(err error) { fail(err, overrides...) }
}

// convertAll is conv of each of list, in order: never nil, so that an
// empty list answers [] (not null).
func convertAll[V, W any](list []V, conv func(V) W) []W {
	return convert.All(list, conv)
}

// each is convertAll with conv bound: the conversion of a list, for
// jsonAs, totalAs and pageAs.
func each[V, W any](conv func(V) W) func([]V) []W {
	return func(list []V) []W { return convertAll(list, conv) }
}

// pointee is conv of what a pointer points to, for the services that
// answer a pointer to a value their converter takes.
func pointee[V, W any](conv func(V) W) func(*V) W {
	return func(v *V) W { return conv(*v) }
}

// plainTextOr answers 200 with text as text/plain (Forgejo's
// ctx.PlainText; no body when text is empty) when err is nil, else
// fail(err).
func (c *call) plainTextOr(text string, err error, fail func(error)) {
	if err != nil {
		fail(err)
		return
	}
	if text != "" {
		c.w.Header().Set("Content-Type", "text/plain;charset=utf-8")
	}
	c.w.WriteHeader(http.StatusOK)
	_, _ = c.w.Write([]byte(text))
}
