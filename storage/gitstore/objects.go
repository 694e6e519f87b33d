package gitstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

// Reads of objects through the cat-file pool, parsed in Go: commits as
// `git log` prints them, trees as `git ls-tree -l` lists them, tags peeled.
// Results are cached by object id (an id names the same object forever).

// errUnparsed reports an object this parser leaves to the git command line
// (a commit re-encoded by git log, an unusual signature line).
var errUnparsed = errors.New("gitstore: object left to git")

// catFileDo gives a process of repo to read; when the process fails (it
// died, or was ended while idle) read is tried once more on a new one.
func (s *Store) catFileDo(ctx context.Context, repo forge.ID, read func(cf *catFile) error) error {
	for attempt := 0; ; attempt++ {
		cf, err := s.catFiles.get(ctx, repo)
		if err != nil {
			if _, serr := os.Stat(s.Path(repo)); errors.Is(serr, fs.ErrNotExist) {
				return forge.Errorf(forge.ErrNotFound, "repository does not exist [id: %d]", repo)
			}
			return err
		}
		err = read(cf)
		s.catFiles.put(cf, err != nil)
		if err == nil || attempt == 1 {
			return err
		}
		if _, serr := os.Stat(s.Path(repo)); errors.Is(serr, fs.ErrNotExist) {
			return forge.Errorf(forge.ErrNotFound, "repository does not exist [id: %d]", repo)
		}
	}
}

// objectInfo is the type and size of oid (a full id), read from its header
// only; found is false if there is no such object.
func (s *Store) objectInfo(ctx context.Context, repo forge.ID, oid string) (typ string, size int64, found bool, err error) {
	err = s.catFileDo(ctx, repo, func(cf *catFile) error {
		var e error
		_, typ, size, found, e = cf.header("info", oid)
		return e
	})
	return typ, size, found, err
}

// Largest objects the parsers read into memory; a larger one (only a
// crafted repository has them) is left to the git command line.
const (
	maxCommitSize = 16 << 20
	maxTreeSize   = 64 << 20
	maxTagSize    = 1 << 20
)

// objectContents reads oid (a full id) whole if it has at most max bytes;
// a larger object's content is skipped (data is nil, never read into
// memory).
func (s *Store) objectContents(ctx context.Context, repo forge.ID, oid string, max int64) (typ string, data []byte, found bool, err error) {
	err = s.catFileDo(ctx, repo, func(cf *catFile) error {
		var size int64
		var e error
		if _, typ, size, found, e = cf.header("contents", oid); e != nil || !found {
			return e
		}
		if size > max {
			data = nil
			return cf.skip(size)
		}
		data, e = cf.body(size)
		return e
	})
	return typ, data, found, err
}

// isRepoID reports whether oid is a full object id of repo's format.
func (s *Store) isRepoID(repo forge.ID, oid string) bool {
	n := 64
	if s.isSHA1(repo) {
		n = 40
	}
	return len(oid) == n && isHex(oid)
}

// peel returns the commit oid names (itself, or what annotated tags point
// at); found is false if oid names no object or no commit.
func (s *Store) peel(ctx context.Context, repo forge.ID, oid string) (commit string, found bool, err error) {
	key := cacheKey(repo, oid)
	if c, ok := s.cache.peeled.get(key); ok {
		return c, true, nil
	}
	h := oid
	for range 10 { // nested annotated tags
		if _, ok := s.cache.commits.get(cacheKey(repo, h)); ok {
			s.cache.peeled.put(key, h)
			return h, true, nil
		}
		// The header first: a ref may name a blob of any size.
		typ, _, found, err := s.objectInfo(ctx, repo, h)
		if err != nil || !found {
			return "", false, err
		}
		switch typ {
		case "commit":
			s.cache.peeled.put(key, h)
			return h, true, nil
		case "tag":
			_, data, found, err := s.objectContents(ctx, repo, h, maxTagSize)
			if err != nil || !found {
				return "", false, err
			}
			target, ok := tagTarget(data)
			if !ok {
				return "", false, nil
			}
			h = target
		default:
			return "", false, nil
		}
	}
	return "", false, nil
}

// tagTarget is the "object" header of a tag object.
func tagTarget(data []byte) (string, bool) {
	line, _, _ := bytes.Cut(data, []byte("\n"))
	t, ok := bytes.CutPrefix(line, []byte("object "))
	return string(t), ok && isHex(string(t))
}

// readCommit returns the commit id (a full id), from the cache or parsed from
// the cat-file pool; errUnparsed if the git command line must read it.
func (s *Store) readCommit(ctx context.Context, repo forge.ID, id string) (*repos.Commit, error) {
	key := cacheKey(repo, id)
	if c, ok := s.cache.commits.get(key); ok {
		return c, nil
	}
	typ, data, found, err := s.objectContents(ctx, repo, id, maxCommitSize)
	if err != nil {
		return nil, err
	}
	if !found || typ != "commit" {
		return nil, forge.Errorf(forge.ErrNotFound, "revision does not exist [rev: %s]", id)
	}
	if data == nil {
		return nil, errUnparsed
	}
	c, err := parseCommit(id, data)
	if err != nil {
		return nil, err
	}
	s.cache.commits.putCost(key, c, commitCost(c))
	return c, nil
}

// parseCommit reads a commit object as `git log --format=%H%T%P%an…%B`
// prints it; errUnparsed for what git log would re-encode or parse
// leniently.
func parseCommit(id string, data []byte) (*repos.Commit, error) {
	head, msg, ok := bytes.Cut(data, []byte("\n\n"))
	if !ok {
		head, msg = bytes.TrimSuffix(data, []byte("\n")), nil
	}
	c := &repos.Commit{ID: id, Parents: []string{}}
	var author, committer bool
	for _, line := range strings.Split(string(head), "\n") {
		key, val, _ := strings.Cut(line, " ")
		switch key {
		case "tree":
			c.Tree = val
		case "parent":
			c.Parents = append(c.Parents, val)
		case "author":
			sig, ok := parseSignature(val)
			if !ok || author {
				return nil, errUnparsed
			}
			c.Author, author = sig, true
		case "committer":
			sig, ok := parseSignature(val)
			if !ok || committer {
				return nil, errUnparsed
			}
			c.Committer, committer = sig, true
		case "encoding":
			if !strings.EqualFold(val, "utf-8") && !strings.EqualFold(val, "utf8") {
				return nil, errUnparsed // git log re-encodes the message
			}
		}
	}
	if c.Tree == "" || !author || !committer {
		return nil, errUnparsed
	}
	// %B stops at a NUL byte, as git's strbuf_addstr does.
	if i := bytes.IndexByte(msg, 0); i >= 0 {
		msg = msg[:i]
	}
	c.Message = string(msg)
	return c, nil
}

// parseSignature reads "Name <email> 1700000000 +0100" as git log's %an,
// %ae and %aI print it.
func parseSignature(v string) (repos.Signature, bool) {
	lt := strings.IndexByte(v, '<')
	if lt < 0 {
		return repos.Signature{}, false
	}
	gt := strings.IndexByte(v[lt:], '>')
	if gt < 0 {
		return repos.Signature{}, false
	}
	gt += lt
	name := strings.TrimRight(v[:lt], " ")
	email := v[lt+1 : gt]
	f := strings.Fields(v[gt+1:])
	if len(f) != 2 || len(f[1]) != 5 || (f[1][0] != '+' && f[1][0] != '-') {
		return repos.Signature{}, false
	}
	sec, err := strconv.ParseInt(f[0], 10, 64)
	if err != nil {
		return repos.Signature{}, false
	}
	hh, err1 := strconv.Atoi(f[1][1:3])
	mm, err2 := strconv.Atoi(f[1][3:5])
	if err1 != nil || err2 != nil || strings.ContainsAny(name, "\n") {
		return repos.Signature{}, false
	}
	off := hh*3600 + mm*60
	if f[1][0] == '-' {
		off = -off
	}
	// Formatted as %aI and parsed as the git log path parses it, so both
	// paths give identical values.
	t := time.Unix(sec, 0).In(time.FixedZone("", off))
	return repos.Signature{Name: name, Email: email, When: parseTime(t.Format(time.RFC3339))}, true
}

// treeEntry is one entry of a tree object.
type treeEntry struct {
	mode, name, id string
}

// parseTree reads a tree object whose ids are hashLen bytes long.
func parseTree(data []byte, hashLen int) ([]treeEntry, error) {
	var out []treeEntry
	for len(data) > 0 {
		sp := bytes.IndexByte(data, ' ')
		nul := bytes.IndexByte(data, 0)
		if sp < 0 || nul < sp || len(data) < nul+1+hashLen {
			return nil, fmt.Errorf("gitstore: malformed tree")
		}
		out = append(out, treeEntry{mode: canonMode(string(data[:sp])), name: string(data[sp+1 : nul]),
			id: fmt.Sprintf("%x", data[nul+1:nul+1+hashLen])})
		data = data[nul+1+hashLen:]
	}
	return out, nil
}

// canonMode is the mode as git ls-tree prints it (git canonicalises modes
// read from trees).
func canonMode(m string) string {
	v, err := strconv.ParseUint(m, 8, 32)
	if err != nil {
		return m
	}
	switch v & 0o170000 {
	case 0o100000:
		if v&0o100 != 0 {
			return "100755"
		}
		return "100644"
	case 0o120000:
		return "120000"
	case 0o040000:
		return "040000"
	}
	return "160000"
}

func typeOfMode(mode string) string {
	switch mode {
	case "040000":
		return "tree"
	case "160000":
		return "commit"
	}
	return "blob"
}

// entryAt describes the entry at p (clean, "" for the root) of commit (a
// full commit id), walking trees through the cat-file pool; cached by
// commit and path.
func (s *Store) entryAt(ctx context.Context, repo forge.ID, commit, p string) (*repos.TreeEntry, error) {
	key := cacheKey(repo, commit) + "\x00" + p
	if e, ok := s.cache.entries.get(key); ok {
		out := e
		return &out, nil
	}
	c, err := s.readCommit(ctx, repo, commit)
	if err != nil {
		return nil, err
	}
	e := repos.TreeEntry{Mode: "040000", Type: "tree", ID: c.Tree}
	if p != "" {
		hashLen := len(commit) / 2
		tree := c.Tree
		notFound := forge.Errorf(forge.ErrNotFound, "object does not exist [id: %s, rel_path: %s]", commit, p)
		parts := strings.Split(p, "/")
		for i, name := range parts {
			if tree == "" {
				return nil, notFound
			}
			typ, data, found, err := s.objectContents(ctx, repo, tree, maxTreeSize)
			if err != nil {
				return nil, err
			}
			if !found || typ != "tree" {
				return nil, notFound
			}
			if data == nil {
				return nil, errUnparsed
			}
			entries, err := parseTree(data, hashLen)
			if err != nil {
				return nil, err
			}
			var hit *treeEntry
			for j := range entries {
				if entries[j].name == name {
					hit = &entries[j]
					break
				}
			}
			if hit == nil {
				return nil, notFound
			}
			tree = ""
			if hit.mode == "040000" {
				tree = hit.id
			}
			if i == len(parts)-1 {
				e = repos.TreeEntry{Path: p, Name: path.Base(p), Mode: hit.mode, Type: typeOfMode(hit.mode), ID: hit.id}
			}
		}
		if e.Type == "blob" {
			_, size, found, err := s.objectInfo(ctx, repo, e.ID)
			if err != nil {
				return nil, err
			}
			if !found {
				return nil, notFound
			}
			e.Size = size
		}
	}
	s.cache.entries.putCost(key, e, int64(len(e.Path)+len(e.ID))+64)
	return &e, nil
}

// poolTree lists the directory p of rev (a revision, or a tree id with p
// "") through the cat-file pool, one header read per blob for its size,
// cached by tree id; ok is false for a directory wider than
// goMaxTreeEntries (one ls-tree stream lists it faster).
func (s *Store) poolTree(ctx context.Context, repo forge.ID, rev, p string) (entries []repos.TreeEntry, ok bool, err error) {
	notFound := forge.Errorf(forge.ErrNotFound, "tree does not exist [path: %s]", p)
	var tree string
	id, err := s.Resolve(ctx, repo, rev)
	switch {
	case err == nil:
		e, err := s.entryAt(ctx, repo, id, p)
		if errors.Is(err, forge.ErrNotFound) {
			return nil, false, notFound
		} else if errors.Is(err, errUnparsed) {
			return nil, false, nil
		} else if err != nil {
			return nil, false, err
		}
		if e.Type != "tree" {
			return nil, false, notFound
		}
		tree = e.ID
	case p == "" && s.isRepoID(repo, rev):
		if typ, _, found, ierr := s.objectInfo(ctx, repo, rev); ierr != nil {
			return nil, false, ierr
		} else if !found || typ != "tree" {
			return nil, false, err
		}
		tree = rev
	default:
		return nil, false, err
	}
	key := cacheKey(repo, tree)
	list, cached := s.cache.trees.get(key)
	if !cached {
		typ, data, found, err := s.objectContents(ctx, repo, tree, maxTreeSize)
		if err != nil {
			return nil, false, err
		}
		if !found || typ != "tree" {
			return nil, false, notFound
		}
		if data == nil {
			return nil, false, nil
		}
		raw, err := parseTree(data, len(tree)/2)
		if err != nil {
			return nil, false, err
		}
		if len(raw) > goMaxTreeEntries {
			return nil, false, nil
		}
		list = make([]repos.TreeEntry, 0, len(raw))
		for _, r := range raw {
			e := repos.TreeEntry{Path: r.name, Name: r.name, Mode: r.mode, Type: typeOfMode(r.mode), ID: r.id}
			if e.Type == "blob" {
				_, size, found, err := s.objectInfo(ctx, repo, r.id)
				if err != nil {
					return nil, false, err
				}
				if !found {
					return nil, false, nil // a broken tree: git says what it says
				}
				e.Size = size
			}
			list = append(list, e)
		}
		s.cache.trees.putCost(key, list, entriesCost(list))
	}
	out := make([]repos.TreeEntry, len(list))
	for i, e := range list {
		e.Path = path.Join(p, e.Name)
		out[i] = e
	}
	return out, true, nil
}
