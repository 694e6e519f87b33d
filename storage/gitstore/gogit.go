package gitstore

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"

	gogit "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

// In-process reads of SHA-1 repositories with go-git, now only where the
// cat-file pool does not answer (revisions other than full ref names and
// ids; a directory listing when the pool declines). Opening the repository
// per read (PlainOpen, the pack indexes) costs milliseconds on a repository
// of some history: BenchmarkReadPath measured go-git at 2.6 ms for a
// contents read where the cat-file pool takes 0.17 ms (0.04 ms cached),
// and go-git v5 cannot read SHA-256 repositories in the same binary.

// formats remembers each repository's object format (it never changes).
type formats struct{ m sync.Map }

func (s *Store) isSHA1(repo forge.ID) bool {
	if v, ok := s.formats.m.Load(repo); ok {
		return v.(bool)
	}
	cfg, err := os.ReadFile(filepath.Join(s.Path(repo), "config"))
	if err != nil {
		return false
	}
	sha1 := !bytes.Contains(bytes.ToLower(cfg), []byte("objectformat = sha256"))
	s.formats.m.Store(repo, sha1)
	return sha1
}

// open returns the go-git repository for a SHA-1 repository, or nil when
// go-git cannot serve it (SHA-256, or an open error: the CLI answers then).
func (s *Store) open(repo forge.ID) *gogit.Repository {
	if s.cliOnly || !s.isSHA1(repo) {
		return nil
	}
	r, err := gogit.PlainOpen(s.Path(repo))
	if err != nil {
		return nil
	}
	return r
}

// goResolveExact resolves a full reference name or a full object id to
// the commit it names (peeling annotated tags), with no name guessing.
// found is false when there is no such reference or commit; ok is false
// when go-git could not tell (the caller asks git then).
func goResolveExact(r *gogit.Repository, rev string) (id string, found, ok bool) {
	var h plumbing.Hash
	if strings.HasPrefix(rev, "refs/") {
		ref, err := r.Reference(plumbing.ReferenceName(rev), true)
		if errors.Is(err, plumbing.ErrReferenceNotFound) {
			return "", false, true
		} else if err != nil {
			return "", false, false
		}
		h = ref.Hash()
	} else {
		h = plumbing.NewHash(rev)
	}
	for range 10 { // peel nested annotated tags
		obj, err := r.Storer.EncodedObject(plumbing.AnyObject, h)
		if errors.Is(err, plumbing.ErrObjectNotFound) {
			return "", false, true
		} else if err != nil {
			return "", false, false
		}
		switch obj.Type() {
		case plumbing.CommitObject:
			return h.String(), true, true
		case plumbing.TagObject:
			t, err := object.DecodeTag(r.Storer, obj)
			if err != nil {
				return "", false, false
			}
			h = t.Target
		default:
			return "", false, true // a tree or blob names no commit
		}
	}
	return "", false, false
}

// isFullSHA1 reports whether s is a full SHA-1 object id in lower-case hex.
func isFullSHA1(s string) bool {
	if len(s) != 40 {
		return false
	}
	for _, c := range s {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// goResolve resolves a revision to a commit with go-git.
func goResolve(r *gogit.Repository, rev string) (*object.Commit, error) {
	h, err := r.ResolveRevision(plumbing.Revision(rev))
	if err != nil {
		return nil, forge.Errorf(forge.ErrNotFound, "revision does not exist [rev: %s]", rev)
	}
	c, err := r.CommitObject(*h)
	if err != nil {
		// An annotated tag: peel it.
		if t, terr := r.TagObject(*h); terr == nil {
			if c, err = t.Commit(); err == nil {
				return c, nil
			}
		}
		return nil, forge.Errorf(forge.ErrNotFound, "revision does not exist [rev: %s]", rev)
	}
	return c, nil
}

func goRefs(r *gogit.Repository) ([]repos.Ref, error) {
	iter, err := r.References()
	if err != nil {
		return nil, err
	}
	var refs []repos.Ref
	err = iter.ForEach(func(ref *plumbing.Reference) error {
		name := ref.Name().String()
		if ref.Type() != plumbing.HashReference || !(strings.HasPrefix(name, "refs/heads/") || strings.HasPrefix(name, "refs/tags/")) {
			return nil
		}
		out := repos.Ref{Name: name, Target: ref.Hash().String(), Type: "commit", Commit: ref.Hash().String()}
		if t, err := r.TagObject(ref.Hash()); err == nil {
			out.Type = "tag"
			if c, err := t.Commit(); err == nil {
				out.Commit = c.Hash.String()
			}
		}
		refs = append(refs, out)
		return nil
	})
	// for-each-ref order: by name.
	sortRefs(refs)
	return refs, err
}

func sortRefs(refs []repos.Ref) {
	for i := 1; i < len(refs); i++ {
		for j := i; j > 0 && refs[j].Name < refs[j-1].Name; j-- {
			refs[j], refs[j-1] = refs[j-1], refs[j]
		}
	}
}

func modeString(m filemode.FileMode) string {
	switch m {
	case filemode.Dir:
		return "040000"
	case filemode.Executable:
		return "100755"
	case filemode.Symlink:
		return "120000"
	case filemode.Submodule:
		return "160000"
	}
	return "100644"
}

func entryOf(r *gogit.Repository, dir string, e object.TreeEntry) repos.TreeEntry {
	out := repos.TreeEntry{Path: path.Join(dir, e.Name), Name: e.Name, Mode: modeString(e.Mode), ID: e.Hash.String()}
	switch e.Mode {
	case filemode.Dir:
		out.Type = "tree"
	case filemode.Submodule:
		out.Type = "commit"
	default:
		out.Type = "blob"
		out.Size = goSize(r, e.Hash)
	}
	return out
}

// goSize is the size of an object, read from its header only (reading the
// object would inflate it whole into memory).
func goSize(r *gogit.Repository, h plumbing.Hash) int64 {
	if sz, ok := r.Storer.(interface {
		EncodedObjectSize(plumbing.Hash) (int64, error)
	}); ok {
		if n, err := sz.EncodedObjectSize(h); err == nil {
			return n
		}
	}
	if obj, err := r.Storer.EncodedObject(plumbing.BlobObject, h); err == nil {
		return obj.Size()
	}
	return 0
}

// goTree lists the tree at dir (recursively with subtrees first, as
// `ls-tree -r -t`).
func goTree(r *gogit.Repository, t *object.Tree, dir string, recursive bool) ([]repos.TreeEntry, error) {
	entries := []repos.TreeEntry{}
	for _, e := range t.Entries {
		entries = append(entries, entryOf(r, dir, e))
		if recursive && e.Mode == filemode.Dir {
			sub, err := r.TreeObject(e.Hash)
			if err != nil {
				return nil, err
			}
			more, err := goTree(r, sub, path.Join(dir, e.Name), true)
			if err != nil {
				return nil, err
			}
			entries = append(entries, more...)
		}
	}
	return entries, nil
}

// goTreeAt finds the tree for rev (a commit-ish or a tree id) and dir.
func goTreeAt(r *gogit.Repository, rev, dir string) (*object.Tree, error) {
	var root *object.Tree
	if c, err := goResolve(r, rev); err == nil {
		if root, err = c.Tree(); err != nil {
			return nil, err
		}
	} else if isHex(rev) && dir == "" {
		t, terr := r.TreeObject(plumbing.NewHash(rev))
		if terr != nil {
			return nil, err
		}
		return t, nil
	} else {
		return nil, err
	}
	if dir == "" {
		return root, nil
	}
	t, err := root.Tree(dir)
	if err != nil {
		return nil, forge.Errorf(forge.ErrNotFound, "tree does not exist [path: %s]", dir)
	}
	return t, nil
}

func goBlob(r *gogit.Repository, oid string) ([]byte, error) {
	if !isHex(oid) || len(oid) != 40 {
		return nil, forge.Errorf(forge.ErrNotFound, "object does not exist [id: %s]", oid)
	}
	b, err := r.BlobObject(plumbing.NewHash(oid))
	if err != nil {
		return nil, forge.Errorf(forge.ErrNotFound, "object is not a blob [id: %s]", oid)
	}
	rd, err := b.Reader()
	if err != nil {
		return nil, err
	}
	defer rd.Close()
	return io.ReadAll(rd)
}

func goObject(r *gogit.Repository, oid string) (string, int64, error) {
	if !isHex(oid) || len(oid) != 40 {
		return "", 0, forge.Errorf(forge.ErrNotFound, "object does not exist [id: %s]", oid)
	}
	obj, err := r.Storer.EncodedObject(plumbing.AnyObject, plumbing.NewHash(oid))
	if errors.Is(err, plumbing.ErrObjectNotFound) || err != nil {
		return "", 0, forge.Errorf(forge.ErrNotFound, "object does not exist [id: %s]", oid)
	}
	return obj.Type().String(), obj.Size(), nil
}
