package gitstore

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

	"github.com/hearthforge/hearth/forge"
)

// Archive writes a "zip" or "tar.gz" archive of rev to w, streamed from
// `git archive`. At most Options.MaxArchives archives are generated at
// once: a request beyond waits for a turn, or fails with its context's
// error when that ends first. With Options.CacheArchives an archive is
// generated once per commit, format and prefix into the store's directory
// (written to a temporary file and renamed, so no reader sees half of
// one) and served from there afterwards, without git and without a turn.
func (s *Store) Archive(ctx context.Context, repo forge.ID, rev, format, prefix string, w io.Writer) error {
	if format != "zip" && format != "tar.gz" {
		return forge.Errorf(forge.ErrInvalid, "unknown archive format %q", format)
	}
	id, err := s.Resolve(ctx, repo, rev)
	if err != nil {
		return err
	}
	args := []string{"archive", "--format=" + format, "--prefix=" + prefix + "/", id}
	if !s.cacheArchives {
		release, err := s.archiveTurn(ctx)
		if err != nil {
			return err
		}
		defer release()
		return s.stream(ctx, repo, w, args...)
	}
	sum := sha256.Sum256([]byte(prefix))
	file := filepath.Join(s.archiveDir(repo), id+"-"+hex.EncodeToString(sum[:8])+"."+format)
	if f, err := os.Open(file); err == nil {
		defer f.Close()
		_, err = io.Copy(w, f)
		return err
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	release, err := s.archiveTurn(ctx)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(s.archiveDir(repo), 0o750); err != nil {
		release()
		return err
	}
	tmp, err := os.CreateTemp(s.archiveDir(repo), ".tmp-*")
	if err != nil {
		release()
		return err
	}
	defer os.Remove(tmp.Name())
	defer tmp.Close()
	err = s.stream(ctx, repo, tmp, args...)
	release()
	if err == nil {
		err = tmp.Sync()
	}
	if err == nil {
		err = os.Rename(tmp.Name(), file)
	}
	if err != nil {
		return err
	}
	if _, err := tmp.Seek(0, io.SeekStart); err != nil {
		return err
	}
	_, err = io.Copy(w, tmp)
	return err
}

// archiveTurn waits for one of the Options.MaxArchives turns; the caller
// calls release when its git process is done.
func (s *Store) archiveTurn(ctx context.Context) (release func(), err error) {
	s.archiveWaiting.Add(1)
	defer s.archiveWaiting.Add(-1)
	select {
	case s.archives <- struct{}{}:
		return func() { <-s.archives }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// archiveDir is the directory of repo's cached archives.
func (s *Store) archiveDir(repo forge.ID) string {
	return filepath.Join(s.root, ".archives", strconv.FormatInt(repo, 10))
}
