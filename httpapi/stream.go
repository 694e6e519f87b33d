package httpapi

import "net/http"

// streamWriter is the body of a 200 response streamed from git: the status
// and headers go out with the first byte, so an error before any output
// still answers with its own status and message, and nothing is buffered.
type streamWriter struct {
	c       *call
	headers map[string]string
	started bool
}

// newStreamWriter streams a 200 response with headers to c.
func newStreamWriter(c *call, headers map[string]string) *streamWriter {
	return &streamWriter{c: c, headers: headers}
}

// start sends the status and headers (once).
func (w *streamWriter) start() {
	if w.started {
		return
	}
	w.started = true
	for k, v := range w.headers {
		w.c.w.Header().Set(k, v)
	}
	w.c.w.WriteHeader(http.StatusOK)
	w.c.wrote = true
}

func (w *streamWriter) Write(p []byte) (int, error) {
	w.start()
	return w.c.w.Write(p)
}

// finish ends the response after the producer returned err: an error
// before any output answers as repoError; one after it can only be logged
// (the status is gone); no error and no output is an empty 200.
func (w *streamWriter) finish(what string, err error) {
	switch {
	case err != nil && !w.started:
		w.c.repoError(err)
	case err != nil:
		w.c.a.log.ErrorContext(w.c.r.Context(), what, "err", err)
	default:
		w.start()
	}
}
