package postgres

import (
	"context"
	"io/fs"
	"path"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/storage/postgres/pgtest"
)

// Servers that start together on a new database migrate it once: goose's
// advisory lock makes the others wait, and every Open succeeds.
func TestOpenConcurrentMigrations(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dsn := pgtest.NewDatabase(t, nil)
	const servers = 4
	var wg sync.WaitGroup
	errs := make([]error, servers)
	dbs := make([]*DB, servers)
	for i := range servers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			dbs[i], errs[i] = Open(ctx, dsn)
		}()
	}
	wg.Wait()
	for i := range servers {
		require.NoError(t, errs[i], "server %d", i)
		defer dbs[i].Close()
	}
	var applied, latest int64
	require.NoError(t, dbs[0].sql.QueryRowContext(ctx,
		`SELECT count(*), max(version_id) FROM goose_db_version WHERE version_id > 0 AND is_applied`).Scan(&applied, &latest))
	files, err := fs.Glob(migrations, "*.sql")
	require.NoError(t, err)
	var last int64
	for _, f := range files {
		n, err := strconv.ParseInt(strings.SplitN(path.Base(f), "_", 2)[0], 10, 64)
		require.NoError(t, err, f)
		last = max(last, n)
	}
	assert.Equal(t, last, latest)
	assert.Equal(t, int64(len(files)), applied, "each of the %d migrations applied once", len(files))
}

func TestOpenRefusesEmptyDSN(t *testing.T) {
	t.Parallel()
	_, err := Open(context.Background(), "")
	assert.ErrorIs(t, err, forge.ErrInvalid)
}
