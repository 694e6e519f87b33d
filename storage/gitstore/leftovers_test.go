package gitstore_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/storage/gitstore"
)

// TestOpenRemovesLeftovers: the temporary files a killed process leaves —
// Apply's index files in <root>/.tmp, push logs in <root>/tmp — are gone
// once the store is opened again; repositories are untouched.
func TestOpenRemovesLeftovers(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	_, err := gitstore.Open(root)
	require.NoError(t, err)
	left := []string{".tmp/index-123", ".tmp/index-456.lock", "tmp/push-789.log", "tmp/sub/x"}
	for _, p := range left {
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(root, p)), 0o750))
		require.NoError(t, os.WriteFile(filepath.Join(root, p), []byte("x"), 0o600))
	}
	keep := filepath.Join(root, "1.git", "HEAD")
	require.NoError(t, os.MkdirAll(filepath.Dir(keep), 0o750))
	require.NoError(t, os.WriteFile(keep, []byte("ref: refs/heads/main\n"), 0o600))
	_, err = gitstore.Open(root)
	require.NoError(t, err)
	for _, p := range left {
		_, err := os.Stat(filepath.Join(root, p))
		assert.ErrorIs(t, err, os.ErrNotExist, p)
	}
	_, err = os.Stat(keep)
	assert.NoError(t, err, "repositories stay")
}

// TestOpenRefusesNoDirectory: Open("") is forge.ErrInvalid, never the
// working directory.
func TestOpenRefusesNoDirectory(t *testing.T) {
	t.Parallel()
	_, err := gitstore.Open("")
	assert.ErrorIs(t, err, forge.ErrInvalid)
	_, err = gitstore.OpenWith("", gitstore.Options{})
	assert.ErrorIs(t, err, forge.ErrInvalid)
}
