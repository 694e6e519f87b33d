package sqlite_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/storage/sqlite"
)

// An empty path is refused with forge.ErrInvalid and a message that says
// what to give, not SQLite's misleading "no such table".
func TestOpenRefusesAnEmptyPath(t *testing.T) {
	t.Parallel()
	db, err := sqlite.Open(context.Background(), "")
	if db != nil {
		db.Close()
	}
	require.ErrorIs(t, err, forge.ErrInvalid)
	assert.Nil(t, db)
	assert.Contains(t, err.Error(), "empty database path")
	assert.NotContains(t, err.Error(), "no such table")
}
