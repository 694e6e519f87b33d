package gitstore

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

// Refs read in process, SHA-1 and SHA-256 alike, from the files git keeps
// them in (a loose ref file wins over packed-refs, as for git), on every
// call: what a branch points at is never cached, so a push, a force push
// or a deleted branch shows at once. Only packed-refs is parsed once per
// version of the file (its size, modification time and inode: git replaces
// it by renaming a new file over it). Anything unusual (a symbolic ref, a
// name git would refuse, an unreadable file) is left to the git command
// line.

// packedRefs is one parsed version of a repository's packed-refs file.
type packedRefs struct {
	info fs.FileInfo       // the file as it was read (os.SameFile: its inode)
	ids  map[string]string // ref name → id
}

// same reports whether info describes the version p was read from.
func (p *packedRefs) same(info fs.FileInfo) bool {
	return os.SameFile(p.info, info) && p.info.Size() == info.Size() && p.info.ModTime().Equal(info.ModTime())
}

// packedRefsCache holds the last parsed packed-refs of each repository.
type packedRefsCache struct{ m sync.Map } // forge.ID → *packedRefs

// packed returns the packed refs of repo (empty if it has no packed-refs
// file); ok is false if the file could not be read.
func (s *Store) packed(repo forge.ID) (map[string]string, bool) {
	file := filepath.Join(s.Path(repo), "packed-refs")
	info, err := os.Stat(file)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, true
	} else if err != nil {
		return nil, false
	}
	if v, ok := s.packedRefs.m.Load(repo); ok {
		if p := v.(*packedRefs); p.same(info) {
			return p.ids, true
		}
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, errors.Is(err, fs.ErrNotExist)
	}
	ids := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == '#' || line[0] == '^' {
			continue
		}
		id, name, ok := strings.Cut(line, " ")
		if !ok || !isHex(id) {
			return nil, false
		}
		ids[name] = id
	}
	if sc.Err() != nil {
		return nil, false
	}
	// Only the version read is remembered: a file changed between Stat and
	// ReadFile is read again next time (its stat no longer matches).
	p := &packedRefs{info: info, ids: ids}
	if after, err := os.Stat(file); err == nil && p.same(after) {
		s.packedRefs.m.Store(repo, p)
	}
	return ids, true
}

// plainRefName reports whether name is a full reference name that git
// accepts and that names a file under the repository (no "..", no
// component starting with a dot, none of git's forbidden characters).
func plainRefName(name string) bool {
	if !strings.HasPrefix(name, "refs/") || strings.HasSuffix(name, "/") || strings.HasSuffix(name, ".") ||
		strings.HasSuffix(name, ".lock") || strings.Contains(name, "..") || strings.Contains(name, "//") ||
		strings.Contains(name, "@{") || strings.Contains(name, "/.") {
		return false
	}
	for i := 0; i < len(name); i++ {
		if c := name[i]; c < 0x20 || c == 0x7f || strings.IndexByte(" ~^:?*[\\", c) >= 0 {
			return false
		}
	}
	return true
}

// readLooseRef reads a loose ref file: its id; found is false if there is
// no such file (or it is a directory); ok is false for a symbolic or broken
// ref.
func readLooseRef(file string) (id string, found, ok bool) {
	data, err := os.ReadFile(file)
	if err != nil {
		var pe *fs.PathError
		if errors.Is(err, fs.ErrNotExist) || (errors.As(err, &pe) && errors.Is(pe.Err, syscall.EISDIR)) ||
			errors.Is(err, syscall.ENOTDIR) {
			return "", false, true
		}
		return "", false, false
	}
	id = strings.TrimSuffix(string(data), "\n")
	if !isHex(id) || (len(id) != 40 && len(id) != 64) {
		return "", false, false
	}
	return id, true, true
}

// readRef returns the id the full reference name points at; found is false
// if there is no such ref; ok is false if git must answer.
func (s *Store) readRef(repo forge.ID, name string) (id string, found, ok bool) {
	if !plainRefName(name) {
		return "", false, false
	}
	if _, err := os.Stat(s.Path(repo)); err != nil {
		return "", false, false
	}
	if id, found, ok := readLooseRef(filepath.Join(s.Path(repo), filepath.FromSlash(name))); !ok || found {
		return id, found, ok
	}
	packed, ok := s.packed(repo)
	if !ok {
		return "", false, false
	}
	id, found = packed[name]
	return id, found, true
}

// goListRefs lists refs/heads and refs/tags (name → id) from the loose ref
// files and packed-refs; ok is false if git must answer.
func (s *Store) goListRefs(repo forge.ID) (map[string]string, bool) {
	root := s.Path(repo)
	if _, err := os.Stat(root); err != nil {
		return nil, false
	}
	packed, ok := s.packed(repo)
	if !ok {
		return nil, false
	}
	ids := map[string]string{}
	for name, id := range packed {
		if strings.HasPrefix(name, "refs/heads/") || strings.HasPrefix(name, "refs/tags/") {
			ids[name] = id
		}
	}
	for _, dir := range []string{"refs/heads", "refs/tags"} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				if errors.Is(err, fs.ErrNotExist) {
					return nil
				}
				return err
			}
			if d.IsDir() {
				return nil
			}
			rel, err := filepath.Rel(root, p)
			if err != nil {
				return err
			}
			name := filepath.ToSlash(rel)
			if !plainRefName(name) {
				return nil // git ignores it too (a .lock file of a write in progress)
			}
			id, found, ok := readLooseRef(p)
			if !ok {
				return errUnparsed
			}
			if found {
				ids[name] = id
			}
			return nil
		})
		if err != nil {
			return nil, false
		}
	}
	return ids, true
}

// goRefsOf is Refs from goListRefs: each ref's type and the object a tag
// points at from the cat-file pool (cached by id); ok is false if git must
// answer.
func (s *Store) goRefsOf(ctx context.Context, repo forge.ID) ([]repos.Ref, bool, error) {
	ids, ok := s.goListRefs(repo)
	if !ok {
		return nil, false, nil
	}
	names := make([]string, 0, len(ids))
	for name := range ids {
		names = append(names, name)
	}
	slices.Sort(names)
	var refs []repos.Ref
	for _, name := range names {
		id := ids[name]
		r := repos.Ref{Name: name, Target: id, Type: "commit", Commit: id}
		key := cacheKey(repo, id) + "^{}"
		if target, ok := s.cache.peeled.get(key); ok {
			r.Type, r.Commit = "tag", target
		} else if c, ok := s.cache.peeled.get(cacheKey(repo, id)); !ok || c != id {
			typ, _, found, err := s.objectInfo(ctx, repo, id)
			if err != nil {
				return nil, false, err
			}
			if !found {
				continue // a broken ref: for-each-ref leaves it out
			}
			switch typ {
			case "tag":
				_, data, _, err := s.objectContents(ctx, repo, id, maxTagSize)
				if err != nil {
					return nil, false, err
				}
				target, ok := tagTarget(data)
				if !ok {
					return nil, false, nil
				}
				s.cache.peeled.put(key, target)
				r.Type, r.Commit = "tag", target
			case "commit":
				s.cache.peeled.put(cacheKey(repo, id), id)
			default:
				r.Type = typ
			}
		}
		refs = append(refs, r)
	}
	return refs, true, nil
}
