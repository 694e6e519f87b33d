package sqlite

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
)

// A new database starts as a copy of the migrated image: the bytes of an
// in-memory database that went through every migration, made once per
// process. Running the migrations one by one costs far more than copying
// their result (SQLite re-reads the whole schema after every DDL
// statement), and processes that create many databases (test suites, a
// server that provisions tenants) would pay it for each. The copy is
// byte-for-byte what the migrations produce, goose's version table
// included, so Open's migrate step finds nothing pending; an existing file
// is never touched and migrates as before.
var image struct {
	once  sync.Once
	bytes []byte
	err   error
}

// serializer and deserializer are the methods modernc.org/sqlite's
// connections offer to read and replace a whole database as bytes.
type (
	serializer   interface{ Serialize() ([]byte, error) }
	deserializer interface{ Deserialize([]byte) error }
)

// migratedImage returns the image, building it on first use.
func migratedImage(ctx context.Context) ([]byte, error) {
	image.once.Do(func() {
		image.bytes, image.err = buildImage(context.WithoutCancel(ctx))
	})
	return image.bytes, image.err
}

func buildImage(ctx context.Context) ([]byte, error) {
	db, err := open(ctx, ":memory:", false)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	conn, err := db.write.Conn(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	var out []byte
	err = conn.Raw(func(dc any) error {
		s, ok := dc.(serializer)
		if !ok {
			return errors.New("driver cannot serialize")
		}
		out, err = s.Serialize()
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("sqlite: migrated image: %w", err)
	}
	return out, nil
}

// seedNewFile writes the migrated image to path when no file exists there.
// The image is written to a temporary file beside path and linked into
// place, so a concurrent Open of the same new path sees either no file or
// the whole image, never part of it. Where the file system cannot link,
// nothing is seeded and Open migrates as before.
func seedNewFile(ctx context.Context, path string) error {
	if _, err := os.Lstat(path); !errors.Is(err, fs.ErrNotExist) {
		return nil // present (or unreadable: Open reports it)
	}
	img, err := migratedImage(ctx)
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".hearth-new-*.db")
	if err != nil {
		return nil // let SQLite report why the path cannot be created
	}
	tmp := f.Name()
	defer os.Remove(tmp)
	_, werr := f.Write(img)
	if err := errors.Join(werr, f.Sync(), f.Close()); err != nil {
		return fmt.Errorf("sqlite: write new database %s: %w", path, err)
	}
	_ = os.Link(tmp, path) // fails when another Open won the race, or cannot link: both fine
	return nil
}

// seedMemory replaces a new in-memory database (one connection holds it)
// with the migrated image.
func (db *DB) seedMemory(ctx context.Context) error {
	img, err := migratedImage(ctx)
	if err != nil {
		return err
	}
	conn, err := db.write.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	err = conn.Raw(func(dc any) error {
		d, ok := dc.(deserializer)
		if !ok {
			return errors.New("driver cannot deserialize")
		}
		return d.Deserialize(img)
	})
	if err != nil {
		return fmt.Errorf("sqlite: seed in-memory database: %w", err)
	}
	return nil
}
