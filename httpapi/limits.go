package httpapi

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"
)

// errUploadTooLarge is the error an upload's file fails with past its
// limit (Config.MaxUploadBytes): 413.
var errUploadTooLarge = errors.New("upload too large")

// uploadReadError is a failure to read an uploaded file from the request
// (a truncated or malformed multipart body, a connection cut): the
// client's fault, 400, never a 500.
type uploadReadError struct{ err error }

func (e *uploadReadError) Error() string { return "reading the upload: " + e.err.Error() }
func (e *uploadReadError) Unwrap() error { return e.err }

// uploadReader is the file of an upload as a service reads it: at most max
// bytes (max <= 0: no limit here), read errors marked uploadReadError.
type uploadReader struct {
	r      io.Reader
	n, max int64
}

func (u *uploadReader) Read(p []byte) (int, error) {
	n, err := u.r.Read(p)
	u.n += int64(n)
	if u.max > 0 && u.n > u.max {
		return n, fmt.Errorf("%w: limit is %d bytes", errUploadTooLarge, u.max)
	}
	if err != nil && err != io.EOF {
		err = &uploadReadError{err}
	}
	return n, err
}

// maxUploadBytes is Config.MaxUploadBytes or its default.
func (a *API) maxUploadBytes() int64 {
	if a.cfg.MaxUploadBytes > 0 {
		return a.cfg.MaxUploadBytes
	}
	return DefaultMaxUploadBytes
}

// uploadError answers the failures of reading an upload (413 over the
// limit, 400 for a request that could not be read) and reports whether err
// was one.
func (c *call) uploadError(err error) bool {
	var read *uploadReadError
	switch {
	case errors.Is(err, errUploadTooLarge):
		c.errorStatus(http.StatusRequestEntityTooLarge, err.Error())
	case errors.As(err, &read):
		c.errorStatus(http.StatusBadRequest, err.Error())
	default:
		return false
	}
	return true
}

// ServerLimits are the limits the http.Server in front of the API
// enforces: they act before the handler runs, so the handler cannot. Each
// zero field takes DefaultServerLimits' value.
type ServerLimits struct {
	// MaxHeaderBytes caps the request line and headers; net/http answers
	// a larger request 431.
	MaxHeaderBytes int
	// ReadHeaderTimeout bounds the time a client takes to send them.
	ReadHeaderTimeout time.Duration
	// IdleTimeout closes a keep-alive connection idle this long.
	IdleTimeout time.Duration
}

// DefaultServerLimits: 64 KiB of headers, sent within 10 s; idle
// connections close after 2 minutes.
var DefaultServerLimits = ServerLimits{MaxHeaderBytes: 64 << 10, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute}

// Apply sets srv's header size and timeouts (zero fields: the defaults).
// It sets no overall ReadTimeout or WriteTimeout: clones, pushes and
// archives may rightly take long; a host cuts trickled bodies by rate
// instead (examples/forged's -body-min-rate).
func (l ServerLimits) Apply(srv *http.Server) {
	srv.MaxHeaderBytes = cmp.Or(l.MaxHeaderBytes, DefaultServerLimits.MaxHeaderBytes)
	srv.ReadHeaderTimeout = cmp.Or(l.ReadHeaderTimeout, DefaultServerLimits.ReadHeaderTimeout)
	srv.IdleTimeout = cmp.Or(l.IdleTimeout, DefaultServerLimits.IdleTimeout)
}
