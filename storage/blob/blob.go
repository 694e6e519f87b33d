// Package blob stores bytes that do not belong in the database or in git:
// release assets, attachments, later packages and artifacts. Dir keeps them
// in a local directory; keys are opaque names chosen by the caller.
//
// Writers store a blob before committing the row that names it, so a crash
// in between leaves an orphan: Sweeper finds blobs no row names (RefTx,
// implemented by the storage backends) and deletes those older than a
// grace period.
package blob

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/hearthforge/hearth/forge"
)

// Dir is a blob store in a local directory. Writes are atomic: a blob
// appears whole or not at all.
type Dir struct {
	root string
}

// OpenDir returns the store rooted at dir, creating it. An empty dir is
// forge.ErrInvalid.
func OpenDir(dir string) (*Dir, error) {
	if dir == "" {
		return nil, forge.Errorf(forge.ErrInvalid, "blob: empty directory path")
	}
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return nil, err
	}
	return &Dir{root: dir}, nil
}

// path maps a key to a file, two levels deep to keep directories small.
// Keys must be non-empty and free of path separators.
func (d *Dir) path(key string) (string, error) {
	if len(key) < 3 || strings.ContainsAny(key, `/\`) || strings.Contains(key, "..") {
		return "", forge.Errorf(forge.ErrInvalid, "invalid blob key %q", key)
	}
	return filepath.Join(d.root, key[:1], key[1:2], key), nil
}

// Put stores r under key and returns its size. At most max bytes are read
// when max > 0: a longer stream is refused with forge.ErrInvalid and
// nothing is stored.
func (d *Dir) Put(ctx context.Context, key string, r io.Reader, max int64) (int64, error) {
	p, err := d.path(key)
	if err != nil {
		return 0, err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o750); err != nil {
		return 0, err
	}
	tmp, err := os.CreateTemp(filepath.Dir(p), ".upload-*")
	if err != nil {
		return 0, err
	}
	defer os.Remove(tmp.Name())
	src := r
	if max > 0 {
		src = io.LimitReader(r, max+1)
	}
	n, err := io.Copy(tmp, src)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return 0, err
	}
	if max > 0 && n > max {
		return 0, forge.Errorf(forge.ErrInvalid, "blob is larger than %d bytes", max)
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	return n, os.Rename(tmp.Name(), p)
}

// Open returns the blob under key; forge.ErrNotFound if there is none.
func (d *Dir) Open(ctx context.Context, key string) (io.ReadCloser, error) {
	p, err := d.path(key)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, forge.Errorf(forge.ErrNotFound, "blob does not exist [key: %s]", key)
	}
	return f, err
}

// Delete removes the blob under key; no error if it is already gone.
func (d *Dir) Delete(ctx context.Context, key string) error {
	p, err := d.path(key)
	if err != nil {
		return err
	}
	if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("blob: delete %s: %w", key, err)
	}
	return nil
}
