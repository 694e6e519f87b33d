package gitstore

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// removeLeftovers empties the store's directories of temporary files —
// <root>/.tmp (Apply's index files) and <root>/tmp (the push logs of the
// hooks) — which a process killed mid-write leaves behind. Open calls it
// before the store serves anything, so none of them is in use (one
// process owns a store's directory). The directories themselves stay.
func removeLeftovers(root string) error {
	for _, name := range []string{".tmp", tmpDir} {
		dir := filepath.Join(root, name)
		entries, err := os.ReadDir(dir)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return err
		}
		for _, e := range entries {
			if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil {
				return err
			}
		}
	}
	return nil
}
