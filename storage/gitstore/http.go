package gitstore

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

// DefaultMaxPushBytes is the push size limit of a Store served through
// ServeGit or ServeGitRPC directly (HTTP with a zero MaxPushBytes): 1 GiB of
// decoded request body per git-receive-pack request.
const DefaultMaxPushBytes int64 = 1 << 30

// DefaultMaxFetchBytes bounds the decoded body of one git-upload-pack
// request (the wants and haves of a negotiation, never a pack): 64 MiB is
// far above what git sends, and stops gzip bombs and endless "have" lines.
const DefaultMaxFetchBytes int64 = 64 << 20

// HTTP serves git's smart HTTP protocol for a Store with limits.
type HTTP struct {
	Store *Store
	// MaxPushBytes caps the decoded body of one git-receive-pack request
	// (commands and pack). A larger push is refused with 413 and updates
	// nothing. Zero means DefaultMaxPushBytes; negative means unlimited.
	MaxPushBytes int64
	// MaxFetchBytes caps the decoded body of one git-upload-pack request;
	// larger ones get 413. Zero means DefaultMaxFetchBytes; negative means
	// unlimited.
	MaxFetchBytes int64
}

// ServeGit is Store.ServeGit with h's limits.
func (h HTTP) ServeGit(w http.ResponseWriter, r *http.Request, repo forge.ID, subpath, remoteUser string) {
	service, advertise, ok := legacyService(r, subpath)
	if !ok {
		http.Error(w, "unsupported git request", http.StatusForbidden)
		return
	}
	h.ServeGitRPC(w, r, repo, service, advertise, remoteUser, nil)
}

// ServeGit serves git's smart HTTP protocol for repo with the default
// limits. subpath is what follows "<owner>/<repo>.git" in the URL
// ("/info/refs", "/git-upload-pack" or "/git-receive-pack"); for
// "/info/refs" the request must carry exactly one distinct service query
// value. Anything else (the dumb protocol) is refused with 403. The caller
// has authorised the request: this method checks nothing. Prefer
// ServeGitRPC, which takes the service as authorised and enforces a push
// plan.
func (s *Store) ServeGit(w http.ResponseWriter, r *http.Request, repo forge.ID, subpath, remoteUser string) {
	HTTP{Store: s}.ServeGit(w, r, repo, subpath, remoteUser)
}

// ServeGitRPC is HTTP.ServeGitRPC with the default limits.
func (s *Store) ServeGitRPC(w http.ResponseWriter, r *http.Request, repo forge.ID, service string, advertise bool, remoteUser string, fastForwardOnly []string) []repos.RefUpdate {
	return HTTP{Store: s}.ServeGitRPC(w, r, repo, service, advertise, remoteUser, fastForwardOnly)
}

// legacyService reads the service of a ServeGit request: one distinct
// service query value for info/refs, the path otherwise.
func legacyService(r *http.Request, subpath string) (service string, advertise, ok bool) {
	switch subpath {
	case "/info/refs":
		vals := r.URL.Query()["service"]
		if len(vals) == 0 {
			return "", false, false
		}
		for _, v := range vals {
			if v != vals[0] {
				return "", false, false
			}
		}
		return vals[0], true, true
	case "/git-upload-pack", "/git-receive-pack":
		for _, v := range r.URL.Query()["service"] {
			if v != subpath[1:] {
				return "", false, false
			}
		}
		return subpath[1:], false, true
	}
	return "", false, false
}

// safeGitProtocol is what a Git-Protocol header may hold (Forgejo's rule).
var safeGitProtocol = regexp.MustCompile(`^[0-9a-zA-Z]+=[0-9a-zA-Z]+(:[0-9a-zA-Z]+=[0-9a-zA-Z]+)*$`)

// ServeGitRPC runs exactly one git service for repo, as Forgejo does:
// `git upload-pack` or `git receive-pack` with --stateless-rpc, and with
// --advertise-refs (after the "# service=…" pkt-line header) when advertise
// is set (GET info/refs). service is "git-upload-pack" or
// "git-receive-pack", as the caller authorised it; anything else is a 403.
// The request body is streamed to git's stdin (gzip Content-Encoding
// decoded) and git's output streamed back; a Git-Protocol header is passed
// as GIT_PROTOCOL (protocol v2). A receive-pack body over the push size
// limit is refused with 413 and updates nothing. fastForwardOnly lists
// references that a push may only fast-forward (and not delete): git's
// pre-receive hook refuses any other update of them ("branch <name> is
// protected from force push"), so the whole push is refused. It returns
// the reference updates that git applied (nil for anything but a push).
// The caller has authorised the request: this method checks nothing else.
func (h HTTP) ServeGitRPC(w http.ResponseWriter, r *http.Request, repo forge.ID, service string, advertise bool, remoteUser string, fastForwardOnly []string) []repos.RefUpdate {
	s := h.Store
	if service != "git-upload-pack" && service != "git-receive-pack" {
		http.Error(w, "unsupported service", http.StatusForbidden)
		return nil
	}
	if _, err := os.Stat(s.Path(repo)); err != nil {
		http.NotFound(w, r)
		return nil
	}
	release, ok := s.serveTurn(r.Context())
	if !ok {
		w.Header().Set("Retry-After", "10")
		http.Error(w, "too many git requests at once, try again later", http.StatusServiceUnavailable)
		return nil
	}
	defer release()
	ctx := r.Context()
	env := []string{"REMOTE_USER=" + remoteUser}
	if p := r.Header.Get("Git-Protocol"); p != "" && safeGitProtocol.MatchString(p) {
		env = append(env, "GIT_PROTOCOL="+p)
	}
	noCache(w.Header())
	name := strings.TrimPrefix(service, "git-")
	if advertise {
		c := s.cmd(ctx, repo, env, name, "--stateless-rpc", "--advertise-refs", ".")
		var stderr bytes.Buffer
		c.Stderr = &stderr
		out, err := c.Output()
		if err != nil {
			http.Error(w, "git "+name+" failed", http.StatusInternalServerError)
			return nil
		}
		w.Header().Set("Content-Type", "application/x-"+service+"-advertisement")
		w.WriteHeader(http.StatusOK)
		hdr := "# service=" + service + "\n"
		io.WriteString(w, pktLen(len(hdr))+hdr+"0000")
		w.Write(out)
		return nil
	}
	if r.Method != http.MethodPost {
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return nil
	}
	if r.Header.Get("Content-Type") != "application/x-"+service+"-request" {
		http.Error(w, "wrong content type", http.StatusUnsupportedMediaType)
		return nil
	}
	push := service == "git-receive-pack"
	limit := cmpOr(h.MaxFetchBytes, DefaultMaxFetchBytes)
	if push {
		limit = cmpOr(h.MaxPushBytes, DefaultMaxPushBytes)
	}
	if limit >= 0 && r.ContentLength > limit && r.Header.Get("Content-Encoding") == "" {
		tooLarge(w, limit)
		return nil
	}
	var body io.Reader = r.Body
	switch enc := r.Header.Get("Content-Encoding"); enc {
	case "":
	case "gzip", "x-gzip":
		zr, err := gzip.NewReader(r.Body)
		if err != nil {
			http.Error(w, "malformed gzip body", http.StatusBadRequest)
			return nil
		}
		defer zr.Close()
		body = zr
	default:
		http.Error(w, "unsupported content encoding", http.StatusUnsupportedMediaType)
		return nil
	}
	out := &rpcOutput{w: w, contentType: "application/x-" + service + "-result", inputDone: !push}
	in := &rpcInput{r: body, limit: limit, out: out}
	args := []string{name, "--stateless-rpc", "."}
	var logPath string
	if push {
		hooks, err := s.preparePush(ctx, fastForwardOnly)
		if err != nil {
			http.Error(w, "git hooks unavailable", http.StatusInternalServerError)
			return nil
		}
		defer hooks.close()
		logPath = hooks.log
		args = append(hooks.args, args...)
		env = append(env, hooks.env...)
	} else {
		args = append([]string{"-c", "uploadpack.allowFilter=true"}, args...)
	}
	// Read the body while the response streams (git may answer early).
	_ = http.NewResponseController(w).EnableFullDuplex()
	if !push {
		// A fetch negotiation is a few kilobytes of wants and haves: it
		// must arrive within fetchBodyTime, so a client trickling it cannot
		// hold a git process (and a turn) for hours. (Not a connection
		// deadline: that would also cut the pack being sent back.)
		in.deadline = time.Now().Add(fetchBodyTime)
	}
	c := s.cmd(ctx, repo, env, args...)
	c.Stdin, c.Stdout = in, out
	var stderr limitedBuffer
	c.Stderr = &stderr
	err := c.Run()
	out.finish(limit, err)
	if !push || err != nil || out.isTooLarge() {
		return nil
	}
	updates := readPushLog(logPath)
	if len(updates) > 0 {
		s.writeCommitGraph(ctx, repo)
	}
	return updates
}

// pushHooks is what a git receive-pack run needs for Hearth's hooks: the
// git arguments and environment, and the log the post-receive hook writes
// the applied updates to.
type pushHooks struct {
	args, env []string
	log       string
	closers   []func()
}

func (h *pushHooks) close() {
	for i := len(h.closers) - 1; i >= 0; i-- {
		h.closers[i]()
	}
}

// preparePush sets up the hooks of one push, whatever the transport:
// fastForwardOnly for the pre-receive hook, the push log, and the quota
// allowance and reservation gate ctx carries (repos.WithPushAllowance,
// repos.WithPushReserver). Close the result once git has run.
func (s *Store) preparePush(ctx context.Context, fastForwardOnly []string) (*pushHooks, error) {
	hooks, err := s.hooksDir()
	if err != nil {
		return nil, err
	}
	f, err := os.CreateTemp(filepath.Join(s.root, tmpDir), "push-*.log")
	if err != nil {
		return nil, err
	}
	f.Close()
	h := &pushHooks{log: f.Name(), args: []string{"-c", "core.hooksPath=" + hooks}}
	h.closers = append(h.closers, func() { os.Remove(h.log) })
	h.env = append(h.env, envFastForwardOnly+"="+strings.Join(fastForwardOnly, "\n"), envPushLog+"="+h.log)
	h.env = append(h.env, pushQuotaEnv(ctx)...) // http_hooks.go
	if reserve := repos.PushReserverOf(ctx); reserve != nil {
		gate, genv, err := openQuotaGate(ctx, filepath.Join(s.root, tmpDir), reserve) // http_hooks.go
		switch {
		case errors.Is(err, errors.ErrUnsupported): // no FIFOs: the allowance alone
		case err != nil:
			h.close()
			return nil, err
		default:
			h.closers = append(h.closers, gate.close)
			h.env = append(h.env, genv...)
		}
	}
	return h, nil
}

// fetchBodyTime bounds the time a git-upload-pack request body may take.
const fetchBodyTime = time.Minute

// serveTurn waits up to Options.GitRequestWait for one of Options.MaxGitRequests
// turns; ok is false when none came (or ctx ended). release gives the turn
// back.
func (s *Store) serveTurn(ctx context.Context) (release func(), ok bool) {
	t := time.NewTimer(s.servingWait)
	defer t.Stop()
	select {
	case s.serving <- struct{}{}:
		return func() { <-s.serving }, true
	case <-t.C:
		return nil, false
	case <-ctx.Done():
		return nil, false
	}
}

// pktLen is the 4-digit hexadecimal length prefix of a pkt-line payload of n bytes.
func pktLen(n int) string {
	s := strconv.FormatInt(int64(n+4), 16)
	return strings.Repeat("0", 4-len(s)) + s
}

func noCache(h http.Header) {
	h.Set("Expires", "Fri, 01 Jan 1980 00:00:00 GMT")
	h.Set("Pragma", "no-cache")
	h.Set("Cache-Control", "no-cache, max-age=0, must-revalidate")
}

func tooLarge(w http.ResponseWriter, limit int64) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(http.StatusRequestEntityTooLarge)
	io.WriteString(w, "request body exceeds the maximum size of "+strconv.FormatInt(limit, 10)+" bytes\n")
}

// readPushLog reads the "<old> <new> <ref>" lines that the post-receive
// hook wrote: the updates git applied.
func readPushLog(path string) []repos.RefUpdate {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var out []repos.RefUpdate
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 3 {
			out = append(out, repos.RefUpdate{OldID: f[0], NewID: f[1], Ref: f[2]})
		}
	}
	return out
}

// rpcInput is the request body fed to git, bounded by limit (negative:
// unbounded). Past the limit it fails, which makes git abort the push
// before it updates anything.
type rpcInput struct {
	r     io.Reader
	limit int64
	n     int64
	out   *rpcOutput
	// deadline, when set, is when the body must have been read.
	deadline time.Time
}

func (in *rpcInput) Read(p []byte) (int, error) {
	if in.limit >= 0 && int64(len(p)) > in.limit-in.n+1 {
		p = p[:in.limit-in.n+1]
	}
	n, err := in.r.Read(p)
	in.n += int64(n)
	if err == nil && !in.deadline.IsZero() && time.Now().After(in.deadline) {
		return 0, errBodyTooSlow
	}
	if in.limit >= 0 && in.n > in.limit {
		in.out.setTooLarge()
		return 0, errPushTooLarge
	}
	if err == io.EOF {
		in.out.setInputDone()
	}
	return n, err
}

var (
	errPushTooLarge = errors.New("push too large")
	errBodyTooSlow  = errors.New("request body too slow")
)

// rpcOutput streams git's stdout to the client. While a push body is still
// being read it holds git's output back (up to holdBytes), so that a push
// that turns out too large is answered 413 rather than 200.
type rpcOutput struct {
	w           http.ResponseWriter
	contentType string

	mu        sync.Mutex
	started   bool
	inputDone bool
	large     bool
	held      bytes.Buffer
}

const holdBytes = 1 << 20

func (o *rpcOutput) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.large && !o.started {
		return len(p), nil
	}
	if !o.started && !o.inputDone && o.held.Len()+len(p) <= holdBytes {
		o.held.Write(p)
		return len(p), nil
	}
	o.start()
	n, err := o.w.Write(p)
	_ = http.NewResponseController(o.w).Flush()
	return n, err
}

// start writes the headers and what was held; o.mu is held.
func (o *rpcOutput) start() {
	if o.started {
		return
	}
	o.started = true
	o.w.Header().Set("Content-Type", o.contentType)
	o.w.WriteHeader(http.StatusOK)
	o.w.Write(o.held.Bytes())
	o.held.Reset()
}

func (o *rpcOutput) setTooLarge() {
	o.mu.Lock()
	o.large = true
	o.mu.Unlock()
}

func (o *rpcOutput) isTooLarge() bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.large
}

func (o *rpcOutput) setInputDone() {
	o.mu.Lock()
	o.inputDone = true
	o.mu.Unlock()
}

// finish answers 413 for a push over the limit not yet answered, and
// otherwise sends what is held.
func (o *rpcOutput) finish(limit int64, runErr error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	switch {
	case o.started:
	case o.large:
		o.started = true
		tooLarge(o.w, limit)
	case runErr != nil && o.held.Len() == 0:
		o.started = true
		var exit *exec.ExitError
		if errors.As(runErr, &exit) {
			// git ran and refused what the client sent (a malformed
			// request): the client's error, not the server's.
			http.Error(o.w, "git refused the request", http.StatusBadRequest)
			return
		}
		http.Error(o.w, "git failed", http.StatusInternalServerError)
	default:
		o.start()
	}
}

// limitedBuffer keeps the first 64 KiB written to it.
type limitedBuffer struct{ bytes.Buffer }

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if room := 64<<10 - b.Len(); room > 0 {
		b.Buffer.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

// cmpOr is v, or def when v is zero.
func cmpOr(v, def int64) int64 {
	if v == 0 {
		return def
	}
	return v
}
