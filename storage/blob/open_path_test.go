package blob_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/storage/blob"
)

// An empty directory is refused with forge.ErrInvalid and a clear message,
// not the raw error of mkdir "".
func TestOpenDirRefusesAnEmptyPath(t *testing.T) {
	t.Parallel()
	d, err := blob.OpenDir("")
	require.ErrorIs(t, err, forge.ErrInvalid)
	assert.Nil(t, d)
	assert.Contains(t, err.Error(), "empty directory path")
}
