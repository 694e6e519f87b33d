package memgit

import (
	"context"
	"errors"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

// Apply commits c and moves its branch (or creates c.NewBranch). Writes to
// one repository are serialised (r.wmu, held while reads go on); when the
// branch moved since c.Parent, every file's precondition is checked again
// on the new tip with repos.CheckFileOp and the change is committed there,
// as gitstore does: independent writes all succeed, a dependent one fails
// with CheckFileOp's error. forge.ErrNotFound for a missing branch,
// forge.ErrInvalid for a path repos.CleanTreePath does not accept as it is,
// an unknown operation or a bad signature, forge.ErrConflict if NewBranch
// exists. A failed Apply changes no ref.
func (s *Store) Apply(ctx context.Context, id forge.ID, c repos.ChangeSet) (*repos.Commit, error) {
	r, err := s.get(ctx, id)
	if err != nil {
		return nil, err
	}
	target := c.Branch
	if c.NewBranch != "" {
		target = c.NewBranch
	}
	if target == "" || !validRefName("refs/heads/"+target) {
		return nil, forge.Errorf(forge.ErrInvalid, "invalid branch name %q", target)
	}
	ops, err := cleanOps(c.Files)
	if err != nil {
		return nil, err
	}
	if err := repos.CheckSignature("author", c.Author); err != nil {
		return nil, err
	}
	if err := repos.CheckSignature("committer", c.Committer); err != nil {
		return nil, err
	}
	if strings.ContainsRune(c.Message, 0) {
		return nil, forge.Errorf(forge.ErrInvalid, "commit message contains a NUL byte")
	}
	r.wmu.Lock()
	defer r.wmu.Unlock()
	const attempts = 4
	for attempt := 1; ; attempt++ {
		head := ""
		if c.Branch != "" {
			r.mu.RLock()
			ref, err := r.st.Reference(plumbing.NewBranchReferenceName(c.Branch))
			r.mu.RUnlock()
			if err != nil {
				return nil, forge.Errorf(forge.ErrNotFound, "branch does not exist [name: %s]", c.Branch)
			}
			head = ref.Hash().String()
			if c.Parent != "" && c.Parent != head {
				// CheckFileOp reads through s (r.mu.RLock): r.mu is not held.
				for _, f := range c.Files {
					if err := repos.CheckFileOp(ctx, s, id, head, f); err != nil {
						return nil, err
					}
				}
			}
		}
		r.mu.Lock()
		commit, err := r.apply(head, c, ops)
		r.mu.Unlock()
		if errors.Is(err, forge.ErrConflict) && c.NewBranch == "" && attempt < attempts {
			// SetRef moved the branch between the read of head and the
			// commit: check again on its new tip.
			continue
		}
		return commit, err
	}
}

// apply commits ops on head ("" for a root commit) and moves the target
// branch from head (or creates NewBranch), with r.mu held.
func (r *repo) apply(head string, c repos.ChangeSet, ops []repos.FileOp) (*repos.Commit, error) {
	files := map[string]object.TreeEntry{}
	var parents []plumbing.Hash
	oldID := head
	if head != "" {
		pc, err := object.GetCommit(r.st, plumbing.NewHash(head))
		if err != nil {
			return nil, err
		}
		if err := r.flatten(pc.TreeHash, "", files); err != nil {
			return nil, err
		}
		parents = []plumbing.Hash{pc.Hash}
	}
	target := c.Branch
	if c.NewBranch != "" {
		target, oldID = c.NewBranch, ""
		if _, err := r.st.Reference(plumbing.NewBranchReferenceName(c.NewBranch)); err == nil {
			return nil, forge.Errorf(forge.ErrConflict, "branch already exists [name: %s]", c.NewBranch)
		}
	}
	for _, op := range ops {
		switch op.Op {
		case "delete":
			delete(files, op.Path)
		default:
			if op.FromPath != "" {
				delete(files, op.FromPath)
			}
			h, err := r.write(plumbing.BlobObject, func(o plumbing.EncodedObject) error {
				w, err := o.Writer()
				if err != nil {
					return err
				}
				if _, err := w.Write(op.Content); err != nil {
					return err
				}
				return w.Close()
			})
			if err != nil {
				return nil, err
			}
			files[op.Path] = object.TreeEntry{Name: path.Base(op.Path), Mode: filemode.Regular, Hash: h}
		}
	}
	root, err := buildTree(files)
	if err != nil {
		return nil, err
	}
	tree, err := r.writeTree(root)
	if err != nil {
		return nil, err
	}
	commit := &object.Commit{Author: gitSignature(c.Author), Committer: gitSignature(c.Committer), Message: c.Message,
		TreeHash: tree, ParentHashes: parents}
	h, err := r.write(plumbing.CommitObject, commit.Encode)
	if err != nil {
		return nil, err
	}
	if err := r.setRef(plumbing.NewBranchReferenceName(target), h.String(), oldID); err != nil {
		return nil, err
	}
	stored, err := object.GetCommit(r.st, h)
	if err != nil {
		return nil, err
	}
	return r.commit(stored, true)
}

// cleanOps checks every operation before anything is written: its paths
// must be ones repos.CleanTreePath accepts as they are (as gitstore
// demands), its operation known. A move onto its own path is an update.
func cleanOps(in []repos.FileOp) ([]repos.FileOp, error) {
	out := make([]repos.FileOp, 0, len(in))
	for _, f := range in {
		if err := repos.CheckCleanPath(f.Path); err != nil {
			return nil, err
		}
		if f.FromPath != "" {
			if err := repos.CheckCleanPath(f.FromPath); err != nil {
				return nil, err
			}
		}
		switch f.Op {
		case "delete":
		case "create", "update":
			if f.FromPath == f.Path {
				f.FromPath = ""
			}
		default:
			return nil, forge.Errorf(forge.ErrInvalid, "unknown file operation %q", f.Op)
		}
		out = append(out, f)
	}
	return out, nil
}

func gitSignature(s repos.Signature) object.Signature {
	return object.Signature{Name: s.Name, Email: s.Email, When: s.When.UTC().Truncate(time.Second)}
}

// write stores an object of type typ that encode fills in.
func (r *repo) write(typ plumbing.ObjectType, encode func(plumbing.EncodedObject) error) (plumbing.Hash, error) {
	o := r.st.NewEncodedObject()
	o.SetType(typ)
	if err := encode(o); err != nil {
		return plumbing.ZeroHash, err
	}
	return r.st.SetEncodedObject(o)
}

// flatten adds every non-tree entry under tree h to files, by full path.
func (r *repo) flatten(h plumbing.Hash, dir string, files map[string]object.TreeEntry) error {
	t, err := object.GetTree(r.st, h)
	if err != nil {
		return err
	}
	for _, e := range t.Entries {
		p := path.Join(dir, e.Name)
		if e.Mode == filemode.Dir {
			if err := r.flatten(e.Hash, p, files); err != nil {
				return err
			}
			continue
		}
		files[p] = e
	}
	return nil
}

// dirNode is a directory of the tree being built.
type dirNode struct {
	files map[string]object.TreeEntry
	dirs  map[string]*dirNode
}

func newDir() *dirNode {
	return &dirNode{files: map[string]object.TreeEntry{}, dirs: map[string]*dirNode{}}
}

// buildTree arranges files by directory; forge.ErrInvalid where a file and a
// directory would share a path.
func buildTree(files map[string]object.TreeEntry) (*dirNode, error) {
	root := newDir()
	for p, e := range files {
		parts := strings.Split(p, "/")
		d := root
		for _, part := range parts[:len(parts)-1] {
			if _, ok := d.files[part]; ok {
				return nil, forge.Errorf(forge.ErrInvalid, "file path %q is inside a file", p)
			}
			next, ok := d.dirs[part]
			if !ok {
				next = newDir()
				d.dirs[part] = next
			}
			d = next
		}
		name := parts[len(parts)-1]
		if _, ok := d.dirs[name]; ok {
			return nil, forge.Errorf(forge.ErrInvalid, "file path %q is a directory", p)
		}
		d.files[name] = e
	}
	return root, nil
}

// writeTree stores d and its subdirectories, entries in git's order (a
// directory sorts as its name followed by "/").
func (r *repo) writeTree(d *dirNode) (plumbing.Hash, error) {
	var entries []object.TreeEntry
	for name, e := range d.files {
		e.Name = name
		entries = append(entries, e)
	}
	for name, sub := range d.dirs {
		h, err := r.writeTree(sub)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		entries = append(entries, object.TreeEntry{Name: name, Mode: filemode.Dir, Hash: h})
	}
	key := func(e object.TreeEntry) string {
		if e.Mode == filemode.Dir {
			return e.Name + "/"
		}
		return e.Name
	}
	sort.Slice(entries, func(i, j int) bool { return key(entries[i]) < key(entries[j]) })
	t := &object.Tree{Entries: entries}
	return r.write(plumbing.TreeObject, t.Encode)
}

// CreateTag makes refs/tags/name point at the commit target names: an
// annotated tag when message is not empty, a lightweight one otherwise.
// The message gets git's default cleanup (stripspace), as git tag -a -m.
// forge.ErrNotFound for a missing target, forge.ErrInvalid for a bad name,
// forge.ErrConflict if the tag exists.
func (s *Store) CreateTag(ctx context.Context, id forge.ID, name, target, message string, tagger repos.Signature) error {
	r, err := s.get(ctx, id)
	if err != nil {
		return err
	}
	ref := plumbing.NewTagReferenceName(name)
	r.mu.Lock()
	defer r.mu.Unlock()
	h, err := r.resolve(target)
	if err != nil {
		return err
	}
	if !validRefName(ref.String()) {
		return forge.Errorf(forge.ErrInvalid, "invalid tag name %q", name)
	}
	if _, err := r.st.Reference(ref); err == nil {
		return forge.Errorf(forge.ErrConflict, "tag already exists [name: %s]", name)
	}
	if message != "" {
		tag := &object.Tag{Name: name, Tagger: gitSignature(tagger), Message: stripspace(message),
			TargetType: plumbing.CommitObject, Target: h}
		if h, err = r.write(plumbing.TagObject, tag.Encode); err != nil {
			return err
		}
	}
	return r.setRef(ref, h.String(), "")
}
