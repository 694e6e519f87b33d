package sqlite

import (
	"context"
	"errors"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
)

// TestReadPoolKeepsItsConnections: readers running at once open several
// read connections, and every one stays open afterwards with its prepared
// statements (database/sql's default of 2 idle connections closed the
// others, so each burst of reads opened and prepared them again).
func TestReadPoolKeepsItsConnections(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, err := Open(ctx, filepath.Join(t.TempDir(), "h.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	readers := max(4, runtime.NumCPU())
	for range 3 {
		var inside, release sync.WaitGroup
		inside.Add(readers)
		release.Add(1)
		var done sync.WaitGroup
		for range readers {
			done.Add(1)
			go func() {
				defer done.Done()
				err := db.Auth().View(ctx, func(tx auth.Tx) error {
					// A View takes its connection at its first statement.
					if _, err := tx.UserByID(ctx, 1); err != nil && !errors.Is(err, forge.ErrNotFound) {
						t.Error(err)
					}
					inside.Done()
					release.Wait() // every reader holds a connection at once
					return nil
				})
				if err != nil {
					t.Error(err)
				}
			}()
		}
		inside.Wait()
		release.Done()
		done.Wait()
	}
	st := db.read.Stats()
	if st.MaxIdleClosed != 0 || st.Idle != readers {
		t.Errorf("read pool: %d idle connections, %d closed for lack of idle room; want %d and 0", st.Idle, st.MaxIdleClosed, readers)
	}
}
