package httpapi_test

import (
	"crypto/sha256"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/quota"
)

// pattern is an endless reader of bytes that are not all alike.
type pattern struct{ n byte }

func (p *pattern) Read(b []byte) (int, error) {
	for i := range b {
		b[i] = p.n
		p.n = p.n*31 + 7
	}
	return len(b), nil
}

// streamedPut PUTs size bytes of pattern to url with token tok, requires
// the answer status, and returns how long the upload took and how many
// bytes the whole process (client and server) allocated meanwhile.
func streamedPut(t *testing.T, url, tok string, size int64, status int) (time.Duration, uint64) {
	t.Helper()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	r, err := http.NewRequest("PUT", url, io.LimitReader(&pattern{}, size))
	require.NoError(t, err)
	r.Header.Set("Authorization", "token "+tok)
	res, err := http.DefaultClient.Do(r)
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, status, res.StatusCode)
	up := time.Since(start)
	runtime.ReadMemStats(&after)
	return up, after.TotalAlloc - before.TotalAlloc
}

// TestLFSUploadStreams uploads a 64 MiB object and checks that the
// process (client and server) allocates a small fraction of it meanwhile:
// the bytes stream from the request into the blob store while hashed,
// never whole in memory; the download gives them back. (Not parallel: it
// reads the process's allocation counter. The download is not measured:
// the test server's contract check buffers responses.)
func TestLFSUploadStreams(t *testing.T) {
	const size = 64 << 20
	e := newLFSEnv(t, quota.Config{})
	e.createUser("alice")
	tok := e.token("alice", "all")
	e.expect(e.do(req{method: "POST", path: "/api/v1/user/repos", token: tok, body: map[string]any{"name": "big"}}), 201, "")
	h := sha256.New()
	_, err := io.CopyN(h, &pattern{}, size)
	require.NoError(t, err)
	oid := fmt.Sprintf("%x", h.Sum(nil))
	url := fmt.Sprintf("%s/alice/big.git/info/lfs/objects/%s/%d", e.srv.URL, oid, size)

	up, alloc := streamedPut(t, url, tok, size, 200)

	start := time.Now()
	r, err := http.NewRequest("GET", url[:len(url)-len(fmt.Sprint(size))-1], nil)
	require.NoError(t, err)
	r.Header.Set("Authorization", "token "+tok)
	res, err := http.DefaultClient.Do(r)
	require.NoError(t, err)
	got := sha256.New()
	n, err := io.Copy(got, res.Body)
	res.Body.Close()
	require.NoError(t, err)
	down := time.Since(start)

	assert.EqualValues(t, size, n)
	assert.Equal(t, oid, fmt.Sprintf("%x", got.Sum(nil)))
	t.Logf("64 MiB LFS object: upload %v (%.0f MB/s) allocating %.1f MiB in the whole process; download %v",
		up.Round(time.Millisecond), float64(size)/up.Seconds()/1e6, float64(alloc)/(1<<20), down.Round(time.Millisecond))
	assert.Less(t, alloc, uint64(size/8), "the upload streams: it allocates far less than the object")
}

// TestGenericPackageUploadStreams: a 64 MiB generic package file streams
// into the blob store while its four digests are computed. (Not parallel:
// it reads the process's allocation counter.)
func TestGenericPackageUploadStreams(t *testing.T) {
	const size = 64 << 20
	e := newLFSEnv(t, quota.Config{})
	e.createUser("alice")
	tok := e.token("alice", "all")
	up, alloc := streamedPut(t, e.srv.URL+"/api/packages/alice/generic/big/1/big.bin", tok, size, 201)
	t.Logf("64 MiB generic package file: upload %v (%.0f MB/s, md5+sha1+sha256+sha512) allocating %.1f MiB in the whole process",
		up.Round(time.Millisecond), float64(size)/up.Seconds()/1e6, float64(alloc)/(1<<20))
	assert.Less(t, alloc, uint64(size/8), "the upload streams: it allocates far less than the file")
	assert.EqualValues(t, size, e.usage("alice").Packages)
}
