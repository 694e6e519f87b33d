package gitstore

import (
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

// TestDroppedStoreEndsItsCatFiles: a Store dropped without Close (as tests
// and short-lived hosts do) ends its cat-file processes when it is
// collected, instead of leaving them running until they idle out.
func TestDroppedStoreEndsItsCatFiles(t *testing.T) {
	t.Parallel()
	pool := func() *catFilePool {
		ctx := context.Background()
		s, err := OpenWith(t.TempDir(), Options{CatFileIdle: time.Hour})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Create(ctx, 1, forge.SHA1, "main"); err != nil {
			t.Fatal(err)
		}
		sig := repos.Signature{Name: "a", Email: "a@x"}
		if _, err := s.Apply(ctx, 1, repos.ChangeSet{NewBranch: "main", Message: "m", Author: sig, Committer: sig,
			Files: []repos.FileOp{{Op: "create", Path: "f", Content: []byte("x")}}}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Entry(ctx, 1, "refs/heads/main", "f"); err != nil {
			t.Fatal(err)
		}
		if s.CatFiles() != 1 {
			t.Fatalf("%d cat-file processes, want 1", s.CatFiles())
		}
		return s.catFiles
	}()
	deadline := time.Now().Add(20 * time.Second)
	for pool.alive() > 0 && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(10 * time.Millisecond) // polling a condition with a deadline
	}
	if n := pool.alive(); n != 0 {
		t.Errorf("%d cat-file processes alive after the Store was collected", n)
	}
}
