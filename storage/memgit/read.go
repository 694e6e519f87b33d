package memgit

import (
	"container/heap"
	"context"
	"io"
	"path"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	fdiff "github.com/go-git/go-git/v5/plumbing/format/diff"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/utils/merkletrie"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

// Log lists commits reachable from o.Rev, newest (by committer time) first.
func (s *Store) Log(ctx context.Context, id forge.ID, o repos.LogOptions) ([]*repos.Commit, error) {
	r, err := s.get(ctx, id)
	if err != nil {
		return nil, err
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	start, err := r.resolve(o.Rev)
	if err != nil {
		return nil, err
	}
	out := []*repos.Commit{}
	skip := o.Skip
	err = r.walk(start, strings.Trim(o.Path, "/"), func(c *object.Commit) (bool, error) {
		if skip > 0 {
			skip--
			return true, nil
		}
		rc, err := r.commit(c, o.Files)
		if err != nil {
			return false, err
		}
		out = append(out, rc)
		return o.Limit <= 0 || len(out) < o.Limit, nil
	})
	return out, err
}

// CountCommits counts the commits reachable from rev (touching path, if
// set).
func (s *Store) CountCommits(ctx context.Context, id forge.ID, rev, p string) (int, error) {
	r, err := s.get(ctx, id)
	if err != nil {
		return 0, err
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	start, err := r.resolve(rev)
	if err != nil {
		return 0, err
	}
	n := 0
	err = r.walk(start, strings.Trim(p, "/"), func(*object.Commit) (bool, error) { n++; return true, nil })
	return n, err
}

// walk calls fn for the commits reachable from start, newest committer time
// first, keeping only those that change p when p is set; fn returns false
// to stop.
func (r *repo) walk(start plumbing.Hash, p string, fn func(*object.Commit) (bool, error)) error {
	first, err := object.GetCommit(r.st, start)
	if err != nil {
		return err
	}
	q := &commitQueue{first}
	seen := map[plumbing.Hash]bool{start: true}
	for q.Len() > 0 {
		c := heap.Pop(q).(*object.Commit)
		for _, ph := range c.ParentHashes {
			if seen[ph] {
				continue
			}
			seen[ph] = true
			pc, err := object.GetCommit(r.st, ph)
			if err != nil {
				return err
			}
			heap.Push(q, pc)
		}
		if p != "" {
			touches, err := r.touches(c, p)
			if err != nil {
				return err
			}
			if !touches {
				continue
			}
		}
		more, err := fn(c)
		if err != nil || !more {
			return err
		}
	}
	return nil
}

// touches reports whether the entry at p in c differs from every parent's.
func (r *repo) touches(c *object.Commit, p string) (bool, error) {
	mine, err := entryHash(c, p)
	if err != nil {
		return false, err
	}
	if len(c.ParentHashes) == 0 {
		return !mine.IsZero(), nil
	}
	for _, ph := range c.ParentHashes {
		pc, err := object.GetCommit(r.st, ph)
		if err != nil {
			return false, err
		}
		theirs, err := entryHash(pc, p)
		if err != nil {
			return false, err
		}
		if theirs == mine {
			return false, nil
		}
	}
	return true, nil
}

// entryHash is the id of the entry at p in c's tree, zero if there is none.
func entryHash(c *object.Commit, p string) (plumbing.Hash, error) {
	t, err := c.Tree()
	if err != nil {
		return plumbing.ZeroHash, err
	}
	e, err := t.FindEntry(p)
	if err != nil {
		return plumbing.ZeroHash, nil
	}
	return e.Hash, nil
}

// commitQueue orders commits newest committer time first.
type commitQueue []*object.Commit

func (q commitQueue) Len() int { return len(q) }
func (q commitQueue) Less(i, j int) bool {
	return q[i].Committer.When.After(q[j].Committer.When)
}
func (q commitQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *commitQueue) Push(x any)   { *q = append(*q, x.(*object.Commit)) }
func (q *commitQueue) Pop() any {
	old := *q
	c := old[len(old)-1]
	*q = old[:len(old)-1]
	return c
}

// commit converts c, with its files against its first parent when files.
func (r *repo) commit(c *object.Commit, files bool) (*repos.Commit, error) {
	out := &repos.Commit{
		ID:        c.Hash.String(),
		Tree:      c.TreeHash.String(),
		Parents:   []string{},
		Author:    signature(c.Author),
		Committer: signature(c.Committer),
		Message:   c.Message,
	}
	for _, p := range c.ParentHashes {
		out.Parents = append(out.Parents, p.String())
	}
	if files {
		changes, err := r.changes(c)
		if err != nil {
			return nil, err
		}
		out.Files, err = r.stats(changes)
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

func signature(s object.Signature) repos.Signature {
	return repos.Signature{Name: s.Name, Email: s.Email, When: s.When}
}

// changes diffs c against its first parent (the empty tree for a root
// commit), without rename detection.
func (r *repo) changes(c *object.Commit) (object.Changes, error) {
	to, err := c.Tree()
	if err != nil {
		return nil, err
	}
	var from *object.Tree
	if len(c.ParentHashes) > 0 {
		pc, err := object.GetCommit(r.st, c.ParentHashes[0])
		if err != nil {
			return nil, err
		}
		if from, err = pc.Tree(); err != nil {
			return nil, err
		}
	}
	return object.DiffTree(from, to)
}

// stats gives Forgejo's status and the added and removed lines of each
// change, ordered by path.
func (r *repo) stats(changes object.Changes) ([]repos.FileChangeStat, error) {
	files, err := r.fileStats(changes)
	if err != nil {
		return nil, err
	}
	out := make([]repos.FileChangeStat, len(files))
	for i, f := range files {
		out[i] = f.FileChangeStat
	}
	return out, nil
}

// fileStat is a file's change with what a diffstat also shows.
type fileStat struct {
	repos.FileChangeStat
	Mode             string // the mode of the added or removed file
	Binary           bool
	OldSize, NewSize int64
}

// fileStats describes each change, ordered by path.
func (r *repo) fileStats(changes object.Changes) ([]fileStat, error) {
	out := []fileStat{}
	for _, ch := range changes {
		action, err := ch.Action()
		if err != nil {
			return nil, err
		}
		st := fileStat{FileChangeStat: repos.FileChangeStat{Filename: ch.To.Name, Status: "modified"},
			Mode: modeString(ch.To.TreeEntry.Mode)}
		switch action {
		case merkletrie.Insert:
			st.Status = "added"
		case merkletrie.Delete:
			st.Filename, st.Status, st.Mode = ch.From.Name, "removed", modeString(ch.From.TreeEntry.Mode)
		}
		patch, err := ch.Patch()
		if err != nil {
			return nil, err
		}
		for _, fp := range patch.FilePatches() {
			if fp.IsBinary() {
				st.Binary = true
				if action != merkletrie.Insert {
					st.OldSize, _ = r.st.EncodedObjectSize(ch.From.TreeEntry.Hash)
				}
				if action != merkletrie.Delete {
					st.NewSize, _ = r.st.EncodedObjectSize(ch.To.TreeEntry.Hash)
				}
				// go-git calls an empty file binary; git does not.
				st.Binary = st.OldSize > 0 || st.NewSize > 0
				continue
			}
			for _, chunk := range fp.Chunks() {
				switch chunk.Type() {
				case fdiff.Add:
					st.Additions += countLines(chunk.Content())
				case fdiff.Delete:
					st.Deletions += countLines(chunk.Content())
				}
			}
		}
		out = append(out, st)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Filename < out[j].Filename })
	return out, nil
}

func countLines(s string) int {
	n := strings.Count(s, "\n")
	if s != "" && !strings.HasSuffix(s, "\n") {
		n++
	}
	return n
}

// Tree lists the entries of the directory p at rev (a commit-ish, or a tree
// id with p ""), recursively with each tree before its entries, as `git
// ls-tree -r -t`.
func (s *Store) Tree(ctx context.Context, id forge.ID, rev, p string, recursive bool) ([]repos.TreeEntry, error) {
	r, err := s.get(ctx, id)
	if err != nil {
		return nil, err
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	p = strings.Trim(p, "/")
	var t *object.Tree
	if h, err := r.resolve(rev); err == nil {
		c, err := object.GetCommit(r.st, h)
		if err != nil {
			return nil, err
		}
		if t, err = c.Tree(); err != nil {
			return nil, err
		}
		if p != "" {
			if t, err = t.Tree(p); err != nil {
				return nil, forge.Errorf(forge.ErrNotFound, "tree does not exist [path: %s]", p)
			}
		}
	} else if isFullID(rev) && p == "" {
		if t, err = object.GetTree(r.st, plumbing.NewHash(rev)); err != nil {
			return nil, forge.Errorf(forge.ErrNotFound, "revision does not exist [rev: %s]", rev)
		}
	} else {
		return nil, err
	}
	return r.list(t, p, recursive)
}

func (r *repo) list(t *object.Tree, dir string, recursive bool) ([]repos.TreeEntry, error) {
	entries := []repos.TreeEntry{}
	for _, e := range t.Entries {
		entries = append(entries, r.entry(dir, e))
		if recursive && e.Mode == filemode.Dir {
			sub, err := object.GetTree(r.st, e.Hash)
			if err != nil {
				return nil, err
			}
			more, err := r.list(sub, path.Join(dir, e.Name), true)
			if err != nil {
				return nil, err
			}
			entries = append(entries, more...)
		}
	}
	return entries, nil
}

func (r *repo) entry(dir string, e object.TreeEntry) repos.TreeEntry {
	out := repos.TreeEntry{Path: path.Join(dir, e.Name), Name: e.Name, Mode: modeString(e.Mode), ID: e.Hash.String()}
	switch e.Mode {
	case filemode.Dir:
		out.Type = "tree"
	case filemode.Submodule:
		out.Type = "commit"
	default:
		out.Type = "blob"
		if n, err := r.st.EncodedObjectSize(e.Hash); err == nil {
			out.Size = n
		}
	}
	return out
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

// Entry describes the entry at p in rev ("" is the root tree).
func (s *Store) Entry(ctx context.Context, id forge.ID, rev, p string) (*repos.TreeEntry, error) {
	r, err := s.get(ctx, id)
	if err != nil {
		return nil, err
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	h, err := r.resolve(rev)
	if err != nil {
		return nil, err
	}
	c, err := object.GetCommit(r.st, h)
	if err != nil {
		return nil, err
	}
	p = strings.Trim(p, "/")
	if p == "" {
		return &repos.TreeEntry{Mode: "040000", Type: "tree", ID: c.TreeHash.String()}, nil
	}
	root, err := c.Tree()
	if err != nil {
		return nil, err
	}
	e, err := root.FindEntry(p)
	if err != nil {
		return nil, forge.Errorf(forge.ErrNotFound, "object does not exist [id: %s, rel_path: %s]", rev, p)
	}
	dir := path.Dir(p)
	if dir == "." {
		dir = ""
	}
	out := r.entry(dir, *e)
	return &out, nil
}

// Object returns the type and size of an object by full id.
func (s *Store) Object(ctx context.Context, id forge.ID, oid string) (string, int64, error) {
	r, err := s.get(ctx, id)
	if err != nil {
		return "", 0, err
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	obj, err := r.object(oid)
	if err != nil {
		return "", 0, err
	}
	return obj.Type().String(), obj.Size(), nil
}

// typed returns the object oid of repository id if it has type typ
// (described as what in the error); forge.ErrNotFound otherwise.
func (s *Store) typed(ctx context.Context, id forge.ID, oid string, typ plumbing.ObjectType, what string) (plumbing.EncodedObject, error) {
	r, err := s.get(ctx, id)
	if err != nil {
		return nil, err
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	obj, err := r.object(oid)
	if err != nil {
		return nil, err
	}
	if obj.Type() != typ {
		return nil, forge.Errorf(forge.ErrNotFound, "object is not %s [id: %s]", what, oid)
	}
	return obj, nil
}

func (r *repo) object(oid string) (plumbing.EncodedObject, error) {
	if isFullID(oid) {
		if obj, err := r.st.EncodedObject(plumbing.AnyObject, plumbing.NewHash(oid)); err == nil {
			return obj, nil
		}
	}
	return nil, forge.Errorf(forge.ErrNotFound, "object does not exist [id: %s]", oid)
}

// Blob returns the content of a blob by id; forge.ErrNotFound if oid is not
// a blob.
func (s *Store) Blob(ctx context.Context, id forge.ID, oid string) ([]byte, error) {
	rd, _, err := s.OpenBlob(ctx, id, oid)
	if err != nil {
		return nil, err
	}
	defer rd.Close()
	return io.ReadAll(rd)
}

// OpenBlob returns a reader of a blob by id and its size; forge.ErrNotFound
// if oid is not a blob. The content already lives in memory: the reader
// reads the stored object (objects are immutable), it copies nothing.
func (s *Store) OpenBlob(ctx context.Context, id forge.ID, oid string) (io.ReadCloser, int64, error) {
	obj, err := s.typed(ctx, id, oid, plumbing.BlobObject, "a blob")
	if err != nil {
		return nil, 0, err
	}
	rd, err := obj.Reader()
	if err != nil {
		return nil, 0, err
	}
	return rd, obj.Size(), nil
}

func readAll(obj plumbing.EncodedObject) ([]byte, error) {
	rd, err := obj.Reader()
	if err != nil {
		return nil, err
	}
	defer rd.Close()
	return io.ReadAll(rd)
}

// Tag reads an annotated tag object; forge.ErrNotFound if oid is not one.
func (s *Store) Tag(ctx context.Context, id forge.ID, oid string) (*repos.AnnotatedTag, error) {
	r, err := s.get(ctx, id)
	if err != nil {
		return nil, err
	}
	obj, err := s.typed(ctx, id, oid, plumbing.TagObject, "an annotated tag")
	if err != nil {
		return nil, err
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	t, err := object.DecodeTag(r.st, obj)
	if err != nil {
		return nil, err
	}
	return &repos.AnnotatedTag{ID: oid, Name: t.Name, Object: t.Target.String(), ObjectType: t.TargetType.String(),
		Tagger: signature(t.Tagger), Message: repos.StripTagSignature(t.Message + t.PGPSignature)}, nil
}

// Messages returns the messages of the commits and annotated tags among
// ids (see repos.MessageReader): a tag's without its signature.
func (s *Store) Messages(ctx context.Context, id forge.ID, ids []string) (map[string]string, error) {
	r, err := s.get(ctx, id)
	if err != nil {
		return nil, err
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make(map[string]string, len(ids))
	for _, oid := range ids {
		obj, err := r.object(oid)
		if err != nil {
			continue
		}
		switch obj.Type() {
		case plumbing.TagObject:
			t, err := object.DecodeTag(r.st, obj)
			if err != nil {
				return nil, err
			}
			out[oid] = repos.StripTagSignature(t.Message + t.PGPSignature)
		case plumbing.CommitObject:
			c, err := object.DecodeCommit(r.st, obj)
			if err != nil {
				return nil, err
			}
			out[oid] = c.Message
		}
	}
	return out, nil
}

// Messages is read from memory in one pass.
var _ repos.MessageReader = (*Store)(nil)
