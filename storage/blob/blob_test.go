package blob_test

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/storage/blob"
)

func TestDir(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	d, err := blob.OpenDir(t.TempDir())
	require.NoError(t, err)
	n, err := d.Put(ctx, "abc123", strings.NewReader("hello"), 0)
	require.NoError(t, err)
	assert.EqualValues(t, 5, n)
	r, err := d.Open(ctx, "abc123")
	require.NoError(t, err)
	b, _ := io.ReadAll(r)
	r.Close()
	assert.Equal(t, "hello", string(b))

	_, err = d.Put(ctx, "toolarge", strings.NewReader("123456"), 5)
	assert.ErrorIs(t, err, forge.ErrInvalid)
	_, err = d.Open(ctx, "toolarge")
	assert.ErrorIs(t, err, forge.ErrNotFound, "a refused blob leaves nothing")

	for _, bad := range []string{"", "ab", "../etc", "a/b/c"} {
		_, err := d.Put(ctx, bad, strings.NewReader("x"), 0)
		assert.ErrorIs(t, err, forge.ErrInvalid, bad)
	}
	require.NoError(t, d.Delete(ctx, "abc123"))
	require.NoError(t, d.Delete(ctx, "abc123"), "deleting twice is fine")
	_, err = d.Open(ctx, "abc123")
	assert.ErrorIs(t, err, forge.ErrNotFound)
}
