package httpapi

import (
	"errors"
	"fmt"
	"io"
	"net/http"
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
