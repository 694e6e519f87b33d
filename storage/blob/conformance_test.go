package blob_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/storage/blob"
)

// store is the blob contract every backend keeps (the method set the
// services declare as their Blobs).
type store interface {
	Put(ctx context.Context, key string, r io.Reader, max int64) (int64, error)
	Open(ctx context.Context, key string) (io.ReadCloser, error)
	Delete(ctx context.Context, key string) error
}

var (
	_ store = (*blob.Dir)(nil)
	_ store = (*blob.S3)(nil)
)

// runConformance checks the blob contract on a fresh store from open:
// the one suite Dir and S3 both pass.
func runConformance(t *testing.T, open func(t *testing.T) store) {
	ctx := context.Background()
	read := func(t *testing.T, s store, key string) string {
		t.Helper()
		rc, err := s.Open(ctx, key)
		require.NoError(t, err)
		defer rc.Close()
		b, err := io.ReadAll(rc)
		require.NoError(t, err)
		return string(b)
	}
	t.Run("RoundTrip", func(t *testing.T) {
		t.Parallel()
		s := open(t)
		n, err := s.Put(ctx, "abc123", strings.NewReader("hello"), 0)
		require.NoError(t, err)
		assert.EqualValues(t, 5, n)
		assert.Equal(t, "hello", read(t, s, "abc123"))
		// A stream of unknown length (no Len) is stored the same.
		n, err = s.Put(ctx, "stream", io.MultiReader(strings.NewReader("hel"), strings.NewReader("lo!")), 0)
		require.NoError(t, err)
		assert.EqualValues(t, 6, n)
		assert.Equal(t, "hello!", read(t, s, "stream"))
		n, err = s.Put(ctx, "empty", strings.NewReader(""), 10)
		require.NoError(t, err)
		assert.EqualValues(t, 0, n)
		assert.Equal(t, "", read(t, s, "empty"))
	})
	t.Run("Overwrite", func(t *testing.T) {
		t.Parallel()
		s := open(t)
		_, err := s.Put(ctx, "key1", strings.NewReader("first version"), 0)
		require.NoError(t, err)
		_, err = s.Put(ctx, "key1", strings.NewReader("second"), 0)
		require.NoError(t, err)
		assert.Equal(t, "second", read(t, s, "key1"))
	})
	t.Run("Limit", func(t *testing.T) {
		t.Parallel()
		s := open(t)
		n, err := s.Put(ctx, "exact", strings.NewReader("12345"), 5)
		require.NoError(t, err, "a blob of exactly max bytes is stored")
		assert.EqualValues(t, 5, n)
		for name, r := range map[string]io.Reader{
			"known length": strings.NewReader("123456"),
			"stream":       io.MultiReader(strings.NewReader("123"), strings.NewReader("456")),
		} {
			_, err = s.Put(ctx, "toolarge", r, 5)
			assert.ErrorIs(t, err, forge.ErrInvalid, name)
			_, err = s.Open(ctx, "toolarge")
			assert.ErrorIs(t, err, forge.ErrNotFound, "a refused blob leaves nothing (%s)", name)
		}
		_, err = s.Put(ctx, "exact", bytes.NewBufferString("1234567"), 5)
		assert.ErrorIs(t, err, forge.ErrInvalid)
		assert.Equal(t, "12345", read(t, s, "exact"), "a refused overwrite keeps the earlier blob")
	})
	t.Run("FailedStream", func(t *testing.T) {
		t.Parallel()
		s := open(t)
		boom := errors.New("client went away")
		_, err := s.Put(ctx, "broken", io.MultiReader(strings.NewReader("partial"), errReader{boom}), 0)
		require.Error(t, err)
		_, err = s.Open(ctx, "broken")
		assert.ErrorIs(t, err, forge.ErrNotFound, "a failed upload leaves nothing")

		cctx, cancel := context.WithCancel(ctx)
		cancel()
		_, err = s.Put(cctx, "canceled", strings.NewReader("x"), 0)
		assert.ErrorIs(t, err, context.Canceled)
		_, err = s.Open(ctx, "canceled")
		assert.ErrorIs(t, err, forge.ErrNotFound, "a canceled upload leaves nothing")
	})
	t.Run("Keys", func(t *testing.T) {
		t.Parallel()
		s := open(t)
		for _, bad := range []string{"", "ab", "../etc", "a/b/c", `a\bc`, "abc..def"} {
			_, err := s.Put(ctx, bad, strings.NewReader("x"), 0)
			assert.ErrorIs(t, err, forge.ErrInvalid, bad)
			_, err = s.Open(ctx, bad)
			assert.ErrorIs(t, err, forge.ErrInvalid, bad)
			assert.ErrorIs(t, s.Delete(ctx, bad), forge.ErrInvalid, bad)
		}
	})
	t.Run("DeleteAndMissing", func(t *testing.T) {
		t.Parallel()
		s := open(t)
		_, err := s.Open(ctx, "never-written")
		assert.ErrorIs(t, err, forge.ErrNotFound)
		assert.Contains(t, err.Error(), "never-written")
		_, err = s.Put(ctx, "abc123", strings.NewReader("hello"), 0)
		require.NoError(t, err)
		require.NoError(t, s.Delete(ctx, "abc123"))
		require.NoError(t, s.Delete(ctx, "abc123"), "deleting twice is fine")
		_, err = s.Open(ctx, "abc123")
		assert.ErrorIs(t, err, forge.ErrNotFound)
	})
	t.Run("Seek", func(t *testing.T) {
		t.Parallel()
		s := open(t)
		_, err := s.Put(ctx, "seekable", strings.NewReader("0123456789"), 0)
		require.NoError(t, err)
		rc, err := s.Open(ctx, "seekable")
		require.NoError(t, err)
		defer rc.Close()
		rs, ok := rc.(io.ReadSeeker)
		require.True(t, ok, "the reader seeks, so HTTP ranges need not read everything")
		end, err := rs.Seek(0, io.SeekEnd)
		require.NoError(t, err)
		assert.EqualValues(t, 10, end)
		_, err = rs.Seek(6, io.SeekStart)
		require.NoError(t, err)
		b, err := io.ReadAll(rs)
		require.NoError(t, err)
		assert.Equal(t, "6789", string(b))
		_, err = rs.Seek(0, io.SeekStart)
		require.NoError(t, err)
		b, err = io.ReadAll(rs)
		require.NoError(t, err)
		assert.Equal(t, "0123456789", string(b), "back to the start after reading")
	})
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

func TestDirConformance(t *testing.T) {
	t.Parallel()
	runConformance(t, func(t *testing.T) store {
		d, err := blob.OpenDir(t.TempDir())
		require.NoError(t, err)
		return d
	})
}
