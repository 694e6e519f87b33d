package blob_test

import (
	"bufio"
	"context"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/storage/blob"
)

// The fake server runs over TLS: over plain HTTP minio-go's streaming
// signature framing would be stored as part of the bytes.
const (
	testAccessKey = "hearth-test-access"
	testSecretKey = "hearth-test-secret-never-shown"
	childEnv      = "HEARTH_BLOB_FAKE_S3_CHILD"
)

// TestMain lets the test binary serve as the S3 server of
// TestS3LargeObjectBoundedMemory in a child process, so the parent's
// allocation figures are the client's alone.
func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "1" {
		serveFakeS3Child()
		return
	}
	os.Exit(m.Run())
}

func newFakeS3(t testing.TB, buckets ...string) *httptest.Server {
	backend := s3mem.New()
	for _, b := range buckets {
		require.NoError(t, backend.CreateBucket(b))
	}
	srv := httptest.NewTLSServer(gofakes3.New(backend).Server())
	t.Cleanup(srv.Close)
	return srv
}

func fakeS3Config(t testing.TB, srvURL string, transport http.RoundTripper, bucket, prefix string) blob.S3Config {
	u, err := url.Parse(srvURL)
	require.NoError(t, err)
	return blob.S3Config{Endpoint: u.Host, Bucket: bucket, Prefix: prefix, Region: "us-east-1", Secure: true,
		AccessKey: testAccessKey, SecretKey: testSecretKey, Transport: transport}
}

func openFakeS3(t testing.TB, srv *httptest.Server, bucket, prefix string) *blob.S3 {
	s, err := blob.OpenS3(context.Background(), fakeS3Config(t, srv.URL, srv.Client().Transport, bucket, prefix))
	require.NoError(t, err)
	return s
}

func TestS3Conformance(t *testing.T) {
	t.Parallel()
	srv := newFakeS3(t, "hearth")
	var mu sync.Mutex
	n := 0
	runConformance(t, func(t *testing.T) store {
		mu.Lock()
		n++
		prefix := fmt.Sprintf("suite%d/", n) // one bucket, a store per subtest
		mu.Unlock()
		return openFakeS3(t, srv, "hearth", prefix)
	})
}

// Two prefixes in one bucket are two stores.
func TestS3PrefixesAreSeparate(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	srv := newFakeS3(t, "shared")
	a, b := openFakeS3(t, srv, "shared", "a/"), openFakeS3(t, srv, "shared", "")
	_, err := a.Put(ctx, "key1", strings.NewReader("in a"), 0)
	require.NoError(t, err)
	_, err = b.Open(ctx, "key1")
	assert.ErrorIs(t, err, forge.ErrNotFound)
	var keys []string
	require.NoError(t, b.List(ctx, func(i blob.Info) error {
		keys = append(keys, i.Key)
		return nil
	}))
	assert.Empty(t, keys, "a/key1 is not a key of the unprefixed store")
}

func TestS3MissingBucket(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	srv := newFakeS3(t, "present")
	_, err := blob.OpenS3(ctx, fakeS3Config(t, srv.URL, srv.Client().Transport, "absent", ""))
	require.ErrorIs(t, err, forge.ErrInvalid)
	assert.Contains(t, err.Error(), `bucket "absent" does not exist`)
	assert.NotContains(t, err.Error(), testSecretKey)
	assert.NotContains(t, err.Error(), testAccessKey)

	// A bucket removed after the start: each operation says so, and a
	// missing bucket is not a missing blob.
	s := openFakeS3(t, srv, "present", "")
	rm, err := http.NewRequest(http.MethodDelete, srv.URL+"/present", nil)
	require.NoError(t, err)
	resp, err := srv.Client().Do(rm)
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusNoContent, resp.StatusCode)
	_, err = s.Put(ctx, "abc", strings.NewReader("x"), 0)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `bucket "present" does not exist`)
	_, err = s.Open(ctx, "abc")
	require.Error(t, err)
	assert.NotErrorIs(t, err, forge.ErrNotFound)
	assert.Contains(t, err.Error(), `bucket "present" does not exist`)
	assert.NotContains(t, err.Error(), testSecretKey)

	_, err = blob.OpenS3(ctx, blob.S3Config{Endpoint: "127.0.0.1:1", Bucket: "present", Secure: true})
	require.ErrorIs(t, err, forge.ErrInvalid)
	assert.Contains(t, err.Error(), blob.EnvS3AccessKey, "missing credentials name the variables")
}

// Writers of different keys and of one key at once: every blob is whole,
// and the shared key holds one writer's bytes entirely.
func TestS3ConcurrentWriters(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openFakeS3(t, newFakeS3(t, "busy"), "busy", "c/")
	const writers = 16
	content := func(i int) string { return strings.Repeat(fmt.Sprintf("writer %02d;", i), 1000+i) }
	var wg sync.WaitGroup
	errs := make(chan error, 2*writers)
	for i := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := s.Put(ctx, fmt.Sprintf("own%02d", i), strings.NewReader(content(i)), 0); err != nil {
				errs <- err
			}
			if _, err := s.Put(ctx, "shared", io.MultiReader(strings.NewReader(content(i))), 0); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	read := func(key string) string {
		rc, err := s.Open(ctx, key)
		require.NoError(t, err)
		defer rc.Close()
		b, err := io.ReadAll(rc)
		require.NoError(t, err)
		return string(b)
	}
	for i := range writers {
		assert.Equal(t, content(i), read(fmt.Sprintf("own%02d", i)))
	}
	shared := read("shared")
	whole := false
	for i := range writers {
		whole = whole || shared == content(i)
	}
	assert.True(t, whole, "the shared key holds one writer's blob whole (%d bytes)", len(shared))

	var listed []string
	require.NoError(t, s.List(ctx, func(b blob.Info) error {
		listed = append(listed, b.Key)
		assert.False(t, b.Modified.IsZero(), b.Key)
		if b.Key != "shared" {
			var i int
			fmt.Sscanf(b.Key, "own%02d", &i)
			assert.EqualValues(t, len(content(i)), b.Size, b.Key)
		}
		return nil
	}))
	assert.Len(t, listed, writers+1)
	stop := fmt.Errorf("enough")
	calls := 0
	err := s.List(ctx, func(blob.Info) error { calls++; return stop })
	assert.ErrorIs(t, err, stop)
	assert.Equal(t, 1, calls, "List stops at fn's first error")
}

// patternReader yields n pseudo-random bytes without holding them.
type patternReader struct {
	n, off int64
	x      uint64
}

func (p *patternReader) Read(b []byte) (int, error) {
	if p.off >= p.n {
		return 0, io.EOF
	}
	if rem := p.n - p.off; int64(len(b)) > rem {
		b = b[:rem]
	}
	for i := range b {
		p.x ^= p.x << 13
		p.x ^= p.x >> 7
		p.x ^= p.x << 17
		b[i] = byte(p.x)
	}
	p.off += int64(len(b))
	return len(b), nil
}

// A 64 MiB blob goes up as a stream and comes back as one: the client's
// allocations stay far below the object's size. The server is a child
// process so that what is measured is the client alone. Not parallel: the
// figures are the whole process's.
func TestS3LargeObjectBoundedMemory(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("64 MiB through a child process; its allocation figures mean nothing under -race")
	}
	const size = 64 << 20
	srvURL, transport := startFakeS3Child(t)
	ctx := context.Background()
	s, err := blob.OpenS3(ctx, fakeS3Config(t, srvURL, transport, "big", ""))
	require.NoError(t, err)

	want := sha256.New()
	src := io.TeeReader(&patternReader{n: size, x: 88172645463325252}, want)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	n, err := s.Put(ctx, "large", src, size)
	runtime.ReadMemStats(&after)
	require.NoError(t, err)
	require.EqualValues(t, size, n)
	putAlloc := after.TotalAlloc - before.TotalAlloc
	t.Logf("Put of %d MiB allocated %.1f MiB (part size %d MiB)", size>>20, float64(putAlloc)/(1<<20), blob.DefaultS3PartSize>>20)
	assert.Less(t, putAlloc, uint64(size/2), "the upload holds a part, not the object")

	got := sha256.New()
	runtime.GC()
	runtime.ReadMemStats(&before)
	rc, err := s.Open(ctx, "large")
	require.NoError(t, err)
	m, err := io.Copy(got, rc)
	require.NoError(t, rc.Close())
	runtime.ReadMemStats(&after)
	require.NoError(t, err)
	require.EqualValues(t, size, m)
	getAlloc := after.TotalAlloc - before.TotalAlloc
	t.Logf("Open+read of %d MiB allocated %.1f MiB", size>>20, float64(getAlloc)/(1<<20))
	assert.Less(t, getAlloc, uint64(8<<20), "the download streams")
	assert.Equal(t, want.Sum(nil), got.Sum(nil), "the bytes come back intact")

	// Over the limit mid-stream: refused, and the multipart upload aborted.
	_, err = s.Put(ctx, "refused", &patternReader{n: 20 << 20, x: 7}, 18<<20)
	require.ErrorIs(t, err, forge.ErrInvalid)
	_, err = s.Open(ctx, "refused")
	require.ErrorIs(t, err, forge.ErrNotFound)
}

// startFakeS3Child starts this test binary as a fake S3 server with bucket
// "big" and returns its URL and a transport trusting its certificate.
func startFakeS3Child(t *testing.T) (string, http.RoundTripper) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"=1")
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	require.NoError(t, err)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() {
		stdin.Close() // the child serves until its stdin closes
		cmd.Wait()
	})
	line, err := bufio.NewReader(stdout).ReadString('\n')
	require.NoError(t, err)
	f := strings.Fields(line)
	require.Len(t, f, 2, "child said %q", line)
	der, err := base64.StdEncoding.DecodeString(f[1])
	require.NoError(t, err)
	cert, err := x509.ParseCertificate(der)
	require.NoError(t, err)
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	return f[0], &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}, ForceAttemptHTTP2: true}
}

func serveFakeS3Child() {
	backend := s3mem.New()
	if err := backend.CreateBucket("big"); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	srv := httptest.NewTLSServer(gofakes3.New(backend).Server())
	fmt.Printf("%s %s\n", srv.URL, base64.StdEncoding.EncodeToString(srv.Certificate().Raw))
	io.Copy(io.Discard, os.Stdin)
	srv.Close()
}

// countingTransport counts the GETs that reach the server and the Range
// headers they carry.
type countingTransport struct {
	rt     http.RoundTripper
	mu     sync.Mutex
	gets   int
	ranges []string
}

func (c *countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Method == http.MethodGet && r.URL.Path != "/" && !r.URL.Query().Has("location") {
		c.mu.Lock()
		c.gets++
		c.ranges = append(c.ranges, r.Header.Get("Range"))
		c.mu.Unlock()
	}
	return c.rt.RoundTrip(r)
}

// A Range request served with http.ServeContent over an S3 blob reads the
// range with one ranged GET, and a plain download is one GET.
func TestS3RangeThroughServeContent(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	srv := newFakeS3(t, "ranges")
	ct := &countingTransport{rt: srv.Client().Transport}
	s, err := blob.OpenS3(ctx, fakeS3Config(t, srv.URL, ct, "ranges", ""))
	require.NoError(t, err)
	body := strings.Repeat("0123456789", 1000)
	_, err = s.Put(ctx, "ranged", strings.NewReader(body), 0)
	require.NoError(t, err)

	serve := func(rangeHeader string) *httptest.ResponseRecorder {
		rc, err := s.Open(ctx, "ranged")
		require.NoError(t, err)
		defer rc.Close()
		req := httptest.NewRequest(http.MethodGet, "/x", nil)
		if rangeHeader != "" {
			req.Header.Set("Range", rangeHeader)
		}
		w := httptest.NewRecorder()
		w.Header().Set("Content-Type", "application/octet-stream") // as the LFS and package handlers set it
		http.ServeContent(w, req, "", time.Time{}, rc.(io.ReadSeeker))
		return w
	}
	ct.gets, ct.ranges = 0, nil
	w := serve("bytes=9990-")
	assert.Equal(t, http.StatusPartialContent, w.Code)
	assert.Equal(t, "0123456789", w.Body.String())
	assert.Equal(t, []string{"", "bytes=9990-9999"}, ct.ranges, "the open GET, then one ranged GET")

	ct.gets, ct.ranges = 0, nil
	w = serve("")
	assert.Equal(t, http.StatusOK, w.Code)
	assert.Equal(t, body, w.Body.String())
	assert.Equal(t, 1, ct.gets, "a whole download is the open GET alone")

	// Reading, seeking back and reading again: the second read is a new
	// ranged GET of the rest, and the bytes are right.
	rc, err := s.Open(ctx, "ranged")
	require.NoError(t, err)
	defer rc.Close()
	buf := make([]byte, 512)
	_, err = io.ReadFull(rc, buf)
	require.NoError(t, err)
	_, err = rc.(io.Seeker).Seek(0, io.SeekStart)
	require.NoError(t, err)
	all, err := io.ReadAll(rc)
	require.NoError(t, err)
	assert.Equal(t, body, string(all))
}

// An upload a crash cut off (started, never completed or aborted) is not
// listed as a blob, and RemoveStaleUploads aborts it once it is older than
// the cutoff.
func TestS3RemoveStaleUploads(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	srv := newFakeS3(t, "stale")
	s := openFakeS3(t, srv, "stale", "p/")
	cfg := fakeS3Config(t, srv.URL, srv.Client().Transport, "stale", "p/")
	core, err := minio.NewCore(cfg.Endpoint, &minio.Options{Creds: credentials.NewStaticV4(testAccessKey, testSecretKey, ""),
		Secure: true, Region: cfg.Region, Transport: cfg.Transport})
	require.NoError(t, err)
	n, err := s.RemoveStaleUploads(ctx, time.Now().Add(time.Minute))
	require.NoError(t, err, "a bucket that never had an upload")
	assert.Zero(t, n)
	_, err = core.NewMultipartUpload(ctx, "stale", "p/cut-off-upload", minio.PutObjectOptions{})
	require.NoError(t, err)
	_, err = core.NewMultipartUpload(ctx, "stale", "elsewhere", minio.PutObjectOptions{})
	require.NoError(t, err)
	_, err = s.Put(ctx, "complete", strings.NewReader("whole"), 0)
	require.NoError(t, err)

	var keys []string
	require.NoError(t, s.List(ctx, func(i blob.Info) error { keys = append(keys, i.Key); return nil }))
	assert.Equal(t, []string{"complete"}, keys, "an unfinished upload is not a blob")

	n, err = s.RemoveStaleUploads(ctx, time.Now().Add(-time.Hour))
	require.NoError(t, err)
	assert.Zero(t, n, "a recent upload may still be running")
	n, err = s.RemoveStaleUploads(ctx, time.Now().Add(time.Minute))
	require.NoError(t, err)
	assert.Equal(t, 1, n, "the upload under the prefix is aborted, not the one outside it")
	n, err = s.RemoveStaleUploads(ctx, time.Now().Add(time.Minute))
	require.NoError(t, err)
	assert.Zero(t, n)
	_, err = s.Open(ctx, "complete")
	require.NoError(t, err)
}
