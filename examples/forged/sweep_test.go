package main

import (
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBlobSweepFlag(t *testing.T) {
	t.Parallel()
	o, err := parseFlags(nil, func(string) string { return "" }, io.Discard)
	require.NoError(t, err)
	assert.Equal(t, time.Hour, o.blobSweep, "on by default, hourly")
	o, err = parseFlags([]string{"-blob-sweep-interval", "0"}, func(string) string { return "" }, io.Discard)
	require.NoError(t, err)
	assert.Zero(t, o.blobSweep)
}

// TestBlobSweepOnStart: forged sweeps at start; an orphan blob older than
// the grace period goes, a young one and a stale upload's young temporary
// file stay.
func TestBlobSweepOnStart(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	plant := func(key string, age time.Duration) string {
		p := filepath.Join(data, "blobs", key[:1], key[1:2], key)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o750))
		require.NoError(t, os.WriteFile(p, []byte(key), 0o600))
		mod := time.Now().Add(-age)
		require.NoError(t, os.Chtimes(p, mod, mod))
		return p
	}
	old := plant("orphan-old", 2*time.Hour)
	young := plant("orphan-young", time.Minute)
	start(t, data, map[string]string{"FORGED_ADMIN_PASSWORD": "pw-sweep-test"}, "-blob-sweep-interval", "1h")
	// Poll with a deadline: the first sweep runs right after the start.
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	deadline := time.After(2 * time.Minute)
	for {
		if _, err := os.Stat(old); os.IsNotExist(err) {
			break
		}
		select {
		case <-tick.C:
		case <-deadline:
			t.Fatal("the old orphan was never swept")
		}
	}
	assert.FileExists(t, young, "within the grace period")
}
