package gitstore

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"maps"
	"math"
	"os/exec"
	"path"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

// goMaxTreeEntries is the widest directory go-git lists.
const goMaxTreeEntries = 256

// Tree lists the entries of the directory p at rev.
func (s *Store) Tree(ctx context.Context, repo forge.ID, rev, p string, recursive bool) ([]repos.TreeEntry, error) {
	if !s.cliOnly && !recursive {
		if entries, ok, err := s.poolTree(ctx, repo, rev, strings.Trim(p, "/")); err != nil || ok {
			return entries, err
		}
	}
	if r := s.open(repo); r != nil && !recursive {
		t, err := goTreeAt(r, rev, strings.Trim(p, "/"))
		if err != nil {
			return nil, err
		}
		// go-git reads one object header per entry for its size: a wide
		// directory (or any recursive listing) is one ls-tree stream.
		if len(t.Entries) <= goMaxTreeEntries {
			return goTree(r, t, strings.Trim(p, "/"), false)
		}
	}
	return s.cliTree(ctx, repo, rev, p, recursive)
}

func (s *Store) cliTree(ctx context.Context, repo forge.ID, rev, p string, recursive bool) ([]repos.TreeEntry, error) {
	isTree := false
	id, err := s.Resolve(ctx, repo, rev)
	if err != nil {
		typ, _, oerr := s.Object(ctx, repo, rev)
		if oerr != nil || typ != "tree" || strings.Trim(p, "/") != "" {
			return nil, err
		}
		id, isTree = rev, true // a tree id
	}
	p = strings.Trim(p, "/")
	tree := id
	if !isTree {
		out, err := s.run(ctx, repo, nil, nil, "rev-parse", "--verify", "--quiet", "--end-of-options", id+"^{tree}:"+p)
		if err != nil {
			return nil, forge.Errorf(forge.ErrNotFound, "tree does not exist [path: %s]", p)
		}
		tree = strings.TrimSpace(string(out))
	}
	entries := []repos.TreeEntry{}
	for e, err := range s.WalkTree(ctx, repo, tree, recursive) {
		if err != nil {
			if errors.Is(err, forge.ErrNotFound) {
				return nil, forge.Errorf(forge.ErrNotFound, "tree does not exist [path: %s]", p)
			}
			return nil, err
		}
		e.Path = path.Join(p, e.Path)
		entries = append(entries, e)
	}
	return entries, nil
}

// parseLsTree reads `git ls-tree -l -z`: "<mode> <type> <id> <size>\t<path>\0".
func parseLsTree(out string) []repos.TreeEntry {
	entries := []repos.TreeEntry{}
	for _, rec := range strings.Split(out, "\x00") {
		meta, name, ok := strings.Cut(rec, "\t")
		if !ok {
			continue
		}
		f := strings.Fields(meta)
		if len(f) != 4 {
			continue
		}
		size, _ := strconv.ParseInt(f[3], 10, 64)
		entries = append(entries, repos.TreeEntry{Path: name, Name: path.Base(name), Mode: f[0], Type: f[1], ID: f[2], Size: size})
	}
	return entries
}

// Entry describes the entry at p in rev ("" is the root tree).
func (s *Store) Entry(ctx context.Context, repo forge.ID, rev, p string) (*repos.TreeEntry, error) {
	if !s.cliOnly {
		id, err := s.Resolve(ctx, repo, rev)
		if err != nil {
			return nil, err
		}
		e, err := s.entryAt(ctx, repo, id, strings.Trim(p, "/"))
		if !errors.Is(err, errUnparsed) {
			return e, err
		}
	}
	if r := s.open(repo); r != nil {
		c, err := goResolve(r, rev)
		if err != nil {
			return nil, err
		}
		root, err := c.Tree()
		if err != nil {
			return nil, err
		}
		p = strings.Trim(p, "/")
		if p == "" {
			return &repos.TreeEntry{Mode: "040000", Type: "tree", ID: root.Hash.String()}, nil
		}
		e, err := root.FindEntry(p)
		if err != nil {
			return nil, forge.Errorf(forge.ErrNotFound, "object does not exist [id: %s, rel_path: %s]", rev, p)
		}
		out := entryOf(r, path.Dir(p), *e)
		if path.Dir(p) == "." {
			out.Path = e.Name
		}
		return &out, nil
	}
	return s.cliEntry(ctx, repo, rev, p)
}

func (s *Store) cliEntry(ctx context.Context, repo forge.ID, rev, p string) (*repos.TreeEntry, error) {
	id, err := s.Resolve(ctx, repo, rev)
	if err != nil {
		return nil, err
	}
	p = strings.Trim(p, "/")
	if p == "" {
		out, err := s.run(ctx, repo, nil, nil, "rev-parse", id+"^{tree}")
		if err != nil {
			return nil, err
		}
		return &repos.TreeEntry{Mode: "040000", Type: "tree", ID: strings.TrimSpace(string(out))}, nil
	}
	out, err := s.run(ctx, repo, nil, nil, "ls-tree", "-l", "-z", id, "--", p)
	if err != nil {
		return nil, err
	}
	for _, e := range parseLsTree(string(out)) {
		if e.Path == p {
			return &e, nil
		}
	}
	return nil, forge.Errorf(forge.ErrNotFound, "object does not exist [id: %s, rel_path: %s]", rev, p)
}

// goMaxInflate is the largest object go-git reads: it inflates an object
// whole into memory to learn even its type, so larger ones go to the CLI.
const goMaxInflate = 1 << 20

// Object returns the type and size of an object.
func (s *Store) Object(ctx context.Context, repo forge.ID, oid string) (string, int64, error) {
	if !s.cliOnly && s.isRepoID(repo, oid) {
		typ, size, found, err := s.objectInfo(ctx, repo, oid)
		if err == nil && !found {
			err = forge.Errorf(forge.ErrNotFound, "object does not exist [id: %s]", oid)
		}
		return typ, size, err
	}
	if r := s.open(repo); r != nil && isHex(oid) && len(oid) == 40 && goSize(r, plumbing.NewHash(oid)) <= goMaxInflate {
		return goObject(r, oid)
	}
	return s.cliObject(ctx, repo, oid)
}

func (s *Store) cliObject(ctx context.Context, repo forge.ID, oid string) (string, int64, error) {
	if !isHex(oid) {
		return "", 0, forge.Errorf(forge.ErrNotFound, "object does not exist [id: %s]", oid)
	}
	out, err := s.run(ctx, repo, []byte(oid+"\n"), nil, "cat-file", "--batch-check")
	if err != nil {
		return "", 0, err
	}
	f := strings.Fields(string(out))
	if len(f) != 3 {
		return "", 0, forge.Errorf(forge.ErrNotFound, "object does not exist [id: %s]", oid)
	}
	size, _ := strconv.ParseInt(f[2], 10, 64)
	return f[1], size, nil
}

// Blob returns the content of a blob.
func (s *Store) Blob(ctx context.Context, repo forge.ID, oid string) ([]byte, error) {
	if !s.cliOnly && s.isRepoID(repo, oid) {
		typ, data, found, err := s.objectContents(ctx, repo, oid, math.MaxInt64)
		if err != nil {
			return nil, err
		}
		if !found {
			return nil, forge.Errorf(forge.ErrNotFound, "object does not exist [id: %s]", oid)
		}
		if typ != "blob" {
			return nil, forge.Errorf(forge.ErrNotFound, "object is not a blob [id: %s]", oid)
		}
		return data, nil
	}
	if r := s.open(repo); r != nil && isHex(oid) && len(oid) == 40 && goSize(r, plumbing.NewHash(oid)) <= goMaxInflate {
		return goBlob(r, oid)
	}
	typ, _, err := s.cliObject(ctx, repo, oid)
	if err != nil {
		return nil, err
	}
	if typ != "blob" {
		return nil, forge.Errorf(forge.ErrNotFound, "object is not a blob [id: %s]", oid)
	}
	return s.run(ctx, repo, nil, nil, "cat-file", "blob", oid)
}

func isHex(s string) bool {
	if len(s) < 4 || len(s) > 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// inlineBlobSize is the largest blob OpenBlob reads through the cat-file
// pool into memory at once; larger ones are streamed by a process of their
// own, so a slow reader never holds a pooled process.
const inlineBlobSize = 64 << 10

// OpenBlob streams a blob: one of at most inlineBlobSize bytes is read
// through the cat-file pool (no process started), a larger one streams
// from `git cat-file blob` and is never held in memory. The caller closes
// the reader (which ends the process).
func (s *Store) OpenBlob(ctx context.Context, repo forge.ID, oid string) (io.ReadCloser, int64, error) {
	if !s.cliOnly && s.isRepoID(repo, oid) {
		typ, size, found, err := s.objectInfo(ctx, repo, oid)
		if err != nil {
			return nil, 0, err
		}
		if !found {
			return nil, 0, forge.Errorf(forge.ErrNotFound, "object does not exist [id: %s]", oid)
		}
		if typ != "blob" {
			return nil, 0, forge.Errorf(forge.ErrNotFound, "object is not a blob [id: %s]", oid)
		}
		if size <= inlineBlobSize {
			_, data, found, err := s.objectContents(ctx, repo, oid, inlineBlobSize)
			if err != nil {
				return nil, 0, err
			}
			if !found {
				return nil, 0, forge.Errorf(forge.ErrNotFound, "object does not exist [id: %s]", oid)
			}
			return io.NopCloser(bytes.NewReader(data)), size, nil
		}
	}
	// `cat-file --batch-check` reads the header only (go-git would inflate
	// a loose object whole to learn its type).
	typ, size, err := s.cliObject(ctx, repo, oid)
	if err != nil {
		return nil, 0, err
	}
	if typ != "blob" {
		return nil, 0, forge.Errorf(forge.ErrNotFound, "object is not a blob [id: %s]", oid)
	}
	c := s.cmd(ctx, repo, nil, "cat-file", "blob", oid)
	out, err := c.StdoutPipe()
	if err != nil {
		return nil, 0, err
	}
	if err := c.Start(); err != nil {
		return nil, 0, err
	}
	return &cmdReader{ReadCloser: out, cmd: c}, size, nil
}

// cmdReader is the stdout of a running git command; Close ends it.
type cmdReader struct {
	io.ReadCloser
	cmd *exec.Cmd
}

func (r *cmdReader) Close() error {
	r.ReadCloser.Close()
	// An early Close makes git die of SIGPIPE: not an error of the reader.
	r.cmd.Wait()
	return nil
}

// LastCommits finds the last commit touching each entry of dir at rev in
// one `git log --name-only` walk, stopped as soon as every name is found.
func (s *Store) LastCommits(ctx context.Context, repo forge.ID, rev, dir string, names []string) (map[string]string, error) {
	id, err := s.Resolve(ctx, repo, rev)
	if err != nil {
		return nil, err
	}
	dir = strings.Trim(dir, "/")
	key := cacheKey(repo, id) + "\x00" + dir + "\x00" + strings.Join(names, "\x00")
	if m, ok := s.cache.lastCommits.get(key); ok && !s.cliOnly {
		return maps.Clone(m), nil
	}
	found, err := s.lastCommits(ctx, repo, id, dir, names)
	if err == nil && !s.cliOnly {
		s.cache.lastCommits.putCost(key, maps.Clone(found), namesCost(found))
	}
	return found, err
}

func (s *Store) lastCommits(ctx context.Context, repo forge.ID, id, dir string, names []string) (map[string]string, error) {
	found := make(map[string]string, len(names))
	want := make(map[string]bool, len(names))
	for _, n := range names {
		want[n] = true
	}
	if len(want) == 0 {
		return found, nil
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	args := []string{"log", "--format=%x1e%H", "--name-only", "-z", "--no-renames", id}
	if dir != "" {
		args = append(args, "--", dir)
	}
	c := s.cmd(ctx, repo, nil, args...)
	out, err := c.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := c.Start(); err != nil {
		return nil, err
	}
	prefix := ""
	if dir != "" {
		prefix = dir + "/"
	}
	r := bufio.NewReaderSize(out, 64<<10)
	commit := ""
	for len(found) < len(want) {
		tok, err := r.ReadString(0)
		if err != nil {
			break
		}
		tok = strings.TrimSuffix(tok, "\x00")
		if h, ok := strings.CutPrefix(tok, "\x1e"); ok {
			commit = h
			continue
		}
		rest, ok := strings.CutPrefix(strings.TrimPrefix(tok, "\n"), prefix)
		if !ok || commit == "" {
			continue
		}
		name, _, _ := strings.Cut(rest, "/")
		if want[name] {
			if _, done := found[name]; !done {
				found[name] = commit
			}
		}
	}
	cancel() // the walk may stop before git is done
	io.Copy(io.Discard, out)
	c.Wait()
	return found, nil
}
