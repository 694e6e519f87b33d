package gitstore

import (
	"context"
	"crypto/rand"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/mirror"
)

// gitServer is a second Hearth store served over smart HTTP at
// <url>/<id>.git, with basic auth user:pass when user is set.
type gitServer struct {
	store *Store
	url   string
}

func newGitServer(t *testing.T, user, pass string) *gitServer {
	t.Helper()
	s, err := Open(t.TempDir())
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if user != "" {
			u, p, ok := r.BasicAuth()
			if !ok || u != user || p != pass {
				w.Header().Set("WWW-Authenticate", `Basic realm="git"`)
				http.Error(w, "unauthorized", http.StatusUnauthorized)
				return
			}
		}
		name, sub, ok := strings.Cut(strings.TrimPrefix(r.URL.Path, "/"), ".git")
		id, err := strconv.ParseInt(name, 10, 64)
		if !ok || err != nil {
			http.NotFound(w, r)
			return
		}
		if _, err := os.Stat(s.Path(id)); err != nil {
			http.NotFound(w, r)
			return
		}
		s.ServeGit(w, r, id, sub, "")
	}))
	t.Cleanup(srv.Close)
	return &gitServer{store: s, url: srv.URL}
}

func (g *gitServer) repoURL(id forge.ID) string {
	return g.url + "/" + strconv.FormatInt(id, 10) + ".git"
}

// gitCLI runs the git CLI as a user would, in dir.
func gitCLI(t *testing.T, dir string, args ...string) string { return forgetest.Git(t, dir, args...) }

// workTree is a clone-less work tree pushing to url.
func workTree(t *testing.T, format forge.ObjectFormat, url string) string {
	dir := t.TempDir()
	gitCLI(t, dir, "init", "-q", "--object-format="+string(format), "-b", "main")
	gitCLI(t, dir, "remote", "add", "origin", url)
	return dir
}

func commitFile(t *testing.T, dir, name, body string) string {
	require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644))
	gitCLI(t, dir, "add", name)
	gitCLI(t, dir, "commit", "-q", "-m", "add "+name)
	return gitCLI(t, dir, "rev-parse", "HEAD")
}

func allowAll(context.Context, string, []net.IP) error { return nil }

func TestMirrorPullFetchPrune(t *testing.T) {
	t.Parallel()
	for _, format := range []forge.ObjectFormat{forge.SHA1, forge.SHA256} {
		t.Run(string(format), func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			up := newGitServer(t, "", "")
			require.NoError(t, up.store.Create(ctx, 1, format, "main"))
			wt := workTree(t, format, up.repoURL(1))
			c1 := commitFile(t, wt, "a.txt", "one")
			gitCLI(t, wt, "tag", "-a", "-m", "v1", "v1")
			gitCLI(t, wt, "branch", "gone")
			gitCLI(t, wt, "push", "-q", "origin", "main", "gone", "v1")

			local, err := Open(t.TempDir())
			require.NoError(t, err)
			defer local.Close()
			remote := MirrorRemote{URL: up.repoURL(1), Check: allowAll}
			got, err := local.Clone(ctx, 7, remote)
			require.NoError(t, err)
			assert.Equal(t, format, got)
			id, err := local.Resolve(ctx, 7, "refs/heads/gone")
			require.NoError(t, err)
			assert.Equal(t, c1, id)
			_, err = local.Resolve(ctx, 7, "refs/tags/v1")
			require.NoError(t, err)
			cfg, err := os.ReadFile(filepath.Join(local.Path(7), "config"))
			require.NoError(t, err)
			assert.NotContains(t, string(cfg), up.url, "the address is not kept")

			// Upstream: a new commit, a deleted branch.
			c2 := commitFile(t, wt, "b.txt", "two")
			gitCLI(t, wt, "push", "-q", "origin", "main", ":gone")

			ups, err := local.Fetch(ctx, 7, remote, false)
			require.NoError(t, err)
			require.Len(t, ups, 1)
			assert.Equal(t, "refs/heads/main", ups[0].Ref)
			assert.Equal(t, c1, ups[0].OldID)
			assert.Equal(t, c2, ups[0].NewID)
			id, err = local.Resolve(ctx, 7, "refs/heads/main")
			require.NoError(t, err)
			assert.Equal(t, c2, id)
			_, err = local.Resolve(ctx, 7, "refs/heads/gone")
			assert.NoError(t, err, "kept without prune")

			ups, err = local.Fetch(ctx, 7, remote, true)
			require.NoError(t, err)
			require.Len(t, ups, 1)
			assert.Equal(t, "refs/heads/gone", ups[0].Ref)
			assert.Equal(t, strings.Repeat("0", format.HexLen()), ups[0].NewID)
			_, err = local.Resolve(ctx, 7, "refs/heads/gone")
			assert.True(t, errors.Is(err, forge.ErrNotFound), "pruned: %v", err)

			ups, err = local.Fetch(ctx, 7, remote, true)
			require.NoError(t, err)
			assert.Empty(t, ups, "nothing changed")
		})
	}
}

func TestMirrorPush(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	down := newGitServer(t, "bob", "s3cr3t-pass")
	require.NoError(t, down.store.Create(ctx, 2, forge.SHA1, "main"))

	local, err := Open(t.TempDir())
	require.NoError(t, err)
	defer local.Close()
	src := newGitServer(t, "", "")
	require.NoError(t, src.store.Create(ctx, 1, forge.SHA1, "main"))
	wt := workTree(t, forge.SHA1, src.repoURL(1))
	c1 := commitFile(t, wt, "a.txt", "one")
	gitCLI(t, wt, "push", "-q", "origin", "main")
	_, err = local.Clone(ctx, 3, MirrorRemote{URL: src.repoURL(1)})
	require.NoError(t, err)

	// Wrong credentials: refused, and neither the password nor its
	// encoding is in the error.
	bad := MirrorRemote{URL: down.repoURL(2), Username: "bob", Password: "wrong-pass-123"}
	err = local.PushMirror(ctx, 3, bad)
	require.Error(t, err)
	assert.True(t, errors.Is(err, forge.ErrInvalid), "%v", err)
	assert.NotContains(t, err.Error(), "wrong-pass-123")

	inURL := MirrorRemote{URL: strings.Replace(down.repoURL(2), "http://", "http://bob:wrong-pass-456@", 1)}
	err = local.PushMirror(ctx, 3, inURL)
	require.Error(t, err)
	assert.NotContains(t, err.Error(), "wrong-pass-456")
	assert.NotContains(t, err.Error(), "bob:")

	good := MirrorRemote{URL: down.repoURL(2), Username: "bob", Password: "s3cr3t-pass"}
	require.NoError(t, local.PushMirror(ctx, 3, good))
	id, err := down.store.Resolve(ctx, 2, "refs/heads/main")
	require.NoError(t, err)
	assert.Equal(t, c1, id)
	cfg, _ := os.ReadFile(filepath.Join(local.Path(3), "config"))
	assert.NotContains(t, string(cfg), "s3cr3t")
}

func TestMirrorRefusals(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	local, err := Open(t.TempDir())
	require.NoError(t, err)
	defer local.Close()

	// Not a git remote.
	web := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("<html>hello</html>"))
	}))
	defer web.Close()
	_, err = local.Clone(ctx, 1, MirrorRemote{URL: web.URL + "/x.git"})
	assertTransfer(t, err, mirror.ErrTransfer)
	assertNoRepo(t, local, 1)

	// Unreachable: a closed port.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := l.Addr().String()
	l.Close()
	_, err = local.Clone(ctx, 1, MirrorRemote{URL: "http://" + addr + "/x.git"})
	assertTransfer(t, err, mirror.ErrTransfer)
	assertNoRepo(t, local, 1)

	// Redirects are not followed (to an address never checked).
	up := newGitServer(t, "", "")
	require.NoError(t, up.store.Create(ctx, 1, forge.SHA1, "main"))
	redir := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, up.url+"/1.git"+strings.TrimPrefix(r.URL.Path, "/x.git")+"?"+r.URL.RawQuery, http.StatusFound)
	}))
	defer redir.Close()
	_, err = local.Clone(ctx, 1, MirrorRemote{URL: redir.URL + "/x.git"})
	assertTransfer(t, err, mirror.ErrTransfer)
	assertNoRepo(t, local, 1)

	// Refused credentials, or none where some are needed.
	locked := newGitServer(t, "u", "right")
	require.NoError(t, locked.store.Create(ctx, 1, forge.SHA1, "main"))
	for _, pass := range []string{"wrong", ""} {
		_, err = local.Clone(ctx, 1, MirrorRemote{URL: locked.repoURL(1), Username: "u", Password: pass})
		assertTransfer(t, err, mirror.ErrTransferAuth)
		assertNoRepo(t, local, 1)
	}

	// The policy sees the resolved addresses and its refusal stands.
	var seen []net.IP
	policy := func(_ context.Context, host string, ips []net.IP) error {
		seen = ips
		for _, ip := range ips {
			if ip.IsLoopback() {
				return forge.Errorf(forge.ErrForbidden, "You can not import from disallowed hosts.")
			}
		}
		return nil
	}
	_, err = local.Clone(ctx, 1, MirrorRemote{URL: strings.Replace(up.repoURL(1), "127.0.0.1", "localhost", 1), Check: policy})
	assert.True(t, errors.Is(err, forge.ErrForbidden), "%v", err)
	assert.NotEmpty(t, seen)
	assertNoRepo(t, local, 1)

	// Bad addresses.
	for _, u := range []string{"file:///etc", "ext::sh -c id", "/tmp/x", "ssh://h/x", "http://"} {
		_, err = local.Clone(ctx, 1, MirrorRemote{URL: u})
		assert.True(t, errors.Is(err, forge.ErrInvalid), "%s: %v", u, err)
	}
	assertNoRepo(t, local, 1)

	// Size cap.
	wt := workTree(t, forge.SHA1, up.repoURL(1))
	big := make([]byte, 3<<20)
	rand.Read(big) // incompressible
	require.NoError(t, os.WriteFile(filepath.Join(wt, "big.bin"), big, 0o644))
	gitCLI(t, wt, "add", "big.bin")
	gitCLI(t, wt, "commit", "-q", "-m", "big")
	gitCLI(t, wt, "push", "-q", "origin", "main")
	_, err = local.Clone(ctx, 1, MirrorRemote{URL: up.repoURL(1), MaxBytes: 1 << 20})
	assertTransfer(t, err, mirror.ErrTransfer)
	assertNoRepo(t, local, 1)

	// Existing repository.
	require.NoError(t, local.Create(ctx, 5, forge.SHA1, "main"))
	_, err = local.Clone(ctx, 5, MirrorRemote{URL: up.repoURL(1)})
	assert.True(t, errors.Is(err, forge.ErrConflict), "%v", err)
	// Fetch of a missing repository.
	_, err = local.Fetch(ctx, 6, MirrorRemote{URL: up.repoURL(1)}, false)
	assert.True(t, errors.Is(err, forge.ErrNotFound), "%v", err)
}

// assertTransfer checks that err is a failed transfer of the given reason
// (mirror.ErrTransferAuth is also mirror.ErrTransfer), forge.ErrInvalid.
func assertTransfer(t *testing.T, err, reason error) {
	t.Helper()
	assert.True(t, errors.Is(err, forge.ErrInvalid) && errors.Is(err, reason), "want %v: %v", reason, err)
	if reason == mirror.ErrTransfer {
		assert.False(t, errors.Is(err, mirror.ErrTransferAuth), "not the credentials' fault: %v", err)
	}
}

// TestMirrorErrorReasons: git's verdict on a failed transfer becomes the
// transfer's reason here, in the git layer, scrubbed of the credentials.
func TestMirrorErrorReasons(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	scrub := func(s string) string { return strings.ReplaceAll(s, "s3cret", "<credentials>") }
	for _, c := range []struct {
		stderr string
		reason error
	}{
		{"remote: x\nfatal: Authentication failed for 'https://h/x.git/'", mirror.ErrTransferAuth},
		{"fatal: could not read Username for 'https://h': terminal prompts disabled", mirror.ErrTransferAuth},
		{"fatal: unable to access 'https://h/x.git/': Could not resolve host: h (s3cret)", mirror.ErrTransfer},
		{"fatal: the remote end hung up unexpectedly", mirror.ErrTransfer},
	} {
		err := mirrorError(ctx, "clone", errors.New("exit status 128"), c.stderr, scrub)
		assertTransfer(t, err, c.reason)
		assert.True(t, strings.HasPrefix(err.Error(), "clone: fatal: "), "%v", err)
		assert.NotContains(t, err.Error(), "s3cret")
	}
	done, cancel := context.WithCancel(ctx)
	cancel()
	err := mirrorError(done, "fetch", errors.New("killed"), "", scrub)
	assert.True(t, errors.Is(err, context.Canceled) && !errors.Is(err, mirror.ErrTransfer), "%v", err)
}

func assertNoRepo(t *testing.T, s *Store, id forge.ID) {
	t.Helper()
	_, err := os.Stat(s.Path(id))
	assert.True(t, os.IsNotExist(err), "no directory for %d", id)
	left, _ := os.ReadDir(filepath.Join(s.Root(), ".tmp"))
	assert.Empty(t, left, "no temporary clone left")
}

func TestMirrorGitAdapter(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	up := newGitServer(t, "", "")
	require.NoError(t, up.store.Create(ctx, 1, forge.SHA256, "main"))
	wt := workTree(t, forge.SHA256, up.repoURL(1))
	commitFile(t, wt, "a.txt", "one")
	gitCLI(t, wt, "branch", "release-1")
	gitCLI(t, wt, "branch", "other")
	gitCLI(t, wt, "push", "-q", "origin", "main", "release-1", "other")

	local, err := Open(t.TempDir())
	require.NoError(t, err)
	defer local.Close()
	g := Mirror{Store: local}
	addr, err := mirror.ParseRemoteAddress(up.repoURL(1), "", "")
	require.NoError(t, err)

	// Loopback is refused by default.
	_, err = g.Clone(ctx, 1, mirror.Remote{Address: addr}, mirror.CloneOptions{Mirror: true})
	assert.True(t, errors.Is(err, mirror.ErrAddrBlocked), "%v", err)
	assert.False(t, errors.Is(err, mirror.ErrTransfer), "a policy refusal is no transfer: %v", err)
	assertNoRepo(t, local, 1)

	allowed := mirror.Remote{Address: addr, Policy: mirror.Policy{AllowLoopback: true}}
	_, err = g.Clone(ctx, 1, allowed, mirror.CloneOptions{Format: forge.SHA1})
	assertTransfer(t, err, mirror.ErrTransfer)
	assertNoRepo(t, local, 1)
	format, err := g.Clone(ctx, 1, allowed, mirror.CloneOptions{Mirror: true})
	require.NoError(t, err)
	assert.Equal(t, forge.SHA256, format, "the remote's object format")

	gitCLI(t, wt, "push", "-q", "origin", ":other")
	ups, err := g.Fetch(ctx, 1, allowed, true)
	require.NoError(t, err)
	assert.Equal(t, []mirror.RefUpdate{{Ref: "refs/heads/other", OldID: ups[0].OldID}}, ups)

	// Push with a branch filter: only release-* arrives.
	down := newGitServer(t, "", "")
	require.NoError(t, down.store.Create(ctx, 2, forge.SHA256, "main"))
	daddr, err := mirror.ParseRemoteAddress(down.repoURL(2), "", "")
	require.NoError(t, err)
	require.NoError(t, g.Push(ctx, 1, mirror.Remote{Address: daddr, Policy: mirror.Policy{AllowLoopback: true}}, "release-*"))
	refs, err := down.store.Refs(ctx, 2)
	require.NoError(t, err)
	require.Len(t, refs, 1)
	assert.Equal(t, "refs/heads/release-1", refs[0].Name)
}

// pinResolver answers a fixed address for every name.
type pinResolver struct{ addr netip.Addr }

func (p pinResolver) LookupNetIP(context.Context, string, string) ([]netip.Addr, error) {
	return []netip.Addr{p.addr}, nil
}

// TestMirrorPinsCheckedAddress: git connects to the address the policy
// checked, not to one it resolves itself (DNS rebinding): a name that
// only the policy's resolver knows (.invalid never resolves) reaches the
// remote, through a clone and a fetch; the default policy whose resolver
// answers loopback in any form or a special-purpose address refuses
// before git runs.
func TestMirrorPinsCheckedAddress(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	up := newGitServer(t, "", "")
	require.NoError(t, up.store.Create(ctx, 1, forge.SHA1, "main"))
	wt := workTree(t, forge.SHA1, up.repoURL(1))
	commitFile(t, wt, "a.txt", "one")
	gitCLI(t, wt, "push", "-q", "origin", "main")
	local, err := Open(t.TempDir())
	require.NoError(t, err)
	defer local.Close()
	g := Mirror{Store: local}
	named := strings.Replace(up.repoURL(1), "127.0.0.1", "git.hearth.invalid", 1)
	addr, err := mirror.ParseRemoteAddress(named, "", "")
	require.NoError(t, err)
	pinned := mirror.Remote{Address: addr, Policy: mirror.Policy{AllowLoopback: true, Resolver: pinResolver{netip.MustParseAddr("127.0.0.1")}}}
	_, err = g.Clone(ctx, 1, pinned, mirror.CloneOptions{Mirror: true})
	require.NoError(t, err)
	commitFile(t, wt, "b.txt", "two")
	gitCLI(t, wt, "push", "-q", "origin", "main")
	ups, err := g.Fetch(ctx, 1, pinned, true)
	require.NoError(t, err)
	assert.Len(t, ups, 1)

	for _, bad := range []string{"64:ff9b::7f00:1", "::127.0.0.1", "127.0.0.1", "100.64.0.1", "0.0.0.0", "169.254.169.254"} {
		rebound := mirror.Remote{Address: addr, Policy: mirror.Policy{Resolver: pinResolver{netip.MustParseAddr(bad)}}}
		_, err = g.Fetch(ctx, 1, rebound, true)
		assert.True(t, errors.Is(err, mirror.ErrAddrBlocked), "%s: %v", bad, err)
	}
}
