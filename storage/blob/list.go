package blob

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Info describes a stored blob.
type Info struct {
	Key      string
	Size     int64
	Modified time.Time // when its bytes were last written
}

// tempPrefix names the temporary files of uploads in progress (see Put).
const tempPrefix = ".upload-"

// List calls fn for every blob in the store, in no particular order.
// Uploads in progress (and those a crash cut off) are not blobs and are
// not listed; see RemoveStaleUploads. An error from fn stops the walk and
// is returned; so is ctx's error when it ends.
func (d *Dir) List(ctx context.Context, fn func(Info) error) error {
	return d.walk(ctx, func(name string, info fs.FileInfo) error {
		if strings.HasPrefix(name, tempPrefix) {
			return nil
		}
		// Only files where Put puts them are blobs.
		if want, err := d.path(name); err != nil || want != filepath.Join(d.root, info.(walkInfo).dir, name) {
			return nil
		}
		return fn(Info{Key: name, Size: info.Size(), Modified: info.ModTime().UTC()})
	})
}

// RemoveStaleUploads deletes the temporary files of uploads last written
// before cutoff: a process killed during Put leaves one behind. An upload
// still running writes its file continuously, so a cutoff well in the
// past (the sweeper's grace period) never touches it. It returns how many
// it removed.
func (d *Dir) RemoveStaleUploads(ctx context.Context, cutoff time.Time) (int, error) {
	var n int
	err := d.walk(ctx, func(name string, info fs.FileInfo) error {
		if !strings.HasPrefix(name, tempPrefix) || !info.ModTime().Before(cutoff) {
			return nil
		}
		// The temporary file lives beside the blob it would become.
		p := filepath.Join(d.root, info.(walkInfo).dir, name)
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		n++
		return nil
	})
	return n, err
}

// walkInfo is a file's info with the directory it is in, relative to the
// root.
type walkInfo struct {
	fs.FileInfo
	dir string
}

// walk calls fn for every regular file under the root. Files that vanish
// during the walk (a concurrent Delete) are skipped.
func (d *Dir) walk(ctx context.Context, fn func(name string, info fs.FileInfo) error) error {
	return filepath.WalkDir(d.root, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		if e.IsDir() {
			return ctx.Err()
		}
		if !e.Type().IsRegular() {
			return nil
		}
		info, err := e.Info()
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(d.root, filepath.Dir(p))
		if err != nil {
			return err
		}
		return fn(e.Name(), walkInfo{info, rel})
	})
}
