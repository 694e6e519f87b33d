package memgit

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/hearthforge/hearth/forge"
)

// Patch writes the change of commit rev against its first parent as a
// "diff" (go-git's unified diff in git's format) or a "patch" (that diff
// with a format-patch style mail header) to w; forge.ErrNotFound for an
// unknown kind. See the package comment for the differences from git.
func (s *Store) Patch(ctx context.Context, id forge.ID, rev, kind string, w io.Writer) error {
	r, err := s.get(ctx, id)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	r.mu.RLock()
	err = r.patch(rev, kind, &buf)
	r.mu.RUnlock()
	if err != nil {
		return err
	}
	_, err = w.Write(buf.Bytes())
	return err
}

func (r *repo) patch(rev, kind string, w *bytes.Buffer) error {
	h, err := r.resolve(rev)
	if err != nil {
		return err
	}
	if kind != "diff" && kind != "patch" {
		return forge.Errorf(forge.ErrNotFound, "unknown diff type %q", kind)
	}
	c, err := object.GetCommit(r.st, h)
	if err != nil {
		return err
	}
	changes, err := r.changes(c)
	if err != nil {
		return err
	}
	p, err := changes.Patch()
	if err != nil {
		return err
	}
	if kind == "patch" {
		subject, body, _ := strings.Cut(strings.TrimSpace(c.Message), "\n\n")
		fmt.Fprintf(w, "From %s Mon Sep 17 00:00:00 2001\nFrom: %s <%s>\nDate: %s\nSubject: [PATCH] %s\n\n",
			c.Hash, c.Author.Name, c.Author.Email, c.Author.When.Format("Mon, 2 Jan 2006 15:04:05 -0700"),
			strings.Join(strings.Fields(subject), " "))
		if body = strings.TrimSpace(body); body != "" {
			w.WriteString(body + "\n")
		}
		w.WriteString("---\n\n")
	}
	if err := p.Encode(w); err != nil {
		return err
	}
	if kind == "patch" {
		w.WriteString("-- \nmemgit\n\n")
	}
	return nil
}

// Archive writes a "zip" or "tar.gz" archive of rev to w, its files under
// "<prefix>/" (forge.ErrInvalid for another format).
func (s *Store) Archive(ctx context.Context, id forge.ID, rev, format, prefix string, w io.Writer) error {
	if format != "zip" && format != "tar.gz" {
		return forge.Errorf(forge.ErrInvalid, "unknown archive format %q", format)
	}
	r, err := s.get(ctx, id)
	if err != nil {
		return err
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	h, err := r.resolve(rev)
	if err != nil {
		return err
	}
	c, err := object.GetCommit(r.st, h)
	if err != nil {
		return err
	}
	a := &archiver{r: r, when: c.Committer.When}
	if format == "zip" {
		a.zip = zip.NewWriter(w)
	} else {
		a.gz = gzip.NewWriter(w)
		a.tar = tar.NewWriter(a.gz)
	}
	root := ""
	if prefix != "" {
		root = strings.Trim(prefix, "/") + "/"
		if err := a.dir(root); err != nil {
			return err
		}
	}
	if err := a.tree(c.TreeHash, root); err != nil {
		return err
	}
	if a.zip != nil {
		return a.zip.Close()
	}
	if err := a.tar.Close(); err != nil {
		return err
	}
	return a.gz.Close()
}

type archiver struct {
	r    *repo
	when time.Time
	zip  *zip.Writer
	gz   *gzip.Writer
	tar  *tar.Writer
}

func (a *archiver) tree(h plumbing.Hash, dir string) error {
	t, err := object.GetTree(a.r.st, h)
	if err != nil {
		return err
	}
	for _, e := range t.Entries {
		name := dir + e.Name
		switch e.Mode {
		case filemode.Dir:
			if err := a.dir(name + "/"); err != nil {
				return err
			}
			if err := a.tree(e.Hash, name+"/"); err != nil {
				return err
			}
		case filemode.Submodule:
		default:
			obj, err := a.r.st.EncodedObject(plumbing.BlobObject, e.Hash)
			if err != nil {
				return err
			}
			content, err := readAll(obj)
			if err != nil {
				return err
			}
			if err := a.file(name, e.Mode, content); err != nil {
				return err
			}
		}
	}
	return nil
}

func (a *archiver) dir(name string) error {
	if a.zip != nil {
		hdr := &zip.FileHeader{Name: name, Modified: a.when}
		hdr.SetMode(fs.ModeDir | 0o755)
		_, err := a.zip.CreateHeader(hdr)
		return err
	}
	return a.tar.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: name, Mode: 0o775, ModTime: a.when})
}

func (a *archiver) file(name string, mode filemode.FileMode, content []byte) error {
	perm := fs.FileMode(0o644)
	if mode == filemode.Executable {
		perm = 0o755
	}
	if a.zip != nil {
		hdr := &zip.FileHeader{Name: name, Method: zip.Deflate, Modified: a.when}
		if mode == filemode.Symlink {
			hdr.SetMode(fs.ModeSymlink | 0o777)
		} else {
			hdr.SetMode(perm)
		}
		fw, err := a.zip.CreateHeader(hdr)
		if err != nil {
			return err
		}
		_, err = fw.Write(content)
		return err
	}
	if mode == filemode.Symlink {
		return a.tar.WriteHeader(&tar.Header{Typeflag: tar.TypeSymlink, Name: name, Linkname: string(content),
			Mode: 0o777, ModTime: a.when})
	}
	if err := a.tar.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: name, Size: int64(len(content)),
		Mode: int64(perm), ModTime: a.when}); err != nil {
		return err
	}
	_, err := a.tar.Write(content)
	return err
}
