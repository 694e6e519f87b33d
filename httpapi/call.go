package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"

	gojson "github.com/goccy/go-json"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/httpapi/wire"
)

// call is one request on its way through the API: the writer, the request,
// the authenticated actor. Handlers are func(*call).
type call struct {
	a     *API
	w     http.ResponseWriter
	r     *http.Request
	actor forge.Actor
	wrote bool
	// q is the parsed query of r (query); nil until asked for.
	q url.Values
	// root is rootURL's answer once asked for.
	root string
}

// queryTokenWarning is Forgejo's deprecation header text, verbatim (the
// version it names is Forgejo's).
const queryTokenWarning = "token and access_token API authentication is deprecated and will be removed in Forgejo v13.0.0. Please use AuthorizationHeaderToken instead. Existing queries will continue to work but without authorization."

func (a *API) newCall(w http.ResponseWriter, r *http.Request) *call {
	h := w.Header()
	h["X-Content-Type-Options"] = nosniff
	c := &call{a: a, w: w, r: r}
	if q := c.query(); q.Has("token") || q.Has("access_token") {
		h.Set("Warning", queryTokenWarning)
	}
	return c
}

// nosniff is the X-Content-Type-Options value every answer carries (set
// without canonicalising the name or allocating the slice; the header's
// consumers only read it).
var nosniff = []string{"nosniff"}

// emptyQuery is the query of a request without one, shared: query's
// callers only read it.
var emptyQuery = url.Values{}

// query is the request's parsed query string, parsed once per request for
// the checks every request makes (query tokens, sudo). Callers must not
// modify it.
func (c *call) query() url.Values {
	if c.q == nil {
		if c.r.URL.RawQuery == "" {
			c.q = emptyQuery
		} else {
			c.q = c.r.URL.Query()
		}
	}
	return c.q
}

// rootURL is the configured root URL or one derived from the request.
func (c *call) rootURL() string {
	if c.a.cfg.RootURL != "" {
		return c.a.cfg.RootURL
	}
	if c.root == "" {
		scheme := "http"
		if c.r.TLS != nil {
			scheme = "https"
		}
		c.root = scheme + "://" + c.r.Host + "/"
	}
	return c.root
}

func (c *call) swaggerURL() string { return c.rootURL() + "api/swagger" }

// json writes v as the JSON response body with status, followed by a
// newline: json.Marshal's bytes (HTML-safe escaping), then "\n", written by
// encodeAnswer. The body is encoded into a pooled buffer and sent in one
// write with its Content-Length, so a body over net/http's 2 KiB response
// buffer is not sent chunked. A value the encoder refuses (a time outside
// years 0–9999) answers 500.
func (c *call) json(status int, v any) {
	buf := jsonBuffers.Get().(*bytes.Buffer)
	defer putJSONBuffer(buf)
	buf.Reset()
	if err := encodeAnswer(buf, v); err != nil {
		c.serverError(fmt.Errorf("encode response: %w", err))
		return
	}
	if answerJSONCheck != nil {
		answerJSONCheck(v, buf.Bytes())
	}
	c.writeJSONBody(status, buf)
}

// answerJSONCheck, when set (by the package's tests, which compare every
// answer with encoding/json's bytes), sees each answer value and the body
// written for it. Nil outside tests.
var answerJSONCheck func(v any, body []byte)

// encodeAnswer appends v's JSON and a newline to buf, byte for byte as an
// encoding/json Encoder with its defaults does (HTML-safe escaping, sorted
// map keys, invalid UTF-8 as \ufffd, U+2028/U+2029 escaped), with
// goccy/go-json: it compiles each type's encoder once and writes answers
// 2–5 times faster than encoding/json, without allocating.
// TestAnswerJSONMatchesEncodingJSON compares the two on every wire type;
// nothing is written to buf on an error.
func encodeAnswer(buf *bytes.Buffer, v any) error {
	return gojson.NewEncoder(buf).Encode(v)
}

// jsonUser is c.json(status, u).
func (c *call) jsonUser(status int, u *wire.User) { c.json(status, u) }

// jsonRepository is c.json(status, r).
func (c *call) jsonRepository(status int, r *wire.Repository) { c.json(status, r) }

// writeJSONBody answers status with the JSON body in buf.
func (c *call) writeJSONBody(status int, buf *bytes.Buffer) {
	h := c.w.Header()
	h["Content-Type"] = jsonContentType
	h["Content-Length"] = []string{strconv.Itoa(buf.Len())}
	c.w.WriteHeader(status)
	c.wrote = true
	c.w.Write(buf.Bytes())
}

// jsonContentType is the Content-Type value of JSON answers, shared (set
// without canonicalising the name or allocating; nothing writes into a
// header's value slice).
var jsonContentType = []string{"application/json;charset=utf-8"}

// jsonBuffers holds the encoding buffers of call.json.
var jsonBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// putJSONBuffer returns buf to the pool unless it grew past 64 KiB (a
// large list): the pool keeps only buffers of the common size.
func putJSONBuffer(buf *bytes.Buffer) {
	if buf.Cap() <= 64<<10 {
		jsonBuffers.Put(buf)
	}
}

// noContent answers 204.
func (c *call) noContent() {
	c.empty(http.StatusNoContent)
}

// empty answers status with no body (Forgejo's ctx.Status).
func (c *call) empty(status int) {
	c.w.WriteHeader(status)
	c.wrote = true
}

// errorStatus writes Forgejo's `{"message", "url"}` body.
func (c *call) errorStatus(status int, msg string) {
	c.json(status, wire.APIError{Message: msg, URL: ptrTo(c.swaggerURL())})
}

// bareError writes `{"message"}` alone, as Forgejo's account-state and sudo
// checks do.
func (c *call) bareError(status int, msg string) {
	c.json(status, wire.APIError{Message: msg})
}

// notFound is Forgejo's ctx.NotFound() body. Hearth answers unknown routes
// with it too (Forgejo answers them with plain text `404 page not found`),
// so clients always get JSON from /api/v1.
func (c *call) notFound() {
	c.notFoundBody("The target couldn't be found.")
}

// notFoundBody writes Forgejo's APINotFound: msg and errs (never null, as
// Forgejo's ctx.NotFound).
func (c *call) notFoundBody(msg string, errs ...string) {
	if errs == nil {
		errs = []string{}
	}
	c.json(http.StatusNotFound, wire.APINotFound{Message: msg, URL: c.swaggerURL(), Errors: &errs})
}

func (c *call) serverError(err error) {
	c.a.log.ErrorContext(c.r.Context(), "api: internal error", "method", c.r.Method, "path", c.r.URL.Path, "err", err)
	if c.wrote {
		return
	}
	msg := ""
	if c.actor.IsSiteAdmin() {
		msg = err.Error() // Forgejo blanks 500 messages except for site admins
	}
	c.errorStatus(http.StatusInternalServerError, msg)
}

func (c *call) recover() {
	if p := recover(); p != nil {
		if p == http.ErrAbortHandler {
			panic(p)
		}
		c.serverError(fmt.Errorf("panic: %v\n%s", p, debug.Stack()))
	}
}

// errBodyTooLarge marks a request body over Config.MaxBodyBytes.
var errBodyTooLarge = errors.New("request body too large")

// readBody reads the request body, at most Config.MaxBodyBytes. It
// answers the request itself and returns false on a body that is too
// large (413) or cannot be read (400).
func (c *call) readBody() ([]byte, bool) {
	body, err := io.ReadAll(http.MaxBytesReader(c.w, c.r.Body, c.a.cfg.MaxBodyBytes))
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		c.errorStatus(http.StatusRequestEntityTooLarge, fmt.Sprintf("%s: limit is %d bytes", errBodyTooLarge, tooLarge.Limit))
		return nil, false
	case err != nil:
		c.errorStatus(http.StatusBadRequest, "[]: "+err.Error())
		return nil, false
	}
	return body, true
}

// decode reads the JSON request body into v. An empty body decodes as {}.
// It answers the request itself and returns false on a body that is too
// large (413) or not JSON of v's shape (422 `[]: <decoder error>`, as
// Forgejo's binding). Unknown fields are ignored, as Forgejo does.
func (c *call) decode(v any) bool {
	body, ok := c.readBody()
	if !ok {
		return false
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return true
	}
	if err := json.Unmarshal(body, v); err != nil {
		c.errorStatus(http.StatusUnprocessableEntity, "[]: "+err.Error())
		return false
	}
	return true
}

// listOptions reads `page` and `limit` as Forgejo does: values that are
// missing, not numbers, or out of range are corrected (page < 1 is 1; limit
// < 1 is 30; limit > 50 is 50), never refused.
func (c *call) listOptions() forge.ListOptions {
	q := c.r.URL.Query()
	page, _ := strconv.Atoi(q.Get("page"))
	limit, _ := strconv.Atoi(q.Get("limit"))
	return forge.ListOptions{Page: page, Limit: limit}.Normalize()
}

// writePage answers 200 with one page of a list: Forgejo's Link header
// (setLinkHeader), X-Total-Count (setTotalCount) and body.
func (c *call) writePage(total int64, o forge.ListOptions, body any) {
	c.setLinkHeader(total, o)
	c.setTotalCount(total)
	c.json(http.StatusOK, body)
}

// setTotalCount sets X-Total-Count.
func (c *call) setTotalCount(total int64) {
	h := c.w.Header()
	h.Set("X-Total-Count", strconv.FormatInt(total, 10))
	h.Add("Access-Control-Expose-Headers", "X-Total-Count, Link")
}

// setLinkHeader sets Forgejo's Link header for a paged list: next, last,
// first, prev, comma-joined, absolute URLs; none when there is one page.
func (c *call) setLinkHeader(total int64, o forge.ListOptions) {
	o = o.Normalize()
	pages := int((total + int64(o.Limit) - 1) / int64(o.Limit))
	if pages <= 1 {
		return
	}
	link := func(page int, rel string) string {
		u := *c.r.URL
		q := u.Query()
		q.Set("page", strconv.Itoa(page))
		q.Set("limit", strconv.Itoa(o.Limit))
		u.RawQuery = q.Encode()
		return fmt.Sprintf("<%s%s>; rel=%q", strings.TrimSuffix(c.rootURL(), "/"), (&url.URL{Path: u.Path, RawQuery: u.RawQuery}).String(), rel)
	}
	var links []string
	if o.Page < pages {
		links = append(links, link(o.Page+1, "next"), link(pages, "last"))
	}
	if o.Page > 1 {
		links = append(links, link(1, "first"), link(o.Page-1, "prev"))
	}
	if len(links) > 0 {
		c.w.Header().Set("Link", strings.Join(links, ","))
	}
}

// valueOf is *p, or the zero value when p is nil: an option field the
// request left out reads as Forgejo's binding reads it, as the zero value.
func valueOf[T any](p *T) T {
	if p == nil {
		var zero T
		return zero
	}
	return *p
}

// ptrTo is &v, for the pointer fields of wire types.
func ptrTo[T any](v T) *T { return &v }

// pathValue returns a path parameter.
func (c *call) pathValue(name string) string { return c.r.PathValue(name) }
