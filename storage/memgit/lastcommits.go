package memgit

import (
	"context"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/hearthforge/hearth/forge"
)

// LastCommits returns, for each name of directory dir at rev, the id of
// the newest commit reachable from rev (in Log's order) whose entry
// dir/name differs from that of every parent, in one walk that stops when
// every name is found. Names never touched, or absent, are left out; a
// missing dir gives an empty map. For the linear histories Apply makes
// this is what gitstore's `git log --name-only -- dir` finds.
func (s *Store) LastCommits(ctx context.Context, id forge.ID, rev, dir string, names []string) (map[string]string, error) {
	r, err := s.get(ctx, id)
	if err != nil {
		return nil, err
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	start, err := r.resolve(rev)
	if err != nil {
		return nil, err
	}
	dir = strings.Trim(dir, "/")
	found := make(map[string]string, len(names))
	want := make(map[string]bool, len(names))
	for _, n := range names {
		want[n] = true
	}
	if len(want) == 0 {
		return found, nil
	}
	err = r.walk(start, "", func(c *object.Commit) (bool, error) {
		if err := ctx.Err(); err != nil {
			return false, err
		}
		mine, err := r.dirEntries(c, dir)
		if err != nil {
			return false, err
		}
		var theirs []map[string]object.TreeEntry
		for _, ph := range c.ParentHashes {
			pc, err := object.GetCommit(r.st, ph)
			if err != nil {
				return false, err
			}
			pe, err := r.dirEntries(pc, dir)
			if err != nil {
				return false, err
			}
			theirs = append(theirs, pe)
		}
		for name := range want {
			if _, done := found[name]; done {
				continue
			}
			if touched(name, mine, theirs) {
				found[name] = c.Hash.String()
			}
		}
		return len(found) < len(want), nil
	})
	return found, err
}

// touched reports whether name's entry (id and mode) in mine differs from
// every parent's (present in one, absent in another counts as different).
func touched(name string, mine map[string]object.TreeEntry, parents []map[string]object.TreeEntry) bool {
	h, ok := mine[name]
	if len(parents) == 0 {
		return ok
	}
	for _, p := range parents {
		pe, pok := p[name]
		if ok == pok && h.Hash == pe.Hash && h.Mode == pe.Mode {
			return false
		}
	}
	return true
}

// dirEntries maps the names of directory dir of c's tree to their entries;
// empty if there is no such directory.
func (r *repo) dirEntries(c *object.Commit, dir string) (map[string]object.TreeEntry, error) {
	t, err := c.Tree()
	if err != nil {
		return nil, err
	}
	if dir != "" {
		e, err := t.FindEntry(dir)
		if err != nil || e.Mode != filemode.Dir {
			return map[string]object.TreeEntry{}, nil
		}
		if t, err = object.GetTree(r.st, e.Hash); err != nil {
			return nil, err
		}
	}
	out := make(map[string]object.TreeEntry, len(t.Entries))
	for _, e := range t.Entries {
		out[e.Name] = e
	}
	return out, nil
}
