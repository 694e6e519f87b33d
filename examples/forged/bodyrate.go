package main

import (
	"io"
	"net/http"
	"time"
)

// maxBodyReadWait is the longest a single read of a request body may wait.
const maxBodyReadWait = time.Minute

// bodyDeadlines cuts off request bodies that arrive too slowly, without an
// overall read timeout that would break long git pushes: before each read
// of the body, the connection's read deadline is set to the earlier of a
// minute from now and the time by which the bytes read so far should have
// arrived at minRate bytes a second after grace; at the end of the body the
// deadline is cleared. A body
// trickled slower than that fails with a timeout (the handler answers 4xx
// or the connection closes); a push at any real speed never meets it.
func bodyDeadlines(next http.Handler, grace time.Duration, minRate int) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body != nil && r.Body != http.NoBody {
			r.Body = &rateBody{rc: r.Body, ctl: http.NewResponseController(w), start: time.Now(),
				grace: grace, rate: float64(minRate)}
		}
		next.ServeHTTP(w, r)
	})
}

// rateBody is a request body whose reads carry a deadline (see
// bodyDeadlines).
type rateBody struct {
	rc    io.ReadCloser
	ctl   *http.ResponseController
	start time.Time
	grace time.Duration
	rate  float64 // bytes per second
	n     int64   // bytes read so far
	fixed bool    // deadlines unsupported: read without them
}

func (b *rateBody) Read(p []byte) (int, error) {
	if !b.fixed {
		now := time.Now()
		due := b.start.Add(b.grace + time.Duration(float64(b.n)/b.rate*float64(time.Second)))
		if limit := now.Add(maxBodyReadWait); due.After(limit) {
			due = limit
		}
		if err := b.ctl.SetReadDeadline(due); err != nil {
			b.fixed = true
		}
	}
	n, err := b.rc.Read(p)
	b.n += int64(n)
	if err == io.EOF && !b.fixed {
		// The body is complete: the server's own background read of the
		// connection must not inherit the deadline (a read error there
		// cancels the request's context while the handler still works).
		b.ctl.SetReadDeadline(time.Time{})
		b.fixed = true
	}
	return n, err
}

func (b *rateBody) Close() error { return b.rc.Close() }
