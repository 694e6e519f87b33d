// Package faulttest injects faults for tests: a blob store that fails the
// n-th write, and snapshots of a database file, a blob directory and a git
// store to compare before and after a failed operation. Statements of a
// SQLite write transaction fail through sqlite.DB.FailStatement.
package faulttest

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"

	_ "modernc.org/sqlite" // the "sqlite" driver, to read the file directly
)

// ErrInjected is the error of a write Blobs made fail.
var ErrInjected = errors.New("faulttest: injected blob fault")

// BlobStore is the blob store Blobs wraps.
type BlobStore interface {
	Put(ctx context.Context, key string, r io.Reader, max int64) (int64, error)
	Open(ctx context.Context, key string) (io.ReadCloser, error)
	Delete(ctx context.Context, key string) error
}

// Blobs wraps a blob store; after FailPut(n) its n-th Put from then fails
// with ErrInjected and stores nothing.
type Blobs struct {
	BlobStore
	left atomic.Int64
}

// FailPut arms the n-th Put from now to fail; n <= 0 disarms.
func (b *Blobs) FailPut(n int64) { b.left.Store(max(n, 0)) }

// Armed reports whether a fault set by FailPut has not fired yet.
func (b *Blobs) Armed() bool { return b.left.Load() > 0 }

// Put fails when the countdown reaches it, else stores.
func (b *Blobs) Put(ctx context.Context, key string, r io.Reader, max int64) (int64, error) {
	if b.left.Load() > 0 && b.left.Add(-1) == 0 {
		return 0, ErrInjected
	}
	return b.BlobStore.Put(ctx, key, r, max)
}

// DumpDB returns every row of every table of the SQLite file at path, one
// line a row, sorted: two dumps are equal when the contents are.
// sqlite_sequence is left out: an operation undone by a compensating
// transaction (a repository creation whose git step failed) consumes an
// AUTOINCREMENT id, which is not a trace of the operation.
func DumpDB(ctx context.Context, path string) (string, error) {
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		return "", err
	}
	defer db.Close()
	var tables []string
	rows, err := db.QueryContext(ctx, "SELECT name FROM sqlite_master WHERE type = 'table' AND name != 'sqlite_sequence' ORDER BY name")
	if err != nil {
		return "", err
	}
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			rows.Close()
			return "", err
		}
		tables = append(tables, n)
	}
	rows.Close()
	var lines []string
	for _, tb := range tables {
		rows, err := db.QueryContext(ctx, `SELECT * FROM "`+tb+`"`)
		if err != nil {
			return "", err
		}
		cols, _ := rows.Columns()
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				rows.Close()
				return "", err
			}
			var b strings.Builder
			b.WriteString(tb)
			for i, v := range vals {
				if bs, ok := v.([]byte); ok {
					v = string(bs)
				}
				fmt.Fprintf(&b, " %s=%v", cols[i], v)
			}
			lines = append(lines, b.String())
		}
		if err := rows.Err(); err != nil {
			rows.Close()
			return "", err
		}
		rows.Close()
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n"), nil
}

// ListFiles returns the files under dir (relative paths, sorted) with
// their sizes.
func ListFiles(dir string) (string, error) {
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out = append(out, fmt.Sprintf("%s %d", rel, info.Size()))
		return nil
	})
	sort.Strings(out)
	return strings.Join(out, "\n"), err
}

// GitRefs returns, for every repository directory (*.git) under root, its
// name, HEAD and every ref with its target.
func GitRefs(root string) (string, error) {
	entries, err := os.ReadDir(root)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, e := range entries {
		if !e.IsDir() || !strings.HasSuffix(e.Name(), ".git") {
			continue
		}
		dir := filepath.Join(root, e.Name())
		head, _ := os.ReadFile(filepath.Join(dir, "HEAD"))
		refs, err := exec.Command("git", "--git-dir", dir, "for-each-ref", "--format=%(refname) %(objectname)").Output()
		if err != nil {
			return "", fmt.Errorf("for-each-ref %s: %w", e.Name(), err)
		}
		fmt.Fprintf(&b, "%s HEAD %s%s", e.Name(), head, refs)
	}
	return b.String(), nil
}
