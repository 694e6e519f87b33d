package blob_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/storage/blob"
)

// The sweeper deletes an old orphan from an S3 bucket and keeps a
// referenced blob: S3.List reports what the sweeper needs.
func TestSweepS3(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openFakeS3(t, newFakeS3(t, "sweep"), "sweep", "b/")
	for _, k := range []string{"referenced", "orphan"} {
		_, err := s.Put(ctx, k, strings.NewReader(k), 0)
		require.NoError(t, err)
	}
	clock := forgetest.NewClock()
	clock.Set(time.Now().Add(2 * time.Hour))
	sw := &blob.Sweeper{Blobs: s, Refs: &fakeRefs{keys: []string{"referenced"}}, Clock: clock}
	res, err := sw.Sweep(ctx, time.Hour)
	require.NoError(t, err)
	assert.Equal(t, blob.SweepResult{Blobs: 2, Referenced: 1, Deleted: 1}, res)
	_, err = s.Open(ctx, "referenced")
	require.NoError(t, err)
	_, err = s.Open(ctx, "orphan")
	require.Error(t, err)
}
