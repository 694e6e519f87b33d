package gitstore_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/storage/gitstore"
)

// TestSizeSkipsVanishingFiles: files and directories that appear and
// vanish while Size walks the repository (the temporary files of
// concurrent pushes) are not an error: only a repository whose directory
// is missing is forge.ErrNotFound. Before the fix, Size failed with
// "repository does not exist" on a file removed between the directory
// read and its stat, and the push's after-push work was lost.
func TestSizeSkipsVanishingFiles(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, err := gitstore.Open(t.TempDir())
	require.NoError(t, err)
	require.NoError(t, s.Create(ctx, 1, forge.SHA1, "main"))
	objects := filepath.Join(s.Path(1), "objects")

	stop := make(chan struct{})
	var wg sync.WaitGroup
	for w := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				// As git's receive-pack: a temporary directory with
				// files, removed when the push ends.
				dir := filepath.Join(objects, fmt.Sprintf("tmp_objdir-incoming-%d-%d", w, i))
				if os.Mkdir(dir, 0o755) == nil {
					for j := range 8 {
						_ = os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%d", j)), []byte("x"), 0o644)
					}
					_ = os.RemoveAll(dir)
				}
			}
		}()
	}
	for i := range 300 {
		_, err := s.Size(ctx, 1)
		if !assert.NoError(t, err, "walk %d", i) {
			break
		}
	}
	close(stop)
	wg.Wait()

	_, err = s.Size(ctx, 2)
	assert.ErrorIs(t, err, forge.ErrNotFound, "a missing repository")
}
