package blob_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/storage/blob"
)

// fakeRefs is a blob.RefStore over a fixed key list.
type fakeRefs struct {
	keys []string
	err  error
}

func (f *fakeRefs) View(ctx context.Context, fn func(blob.RefTx) error) error { return fn(f) }
func (f *fakeRefs) ReferencedBlobKeys(context.Context) ([]string, error) {
	return f.keys, f.err
}

// put stores key with its bytes last written at mod.
func put(t *testing.T, root string, d *blob.Dir, key string, mod time.Time) {
	t.Helper()
	_, err := d.Put(context.Background(), key, strings.NewReader("bytes of "+key), 0)
	require.NoError(t, err)
	require.NoError(t, os.Chtimes(filepath.Join(root, key[:1], key[1:2], key), mod, mod))
}

// tempUpload leaves the temporary file of an upload cut off by a crash.
func tempUpload(t *testing.T, root, name string, mod time.Time) string {
	t.Helper()
	p := filepath.Join(root, "x", "y", name)
	require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o750))
	require.NoError(t, os.WriteFile(p, []byte("half"), 0o600))
	require.NoError(t, os.Chtimes(p, mod, mod))
	return p
}

func has(t *testing.T, d *blob.Dir, key string) bool {
	t.Helper()
	rc, err := d.Open(context.Background(), key)
	if err != nil {
		return false
	}
	rc.Close()
	return true
}

func TestListSkipsUploadsAndStrays(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	d, err := blob.OpenDir(root)
	require.NoError(t, err)
	now := time.Now().Truncate(time.Second)
	put(t, root, d, "abc-1", now.Add(-time.Minute))
	tempUpload(t, root, ".upload-123", now)
	require.NoError(t, os.WriteFile(filepath.Join(root, "stray"), []byte("x"), 0o600)) // not where Put puts "stray"
	var got []blob.Info
	require.NoError(t, d.List(context.Background(), func(i blob.Info) error { got = append(got, i); return nil }))
	require.Len(t, got, 1)
	assert.Equal(t, "abc-1", got[0].Key)
	assert.Equal(t, int64(len("bytes of abc-1")), got[0].Size)
	assert.True(t, got[0].Modified.Equal(now.Add(-time.Minute)), "%v", got[0].Modified)

	stop := errors.New("stop")
	assert.ErrorIs(t, d.List(context.Background(), func(blob.Info) error { return stop }), stop)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	assert.ErrorIs(t, d.List(ctx, func(blob.Info) error { return nil }), context.Canceled)
}

func TestSweep(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	root := t.TempDir()
	d, err := blob.OpenDir(root)
	require.NoError(t, err)
	clock := forgetest.NewClock()
	now := time.Now().Truncate(time.Second)
	clock.Set(now)
	put(t, root, d, "referenced-old", now.Add(-48*time.Hour))
	put(t, root, d, "orphan-young", now.Add(-10*time.Minute))
	put(t, root, d, "orphan-old", now.Add(-2*time.Hour))
	staleTmp := tempUpload(t, root, ".upload-stale", now.Add(-2*time.Hour))
	liveTmp := tempUpload(t, root, ".upload-live", now)

	refs := &fakeRefs{keys: []string{"referenced-old", "referenced-but-missing"}}
	s := &blob.Sweeper{Blobs: d, Refs: refs, Clock: clock}

	res, err := s.Sweep(ctx, time.Hour)
	require.NoError(t, err)
	assert.Equal(t, blob.SweepResult{Blobs: 3, Referenced: 1, Young: 1, Deleted: 1, Uploads: 1}, res)
	assert.True(t, has(t, d, "referenced-old"), "a referenced blob is kept however old")
	assert.True(t, has(t, d, "orphan-young"), "an orphan within the grace period is kept (its row may be being written)")
	assert.False(t, has(t, d, "orphan-old"), "an orphan older than the grace period is deleted")
	assert.NoFileExists(t, staleTmp, "a stale upload is removed")
	assert.FileExists(t, liveTmp, "an upload in progress is kept")

	// A row committed later protects its blob.
	refs.keys = append(refs.keys, "orphan-young")
	clock.Step(time.Hour)
	res, err = s.Sweep(ctx, time.Hour)
	require.NoError(t, err)
	assert.Equal(t, blob.SweepResult{Blobs: 2, Referenced: 2}, res)

	// olderThan 0 (the server stopped): every unreferenced blob goes.
	refs.keys = refs.keys[:1]
	put(t, root, d, "orphan-now", now)
	res, err = s.Sweep(ctx, 0)
	require.NoError(t, err)
	assert.Equal(t, blob.SweepResult{Blobs: 3, Referenced: 1, Deleted: 2, Uploads: 1}, res)
	assert.True(t, has(t, d, "referenced-old"))
	assert.NoFileExists(t, liveTmp)

	// A failing reference query deletes nothing.
	put(t, root, d, "orphan-again", now.Add(-72*time.Hour))
	refs.err = errors.New("database is gone")
	_, err = s.Sweep(ctx, time.Hour)
	assert.ErrorContains(t, err, "database is gone")
	assert.True(t, has(t, d, "orphan-again"))
}

func TestSweeperRun(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	d, err := blob.OpenDir(root)
	require.NoError(t, err)
	clock := forgetest.NewClock()
	now := time.Now().Truncate(time.Second)
	clock.Set(now)
	put(t, root, d, "orphan-1", now.Add(-2*time.Hour))
	waits := make(chan time.Duration)
	tick := make(chan time.Time)
	s := &blob.Sweeper{Blobs: d, Refs: &fakeRefs{}, Clock: clock, Grace: 30 * time.Minute,
		After: func(dur time.Duration) <-chan time.Time { waits <- dur; return tick }}

	assert.NoError(t, s.Run(context.Background(), 0), "interval 0: sweeping is off")

	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx, 5*time.Minute) }()
	assert.Equal(t, 5*time.Minute, <-waits, "Run waits the interval on the injected timer")
	assert.False(t, has(t, d, "orphan-1"), "the first sweep runs at once")

	put(t, root, d, "orphan-2", now.Add(-20*time.Minute))
	tick <- now
	<-waits
	assert.True(t, has(t, d, "orphan-2"), "within the 30 minute grace")
	clock.Step(15 * time.Minute)
	tick <- now
	<-waits
	assert.False(t, has(t, d, "orphan-2"), "past the grace on the injected clock")

	cancel()
	require.NoError(t, <-done)
}
