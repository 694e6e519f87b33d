package gitstore

// Mirror git operations: the clone of a migration, the fetch of a pull
// mirror and the `push --mirror` of a push mirror, against a remote over
// http(s).
//
// Credentials never reach the command line, the repository's config or an
// error: they travel as an http.extraHeader set through GIT_CONFIG_*
// environment variables of the one git process, and every error is scrubbed
// of the address's userinfo and of the credentials themselves.
//
// The address policy (package mirror's Policy, given as
// MirrorRemote.Resolve and Control) is enforced before git connects: the
// host is resolved here and every address it resolves to is checked, and
// git's libcurl is pinned to those addresses (http.curloptResolve), so a
// DNS server that answers a public address to the check and a private one
// to git a moment later (DNS rebinding) can't steer git elsewhere; the
// probe's own connections are checked when dialled. git is told not to
// follow redirects (http.followRedirects=false), so it can't be bounced
// to an address that was never checked. (The older MirrorRemote.Check
// hook checks the addresses but pins nothing.)

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/mirror"
)

// MirrorRemote is the remote end of a mirror operation.
type MirrorRemote struct {
	// URL is the http(s) address of the remote repository. Userinfo in it
	// is used as credentials when Username is empty, and scrubbed from
	// every error.
	URL string
	// Username and Password are the credentials, if any.
	Username, Password string
	// Check, when set, is the address policy: called with the host and
	// every address it resolves to, before git runs; an error refuses the
	// operation (it is returned as is, so it carries the policy's
	// category).
	Check func(ctx context.Context, host string, ips []net.IP) error
	// Resolve, when set, replaces the lookup and Check of the host: it
	// checks the name, resolves it and checks every address (package
	// mirror's Policy.Resolve).
	Resolve func(ctx context.Context, host string) ([]netip.Addr, error)
	// Control, when set, checks every connection the probe dials (package
	// mirror's Policy.Control); otherwise Check is used.
	Control func(network, address string, c syscall.RawConn) error
	// Local makes URL a local path (a migration an administrator allowed):
	// no credentials, no probe, only the file protocol.
	Local bool
	// pinned are the addresses Resolve checked: git and the probe connect
	// to those only.
	pinned []netip.Addr
	// Timeout bounds the whole operation; 0 means no bound but ctx's.
	Timeout time.Duration
	// MaxBytes bounds the repository's size on disk while the operation
	// runs: past it git is stopped and the operation fails with
	// forge.ErrInvalid. 0 means no bound.
	MaxBytes int64
}

// remoteArgs checks the remote and returns the address git is given (no
// userinfo), the environment carrying the credentials, and the scrubber of
// errors.
func (r *MirrorRemote) prepare(ctx context.Context) (addr string, env []string, scrub func(string) string, err error) {
	secrets := []string{r.Password}
	if r.Local {
		scrub = func(s string) string { return s }
		if r.URL == "" || strings.HasPrefix(r.URL, "-") {
			return "", nil, scrub, forge.Errorf(forge.ErrInvalid, "invalid remote address")
		}
		return r.URL, []string{"GIT_ALLOW_PROTOCOL=file"}, scrub, nil
	}
	u, err := url.Parse(r.URL)
	scrub = func(s string) string {
		for _, x := range secrets {
			if x != "" {
				s = strings.ReplaceAll(s, x, "<credentials>")
			}
		}
		return s
	}
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") || u.Opaque != "" {
		return "", nil, scrub, forge.Errorf(forge.ErrInvalid, "invalid remote address")
	}
	user, pass := r.Username, r.Password
	if u.User != nil {
		if user == "" {
			user = u.User.Username()
			pass, _ = u.User.Password()
		}
		secrets = append(secrets, u.User.String(), url.PathEscape(u.User.Username()))
		if p, ok := u.User.Password(); ok {
			secrets = append(secrets, p, url.QueryEscape(p), url.PathEscape(p))
		}
		u.User = nil
	}
	if pass != "" {
		secrets = append(secrets, pass, url.QueryEscape(pass), url.PathEscape(pass))
	}
	config := [][2]string{
		{"http.followRedirects", "false"}, {"credential.helper", ""}, {"core.askPass", ""},
	}
	if user != "" || pass != "" {
		token := base64.StdEncoding.EncodeToString([]byte(user + ":" + pass))
		secrets = append(secrets, token)
		config = append(config, [2]string{"http.extraHeader", "Authorization: Basic " + token})
	}
	defer func() {
		// Only http(s), also for submodules or helpers git might consider.
		env = append(env, "GIT_ALLOW_PROTOCOL=http:https", "GIT_ASKPASS=/bin/false", "SSH_ASKPASS=/bin/false",
			"GIT_CONFIG_COUNT="+strconv.Itoa(len(config)))
		for i, kv := range config {
			env = append(env, fmt.Sprintf("GIT_CONFIG_KEY_%d=%s", i, kv[0]), fmt.Sprintf("GIT_CONFIG_VALUE_%d=%s", i, kv[1]))
		}
	}()
	if r.Resolve != nil {
		ips, err := r.Resolve(ctx, u.Hostname())
		if err != nil {
			return "", nil, scrub, err
		}
		// git (libcurl) would resolve the name again, and a DNS server
		// could then answer an address never checked (rebinding): the
		// name is pinned to the checked addresses.
		config = append(config, pinResolve(u, ips)...)
		r.pinned = ips
	} else if r.Check != nil {
		host := u.Hostname()
		var ips []net.IP
		if ip := net.ParseIP(host); ip != nil {
			ips = []net.IP{ip}
		} else {
			addrs, err := net.DefaultResolver.LookupIPAddr(ctx, host)
			if err != nil || len(addrs) == 0 {
				return "", nil, scrub, transferError("the remote host %s can't be resolved", host)
			}
			for _, a := range addrs {
				ips = append(ips, a.IP)
			}
		}
		if err := r.Check(ctx, host, ips); err != nil {
			return "", nil, scrub, err
		}
	}
	return u.String(), env, scrub, nil
}

// pinResolve is the http.curloptResolve entries that make libcurl
// connect to u's host only at ips (the addresses the policy checked):
// `host:port:addr[,addr]`, IPv6 addresses in brackets, for the host as
// written and without a final dot. An IP literal host needs none.
func pinResolve(u *url.URL, ips []netip.Addr) [][2]string {
	host := strings.ToLower(u.Hostname())
	if _, err := netip.ParseAddr(host); err != nil && len(ips) > 0 {
		port := u.Port()
		if port == "" {
			port = "80"
			if u.Scheme == "https" {
				port = "443"
			}
		}
		addrs := make([]string, len(ips))
		for i, ip := range ips {
			ip = ip.Unmap().WithZone("")
			if ip.Is6() {
				addrs[i] = "[" + ip.String() + "]"
			} else {
				addrs[i] = ip.String()
			}
		}
		var out [][2]string
		for _, h := range []string{host, strings.TrimSuffix(host, ".")} {
			if h != "" && (len(out) == 0 || h != host) {
				out = append(out, [2]string{"http.curloptResolve", h + ":" + port + ":" + strings.Join(addrs, ",")})
			}
		}
		return out
	}
	return nil
}

// probe asks the remote for its smart HTTP advertisement of service
// (git-upload-pack or git-receive-pack) with the credentials, following no
// redirect: git would fall back to the dumb protocol (and clone an HTML
// page as an empty repository), so a remote that does not answer as a
// smart HTTP git server is refused here. The connection is checked against
// the policy at dial time.
func (r MirrorRemote) probe(ctx context.Context, addr, service string, scrub func(string) string) error {
	if r.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, r.Timeout)
		defer cancel()
	}
	dialer := &net.Dialer{Timeout: 30 * time.Second, Control: r.Control}
	if r.Control == nil && r.Check != nil {
		dialer.Control = func(_, address string, _ syscall.RawConn) error {
			host, _, _ := net.SplitHostPort(address)
			ip := net.ParseIP(host)
			if ip == nil {
				return forge.Errorf(forge.ErrForbidden, "refused address")
			}
			return r.Check(ctx, host, []net.IP{ip})
		}
	}
	dial := dialer.DialContext
	if len(r.pinned) > 0 {
		// The name is not resolved again: the checked addresses are dialled.
		dial = func(ctx context.Context, network, address string) (net.Conn, error) {
			_, port, err := net.SplitHostPort(address)
			if err != nil {
				return nil, err
			}
			var last error
			for _, ip := range r.pinned {
				c, err := dialer.DialContext(ctx, network, net.JoinHostPort(ip.Unmap().WithZone("").String(), port))
				if err == nil {
					return c, nil
				}
				last = err
			}
			return nil, last
		}
	}
	client := &http.Client{
		Transport:     &http.Transport{DialContext: dial, Proxy: nil, TLSHandshakeTimeout: 30 * time.Second},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	defer client.CloseIdleConnections()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimSuffix(addr, "/")+"/info/refs?service="+service, nil)
	if err != nil {
		return forge.Errorf(forge.ErrInvalid, "invalid remote address")
	}
	user, pass := r.Username, r.Password
	if u, err := url.Parse(r.URL); err == nil && u.User != nil && user == "" {
		user = u.User.Username()
		pass, _ = u.User.Password()
	}
	if user != "" || pass != "" {
		req.SetBasicAuth(user, pass)
	}
	req.Header.Set("Git-Protocol", "version=2")
	resp, err := client.Do(req)
	if err != nil {
		for _, c := range []error{forge.ErrForbidden, forge.ErrInvalid} {
			if errors.Is(err, c) {
				return forge.Errorf(c, "%s", scrub(rootMessage(err)))
			}
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return transferError("the remote is unreachable: %s", scrub(rootMessage(err)))
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden:
		return forge.Reasonf(forge.ErrInvalid, mirror.ErrTransferAuth, "authentication failed for the remote")
	case resp.StatusCode >= 300 && resp.StatusCode < 400:
		return transferError("the remote redirects (%d): redirects are not followed", resp.StatusCode)
	case resp.StatusCode != http.StatusOK:
		return transferError("the remote is not a git repository (status %d)", resp.StatusCode)
	case resp.Header.Get("Content-Type") != "application/x-"+service+"-advertisement":
		return transferError("the remote is not a git repository")
	}
	return nil
}

// rootMessage is the message of the innermost error (a url.Error's
// message names the address).
func rootMessage(err error) string {
	for {
		u := errors.Unwrap(err)
		if u == nil {
			return err.Error()
		}
		err = u
	}
}

// mirrorError is a failed remote operation, scrubbed of credentials: its
// category is forge.ErrInvalid with reason mirror.ErrTransferAuth when
// git says the remote refused the credentials, mirror.ErrTransfer
// otherwise (unreachable, not a git repository, git's failure), or the
// context's error.
func mirrorError(ctx context.Context, op string, err error, stderr string, scrub func(string) string) error {
	if ctx.Err() != nil {
		return fmt.Errorf("%s: %w", op, ctx.Err())
	}
	msg := strings.TrimSpace(stderr)
	if msg == "" && err != nil {
		msg = err.Error()
	}
	// The last line of git's stderr is its verdict ("fatal: ...").
	lines := strings.Split(msg, "\n")
	msg = strings.TrimSpace(lines[len(lines)-1])
	reason := mirror.ErrTransfer
	if gitRefusedCredentials(msg) {
		reason = mirror.ErrTransferAuth
	}
	return forge.Reasonf(forge.ErrInvalid, reason, "%s: %s", op, scrub(msg))
}

// gitRefusedCredentials reads git's verdict on a failed transfer: the
// git command line tells a refused (or missing) credential only in its
// fatal message (`fatal: Authentication failed for '…'`, `fatal: could
// not read Username for '…'` when it would have prompted). This is the
// one place the verdict is read; above the git layer the failure is
// mirror.ErrTransferAuth.
func gitRefusedCredentials(verdict string) bool {
	return strings.Contains(verdict, "Authentication failed") || strings.Contains(verdict, "could not read Username")
}

// transferError is a failed transfer that is not the credentials' fault:
// forge.ErrInvalid with reason mirror.ErrTransfer.
func transferError(format string, args ...any) error {
	return forge.Reasonf(forge.ErrInvalid, mirror.ErrTransfer, format, args...)
}

// runRemote runs a git command talking to a remote, bounded by the
// remote's timeout and size cap (the size of dir on disk).
func (s *Store) runRemote(ctx context.Context, r MirrorRemote, dir string, env []string, scrub func(string) string, op string, args ...string) error {
	if r.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, r.Timeout)
		defer cancel()
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	c := s.cmd(ctx, 0, env, args...)
	c.Dir = dir
	var stderr bytes.Buffer
	c.Stderr = &stderr
	if err := c.Start(); err != nil {
		return err
	}
	done := make(chan error, 1)
	go func() { done <- c.Wait() }()
	var tooLarge bool
	var tick <-chan time.Time
	if r.MaxBytes > 0 {
		t := time.NewTicker(100 * time.Millisecond)
		defer t.Stop()
		tick = t.C
	}
	for {
		select {
		case err := <-done:
			if tooLarge {
				return transferError("%s: the repository exceeds the size limit of %d bytes", op, r.MaxBytes)
			}
			if err != nil {
				return mirrorError(ctx, op, err, stderr.String(), scrub)
			}
			if r.MaxBytes > 0 && dirSize(dir) > r.MaxBytes {
				return transferError("%s: the repository exceeds the size limit of %d bytes", op, r.MaxBytes)
			}
			return nil
		case <-tick:
			if !tooLarge && dirSize(dir) > r.MaxBytes {
				tooLarge = true
				cancel(errors.New("too large"))
			}
		}
	}
}

// dirSize is the size of the files under dir.
func dirSize(dir string) int64 {
	var total int64
	filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if info, err := d.Info(); err == nil {
				total += info.Size()
			}
		}
		return nil
	})
	return total
}

// Clone creates repository repo as a bare copy of the remote's branches
// and tags, in the remote's object format (SHA-1 or SHA-256), and returns
// that format. The repository appears whole or not at all: the clone is
// made in a temporary directory and moved in place. The remote's address
// is not kept in the repository. Errors: forge.ErrConflict if the
// repository exists; forge.ErrInvalid for a bad address, an unreachable
// remote, not a git repository, refused credentials or the size cap; the
// policy's error.
func (s *Store) Clone(ctx context.Context, repo forge.ID, r MirrorRemote) (forge.ObjectFormat, error) {
	path := s.Path(repo)
	if _, err := os.Stat(path); err == nil {
		return "", forge.Errorf(forge.ErrConflict, "repository files already exist [id: %d]", repo)
	}
	addr, env, scrub, err := r.prepare(ctx)
	if err != nil {
		return "", err
	}
	tmp, err := s.tmpDir()
	if err != nil {
		return "", err
	}
	work, err := os.MkdirTemp(tmp, "clone-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(work)
	if !r.Local {
		if err := r.probe(ctx, addr, "git-upload-pack", scrub); err != nil {
			return "", err
		}
	}
	dst := filepath.Join(work, "repo.git")
	if err := s.runRemote(ctx, r, work, env, scrub, "clone",
		"clone", "--quiet", "--bare", "--no-tags", "--", addr, dst); err != nil {
		return "", err
	}
	// The address stays out of the repository; tags come with an explicit
	// fetch so that every tag (not only those on branches) is copied.
	if _, err := s.runGit(ctx, dst, "config", "--remove-section", "remote.origin"); err != nil {
		return "", err
	}
	if err := s.runRemote(ctx, r, dst, env, scrub, "fetch", "fetch", "--quiet", "--no-write-fetch-head", "--", addr,
		"+refs/tags/*:refs/tags/*"); err != nil {
		return "", err
	}
	out, err := s.runGit(ctx, dst, "rev-parse", "--show-object-format")
	if err != nil {
		return "", err
	}
	format := forge.ObjectFormat(strings.TrimSpace(string(out)))
	if !format.Valid() {
		return "", fmt.Errorf("clone: unknown object format %q", format)
	}
	s.catFiles.drop(repo)
	s.formats.m.Delete(repo)
	if err := os.Rename(dst, path); err != nil {
		return "", err
	}
	return format, nil
}

// runGit runs a local git command in dir.
func (s *Store) runGit(ctx context.Context, dir string, args ...string) ([]byte, error) {
	c := s.cmd(ctx, 0, nil, args...)
	c.Dir = dir
	var stdout, stderr bytes.Buffer
	c.Stdout, c.Stderr = &stdout, &stderr
	if err := c.Run(); err != nil {
		return nil, &gitError{args: args, err: err, stderr: stderr.String()}
	}
	return stdout.Bytes(), nil
}

// Fetch updates the pull mirror repo from the remote: branches and tags are
// forced to the remote's (+refs/heads/*:refs/heads/*,
// +refs/tags/*:refs/tags/*), and with prune the ones the remote no longer
// has are deleted. It returns the references that changed (OldID or NewID
// all zeros for a created or deleted one), for the push listeners. Errors
// as Clone's, and forge.ErrNotFound if the repository does not exist.
func (s *Store) Fetch(ctx context.Context, repo forge.ID, r MirrorRemote, prune bool) ([]repos.RefUpdate, error) {
	if err := s.exists(repo); err != nil {
		return nil, err
	}
	addr, env, scrub, err := r.prepare(ctx)
	if err != nil {
		return nil, err
	}
	if !r.Local {
		if err := r.probe(ctx, addr, "git-upload-pack", scrub); err != nil {
			return nil, err
		}
	}
	unlock := s.lock(repo)
	defer unlock()
	path := s.Path(repo)
	before, err := s.refMap(ctx, path)
	if err != nil {
		return nil, err
	}
	args := []string{"fetch", "--quiet", "--no-write-fetch-head", "--force", "--no-tags"}
	if prune {
		args = append(args, "--prune")
	}
	args = append(args, "--", addr, "+refs/heads/*:refs/heads/*", "+refs/tags/*:refs/tags/*")
	ferr := s.runRemote(ctx, r, path, env, scrub, "fetch", args...)
	// Whatever happened, the references may have moved: report them and
	// forget cached state.
	s.catFiles.drop(repo)
	after, err := s.refMap(ctx, path)
	if err != nil {
		return nil, err
	}
	updates := diffRefs(before, after, s.zeroID(repo))
	if ferr != nil {
		return updates, ferr
	}
	return updates, nil
}

// zeroID is the all-zeros id of the repository's object format.
func (s *Store) zeroID(repo forge.ID) string {
	if s.isSHA1(repo) {
		return strings.Repeat("0", 40)
	}
	return strings.Repeat("0", 64)
}

// refMap reads every branch and tag of the repository at path.
func (s *Store) refMap(ctx context.Context, path string) (map[string]string, error) {
	out, err := s.runGit(ctx, path, "for-each-ref", "--format=%(objectname) %(refname)", "refs/heads", "refs/tags")
	if err != nil {
		return nil, err
	}
	m := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		if id, ref, ok := strings.Cut(sc.Text(), " "); ok {
			m[ref] = id
		}
	}
	return m, sc.Err()
}

// diffRefs lists the changes from before to after, ordered by reference.
func diffRefs(before, after map[string]string, zero string) []repos.RefUpdate {
	var out []repos.RefUpdate
	for ref, id := range after {
		if old, ok := before[ref]; !ok {
			out = append(out, repos.RefUpdate{Ref: ref, OldID: zero, NewID: id})
		} else if old != id {
			out = append(out, repos.RefUpdate{Ref: ref, OldID: old, NewID: id})
		}
	}
	for ref, id := range before {
		if _, ok := after[ref]; !ok {
			out = append(out, repos.RefUpdate{Ref: ref, OldID: id, NewID: zero})
		}
	}
	sortUpdates(out)
	return out
}

func sortUpdates(u []repos.RefUpdate) {
	for i := 1; i < len(u); i++ {
		for j := i; j > 0 && u[j].Ref < u[j-1].Ref; j-- {
			u[j], u[j-1] = u[j-1], u[j]
		}
	}
}

// PushMirror pushes every branch and tag of repo to the remote, forcing
// them and deleting the remote's others (`git push --mirror` of refs/heads
// and refs/tags). Errors as Fetch's.
func (s *Store) PushMirror(ctx context.Context, repo forge.ID, r MirrorRemote) error {
	return s.PushRefs(ctx, repo, r, nil)
}

// PushRefs is PushMirror of the given refspecs (force, no prune) when
// refspecs is not empty.
func (s *Store) PushRefs(ctx context.Context, repo forge.ID, r MirrorRemote, refspecs []string) error {
	if err := s.exists(repo); err != nil {
		return err
	}
	addr, env, scrub, err := r.prepare(ctx)
	if err != nil {
		return err
	}
	if !r.Local {
		if err := r.probe(ctx, addr, "git-receive-pack", scrub); err != nil {
			return err
		}
	}
	r.MaxBytes = 0 // a push does not grow the local repository
	args := []string{"push", "--quiet", "--force", "--prune", "--", addr, "+refs/heads/*:refs/heads/*", "+refs/tags/*:refs/tags/*"}
	if len(refspecs) > 0 {
		args = append([]string{"push", "--quiet", "--force", "--", addr}, refspecs...)
	}
	return s.runRemote(ctx, r, s.Path(repo), env, scrub, "push", args...)
}
