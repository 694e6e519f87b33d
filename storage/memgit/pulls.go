package memgit

import (
	"bytes"
	"context"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/storage/memory"
	"github.com/go-git/go-git/v5/utils/merkletrie"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/issues"
)

// The git operations of pull requests (issues.PullGit), in memory. They
// pass the storage/gittest RunPulls suite; where they differ from
// storage/gitstore (git's merge-tree and rebase):
//
//   - Merges are made per path, not per line: a path whose entry (content
//     and mode) changed on both sides, differently, is a conflict, even
//     when git would merge the two changes of one file. Renames are not
//     followed (a file renamed on one side and changed on the other is a
//     conflict or a deleted plus an added file); a file where the other
//     side needs a directory is a conflict.
//   - The merge base is go-git's (the first of the best common ancestors).
//   - Rebase replays the commits reachable from head and not from the base,
//     no merges, parents first, each a path-level three-way merge against
//     its first parent: a commit whose change the base already has becomes
//     empty and is dropped (git leaves out such a commit by its patch id,
//     with the same result); a commit empty from the start is kept.
//   - DiffFiles detects renames with go-git's rename detection (git's
//     default similarity, 50%), whose pairing may differ from git's on
//     unusual input.
//   - Diff "diff" (and "binary", the same) is go-git's unified diff of the
//     two trees in git's format; "patch" is Patch's "patch" of each commit
//     of base..head, oldest first, each "[PATCH]" (git numbers them "[PATCH
//     n/m]").

var _ issues.PullGit = (*Store)(nil)

// commitByID returns the commit a full id names; forge.ErrNotFound
// otherwise. r.mu must be held.
func (r *repo) commitByID(rev string) (*object.Commit, error) {
	h, err := r.resolve(rev)
	if err != nil {
		return nil, err
	}
	return object.GetCommit(r.st, h)
}

// SyncHead points ref (under refs/pull/) of repository base at the tip of
// branch in head, copying the objects it reaches when head is another
// repository.
func (s *Store) SyncHead(ctx context.Context, base, head forge.ID, branch, ref string) (string, error) {
	if !strings.HasPrefix(ref, "refs/pull/") || !validRefName(ref) {
		return "", forge.Errorf(forge.ErrInvalid, "invalid pull request reference name %q", ref)
	}
	if !validRefName("refs/heads/" + branch) {
		return "", forge.Errorf(forge.ErrInvalid, "invalid branch name %q", branch)
	}
	dst, err := s.get(ctx, base)
	if err != nil {
		return "", err
	}
	src, err := s.get(ctx, head)
	if err != nil {
		return "", err
	}
	src.mu.RLock()
	tip, err := src.st.Reference(plumbing.NewBranchReferenceName(branch))
	src.mu.RUnlock()
	if err != nil {
		return "", forge.Errorf(forge.ErrNotFound, "branch does not exist [name: %s]", branch)
	}
	dst.wmu.Lock()
	defer dst.wmu.Unlock()
	if src != dst {
		if err := copyReachable(src, dst, tip.Hash()); err != nil {
			return "", err
		}
	}
	dst.mu.Lock()
	defer dst.mu.Unlock()
	return tip.Hash().String(), dst.setRef(plumbing.ReferenceName(ref), tip.Hash().String(), "*")
}

// copyReachable copies commit h and every object it reaches from src to
// dst: read under src's lock, then written under dst's, never both held at
// once (two copies in opposite directions cannot deadlock). The whole
// history is read: this is the in-memory backend of tests.
func copyReachable(src, dst *repo, h plumbing.Hash) error {
	var objs []plumbing.EncodedObject
	src.mu.RLock()
	seen := map[plumbing.Hash]bool{}
	var visit func(h plumbing.Hash) error
	visit = func(h plumbing.Hash) error {
		if seen[h] {
			return nil
		}
		seen[h] = true
		obj, err := src.st.EncodedObject(plumbing.AnyObject, h)
		if err != nil {
			return forge.Errorf(forge.ErrNotFound, "object does not exist [id: %s]", h)
		}
		objs = append(objs, obj)
		switch obj.Type() {
		case plumbing.CommitObject:
			c, err := object.DecodeCommit(src.st, obj)
			if err != nil {
				return err
			}
			if err := visit(c.TreeHash); err != nil {
				return err
			}
			for _, p := range c.ParentHashes {
				if err := visit(p); err != nil {
					return err
				}
			}
		case plumbing.TreeObject:
			t, err := object.DecodeTree(src.st, obj)
			if err != nil {
				return err
			}
			for _, e := range t.Entries {
				if e.Mode != filemode.Submodule {
					if err := visit(e.Hash); err != nil {
						return err
					}
				}
			}
		}
		return nil
	}
	err := visit(h)
	src.mu.RUnlock()
	if err != nil {
		return err
	}
	dst.mu.Lock()
	defer dst.mu.Unlock()
	for _, o := range objs {
		if dst.st.HasEncodedObject(o.Hash()) == nil {
			continue
		}
		if _, err := dst.st.SetEncodedObject(o); err != nil { // objects are immutable: sharing is safe
			return err
		}
	}
	return nil
}

// MergeBase returns go-git's best common ancestor of a and b.
func (s *Store) MergeBase(ctx context.Context, id forge.ID, a, b string) (string, error) {
	r, err := s.get(ctx, id)
	if err != nil {
		return "", err
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	ca, err := r.commitByID(a)
	if err != nil {
		return "", err
	}
	cb, err := r.commitByID(b)
	if err != nil {
		return "", err
	}
	mb, err := mergeBase(ca, cb)
	if err != nil {
		return "", err
	}
	return mb.Hash.String(), nil
}

func mergeBase(a, b *object.Commit) (*object.Commit, error) {
	bases, err := a.MergeBase(b)
	if err != nil {
		return nil, err
	}
	if len(bases) == 0 {
		return nil, forge.Errorf(forge.ErrNotFound, "no merge base found [a: %s, b: %s]", a.Hash, b.Hash)
	}
	return bases[0], nil
}

// IsAncestor reports whether a is reachable from b.
func (s *Store) IsAncestor(ctx context.Context, id forge.ID, a, b string) (bool, error) {
	r, err := s.get(ctx, id)
	if err != nil {
		return false, err
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	ca, err := r.commitByID(a)
	if err != nil {
		return false, err
	}
	cb, err := r.commitByID(b)
	if err != nil {
		return false, err
	}
	return ca.IsAncestor(cb)
}

// reachable is the set of commits reachable from h.
func (r *repo) reachable(h plumbing.Hash) (map[plumbing.Hash]bool, error) {
	set := map[plumbing.Hash]bool{}
	stack := []plumbing.Hash{h}
	for len(stack) > 0 {
		h := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if set[h] {
			continue
		}
		set[h] = true
		c, err := object.GetCommit(r.st, h)
		if err != nil {
			return nil, err
		}
		stack = append(stack, c.ParentHashes...)
	}
	return set, nil
}

// Compare lists the commits reachable from head and not from base in Log's
// order (newest committer time first), paged, with their total.
func (s *Store) Compare(ctx context.Context, id forge.ID, base, head string, o repos.LogOptions) ([]*repos.Commit, int, error) {
	r, err := s.get(ctx, id)
	if err != nil {
		return nil, 0, err
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	cb, err := r.commitByID(base)
	if err != nil {
		return nil, 0, err
	}
	ch, err := r.commitByID(head)
	if err != nil {
		return nil, 0, err
	}
	exclude, err := r.reachable(cb.Hash)
	if err != nil {
		return nil, 0, err
	}
	out := []*repos.Commit{}
	total := 0
	err = r.walk(ch.Hash, "", func(c *object.Commit) (bool, error) {
		if exclude[c.Hash] {
			return true, nil
		}
		total++
		if total <= o.Skip || (o.Limit > 0 && len(out) >= o.Limit) {
			return true, nil
		}
		rc, err := r.commit(c, o.Files)
		if err != nil {
			return false, err
		}
		out = append(out, rc)
		return true, nil
	})
	return out, total, err
}

// DiffFiles lists the files changed from base's tree to head's, renames
// detected, with Forgejo's ChangedFile statuses, in path order.
func (s *Store) DiffFiles(ctx context.Context, id forge.ID, base, head string) ([]repos.FileChangeStat, error) {
	r, err := s.get(ctx, id)
	if err != nil {
		return nil, err
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	changes, err := r.treeChanges(base, head, true)
	if err != nil {
		return nil, err
	}
	out := []repos.FileChangeStat{}
	for _, ch := range changes {
		st, err := r.fileStats(object.Changes{ch})
		if err != nil {
			return nil, err
		}
		f := st[0].FileChangeStat
		action, err := ch.Action()
		if err != nil {
			return nil, err
		}
		switch {
		case action == merkletrie.Insert:
			f.Status = "added"
		case action == merkletrie.Delete:
			f.Status = "deleted"
		case ch.From.Name != ch.To.Name:
			f.Filename, f.PreviousFilename, f.Status = ch.To.Name, ch.From.Name, "renamed"
		case f.Additions == 0 && f.Deletions == 0:
			f.Status = "unchanged"
		default:
			f.Status = "changed"
		}
		out = append(out, f)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Filename < out[j].Filename })
	return out, nil
}

// treeChanges diffs the trees of commits base and head.
func (r *repo) treeChanges(base, head string, renames bool) (object.Changes, error) {
	cb, err := r.commitByID(base)
	if err != nil {
		return nil, err
	}
	ch, err := r.commitByID(head)
	if err != nil {
		return nil, err
	}
	from, err := cb.Tree()
	if err != nil {
		return nil, err
	}
	to, err := ch.Tree()
	if err != nil {
		return nil, err
	}
	return object.DiffTreeWithOptions(context.Background(), from, to, &object.DiffTreeOptions{DetectRenames: renames,
		RenameScore: 50, RenameLimit: 1000})
}

// Diff writes the change from base to head: "diff" and "binary" as one
// unified diff of the two trees, "patch" as the patch of each commit of
// base..head, oldest first.
func (s *Store) Diff(ctx context.Context, id forge.ID, base, head, kind string, w io.Writer) error {
	if kind != "diff" && kind != "binary" && kind != "patch" {
		return forge.Errorf(forge.ErrInvalid, "unknown diff type %q", kind)
	}
	r, err := s.get(ctx, id)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	r.mu.RLock()
	err = r.diff(base, head, kind, &buf)
	r.mu.RUnlock()
	if err != nil {
		return err
	}
	_, err = w.Write(buf.Bytes())
	return err
}

func (r *repo) diff(base, head, kind string, w *bytes.Buffer) error {
	if kind != "patch" {
		changes, err := r.treeChanges(base, head, false)
		if err != nil {
			return err
		}
		p, err := changes.Patch()
		if err != nil {
			return err
		}
		var diff bytes.Buffer
		if err := p.Encode(&diff); err != nil {
			return err
		}
		w.Write(abbreviateIndex(diff.Bytes()))
		return nil
	}
	cb, err := r.commitByID(base)
	if err != nil {
		return err
	}
	ch, err := r.commitByID(head)
	if err != nil {
		return err
	}
	exclude, err := r.reachable(cb.Hash)
	if err != nil {
		return err
	}
	var list []plumbing.Hash
	err = r.walk(ch.Hash, "", func(c *object.Commit) (bool, error) {
		if !exclude[c.Hash] && len(c.ParentHashes) < 2 {
			list = append(list, c.Hash)
		}
		return true, nil
	})
	if err != nil {
		return err
	}
	for _, h := range slices.Backward(list) {
		if err := r.patch(h.String(), "patch", w); err != nil {
			return err
		}
	}
	return nil
}

// ContentChanged is issues.PullGit's: a path whose entry in newHead
// differs from its entry in oldHead and in the merge base of base and
// newHead (git's combined diff of newHead against both) means a change.
func (s *Store) ContentChanged(ctx context.Context, id forge.ID, base, oldHead, newHead string) (bool, error) {
	r, err := s.get(ctx, id)
	if err != nil {
		return false, err
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	cb, err := r.commitByID(base)
	if err != nil {
		return false, err
	}
	co, err := r.commitByID(oldHead)
	if err != nil {
		return false, err
	}
	cn, err := r.commitByID(newHead)
	if err != nil {
		return false, err
	}
	mb, err := mergeBase(cb, cn)
	if err != nil {
		return false, err
	}
	var fs [3]files
	for i, c := range []*object.Commit{cn, co, mb} {
		if fs[i], err = r.filesOf(c); err != nil {
			return false, err
		}
	}
	differs := func(a, b files, p string) bool {
		x, okx := a[p]
		y, oky := b[p]
		return okx != oky || x.Hash != y.Hash || x.Mode != y.Mode
	}
	paths := map[string]bool{}
	for _, f := range fs {
		for p := range f {
			paths[p] = true
		}
	}
	for p := range paths {
		if differs(fs[0], fs[1], p) && differs(fs[0], fs[2], p) {
			return true, nil
		}
	}
	return false, nil
}

// files is a flattened tree: full path → entry.
type files map[string]object.TreeEntry

func (r *repo) filesOf(c *object.Commit) (files, error) {
	f := files{}
	return f, r.flatten(c.TreeHash, "", f)
}

// merge3 merges ours and theirs per path against base: a path changed on
// one side takes that side's entry, one changed on both sides differently
// is a conflict.
func merge3(base, ours, theirs files) (files, []string) {
	out := files{}
	var conflicts []string
	paths := map[string]bool{}
	for _, m := range []files{base, ours, theirs} {
		for p := range m {
			paths[p] = true
		}
	}
	same := func(a, b object.TreeEntry, okA, okB bool) bool {
		return okA == okB && (!okA || (a.Hash == b.Hash && a.Mode == b.Mode))
	}
	for p := range paths {
		b, okB := base[p]
		o, okO := ours[p]
		t, okT := theirs[p]
		switch {
		case same(o, t, okO, okT), same(b, t, okB, okT):
			if okO {
				out[p] = o
			}
		case same(b, o, okB, okO):
			if okT {
				out[p] = t
			}
		default:
			conflicts = append(conflicts, p)
		}
	}
	sort.Strings(conflicts)
	return out, conflicts
}

func sameFiles(a, b files) bool {
	if len(a) != len(b) {
		return false
	}
	for p, e := range a {
		if f, ok := b[p]; !ok || f.Hash != e.Hash || f.Mode != e.Mode {
			return false
		}
	}
	return true
}

// treeID computes the id of the tree of fs, writing its trees to st; the
// conflicting paths instead when a file of fs is where another one needs a
// directory.
func treeID(st *memory.Storage, fs files) (plumbing.Hash, []string, error) {
	var clashes []string
	for p := range fs {
		for i := strings.IndexByte(p, '/'); i >= 0; i = next(p, i) {
			if _, ok := fs[p[:i]]; ok && !slices.Contains(clashes, p[:i]) {
				clashes = append(clashes, p[:i])
			}
		}
	}
	if len(clashes) > 0 {
		sort.Strings(clashes)
		return plumbing.ZeroHash, clashes, nil
	}
	root, err := buildTree(fs)
	if err != nil {
		return plumbing.ZeroHash, nil, err
	}
	h, err := (&repo{st: st}).writeTree(root)
	return h, nil, err
}

// next is the index of the next "/" of p after i, or -1.
func next(p string, i int) int {
	j := strings.IndexByte(p[i+1:], '/')
	if j < 0 {
		return -1
	}
	return i + 1 + j
}

// conflict is the error of a merge that conflicts.
func conflict(paths []string) error {
	return forge.Errorf(forge.ErrConflict, "%w", &issues.MergeConflict{Paths: paths})
}

// TestMerge merges head into base per path and reports the conflicting
// paths, or the id of the merged tree (computed in a scratch storage: the
// repository gains no object).
func (s *Store) TestMerge(ctx context.Context, id forge.ID, base, head string) (*issues.MergeCheck, error) {
	r, err := s.get(ctx, id)
	if err != nil {
		return nil, err
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	cb, err := r.commitByID(base)
	if err != nil {
		return nil, err
	}
	ch, err := r.commitByID(head)
	if err != nil {
		return nil, err
	}
	merged, conflicts, err := r.mergeCommits(cb, ch)
	if err != nil {
		return nil, err
	}
	if len(conflicts) > 0 {
		return &issues.MergeCheck{Conflicts: conflicts}, nil
	}
	tree, conflicts, err := treeID(memory.NewStorage(), merged)
	if err != nil {
		return nil, err
	}
	if len(conflicts) > 0 {
		return &issues.MergeCheck{Conflicts: conflicts}, nil
	}
	return &issues.MergeCheck{Tree: tree.String()}, nil
}

// mergeCommits is the path-level merge of ours and theirs against their
// merge base.
func (r *repo) mergeCommits(ours, theirs *object.Commit) (files, []string, error) {
	mb, err := mergeBase(ours, theirs)
	if err != nil {
		return nil, nil, forge.Errorf(forge.ErrInvalid, "refusing to merge unrelated histories")
	}
	var fs [3]files
	for i, c := range []*object.Commit{mb, ours, theirs} {
		if fs[i], err = r.filesOf(c); err != nil {
			return nil, nil, err
		}
	}
	merged, conflicts := merge3(fs[0], fs[1], fs[2])
	return merged, conflicts, nil
}

// Merge makes the commits of m.Style and moves refs/heads/{m.Branch} with a
// compare-and-swap, as gitstore's Merge; every conflict is found before a
// new object is written (a commit copied from m.Source may be).
func (s *Store) Merge(ctx context.Context, id forge.ID, m issues.MergeCommand) (string, error) {
	switch m.Style {
	case issues.MergeStyleManuallyMerged:
		return m.Head, nil
	case issues.MergeStyleMerge, issues.MergeStyleRebase, issues.MergeStyleRebaseMerge, issues.MergeStyleSquash,
		issues.MergeStyleFastForwardOnly, issues.MergeStyleRebaseUpdate:
	default:
		return "", forge.Errorf(forge.ErrInvalid, "unknown merge style %q", m.Style)
	}
	ref := plumbing.NewBranchReferenceName(m.Branch)
	if !validRefName(ref.String()) {
		return "", forge.Errorf(forge.ErrInvalid, "invalid branch name %q", m.Branch)
	}
	if err := repos.CheckSignature("author", m.Author); err != nil {
		return "", err
	}
	if err := repos.CheckSignature("committer", m.Committer); err != nil {
		return "", err
	}
	if strings.ContainsRune(m.Message, 0) {
		return "", forge.Errorf(forge.ErrInvalid, "commit message contains a NUL byte")
	}
	if !isHex(m.Base) || !isHex(m.Head) {
		return "", forge.Errorf(forge.ErrInvalid, "merge needs commit ids [base: %s, head: %s]", m.Base, m.Head)
	}
	r, err := s.get(ctx, id)
	if err != nil {
		return "", err
	}
	r.wmu.Lock()
	defer r.wmu.Unlock()
	if m.Source != 0 && m.Source != id {
		// A commit r lacks comes from m.Source.
		for _, rev := range []string{m.Base, m.Head} {
			r.mu.RLock()
			_, err := r.resolve(rev)
			r.mu.RUnlock()
			if err == nil {
				continue
			}
			src, err := s.get(ctx, m.Source)
			if err != nil {
				return "", err
			}
			src.mu.RLock()
			h, err := src.resolve(rev)
			src.mu.RUnlock()
			if err != nil {
				return "", err
			}
			if err := copyReachable(src, r, h); err != nil {
				return "", err
			}
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	base, err := r.commitByID(m.Base)
	if err != nil {
		return "", err
	}
	head, err := r.commitByID(m.Head)
	if err != nil {
		return "", err
	}
	old := base.Hash
	if m.Style == issues.MergeStyleRebaseUpdate {
		old = head.Hash
	}
	if cur, err := r.st.Reference(ref); err != nil || cur.Hash() != old {
		return "", forge.Errorf(forge.ErrConflict, "branch %s has moved [expected: %s]", m.Branch, old)
	}
	w := &memMerger{r: r, m: m}
	tip, err := w.make(base, head)
	if err != nil {
		return "", err
	}
	if tip != old {
		if err := r.setRef(ref, tip.String(), old.String()); err != nil {
			return "", err
		}
	}
	return tip.String(), nil
}

// memMerger makes the commits of one Merge, with r.mu held.
type memMerger struct {
	r *repo
	m issues.MergeCommand
}

func (w *memMerger) make(base, head *object.Commit) (plumbing.Hash, error) {
	switch w.m.Style {
	case issues.MergeStyleFastForwardOnly:
		ok, err := base.IsAncestor(head)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		if ok {
			return head.Hash, nil
		}
		if in, err := head.IsAncestor(base); err == nil && in {
			return base.Hash, nil
		}
		return plumbing.ZeroHash, forge.Errorf(forge.ErrInvalid, "fast-forward only merge is not possible: the branches have diverged")
	case issues.MergeStyleMerge, issues.MergeStyleSquash:
		merged, conflicts, err := w.r.mergeCommits(base, head)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		if len(conflicts) > 0 {
			return plumbing.ZeroHash, conflict(conflicts)
		}
		tree, conflicts, err := treeID(memory.NewStorage(), merged)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		if len(conflicts) > 0 {
			return plumbing.ZeroHash, conflict(conflicts)
		}
		if tree, _, err = treeID(w.r.st, merged); err != nil {
			return plumbing.ZeroHash, err
		}
		parents := []plumbing.Hash{base.Hash, head.Hash}
		if w.m.Style == issues.MergeStyleSquash {
			parents = parents[:1]
		}
		return w.commit(tree, parents, gitSignature(w.m.Author), w.m.Message)
	case issues.MergeStyleRebase, issues.MergeStyleRebaseUpdate:
		return w.rebase(base, head)
	case issues.MergeStyleRebaseMerge:
		tip, err := w.rebase(base, head)
		if err != nil || tip == base.Hash {
			return tip, err
		}
		c, err := object.GetCommit(w.r.st, tip)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		return w.commit(c.TreeHash, []plumbing.Hash{base.Hash, tip}, gitSignature(w.m.Author), w.m.Message)
	}
	return plumbing.ZeroHash, forge.Errorf(forge.ErrInvalid, "unknown merge style %q", w.m.Style)
}

func (w *memMerger) commit(tree plumbing.Hash, parents []plumbing.Hash, author object.Signature, message string) (plumbing.Hash, error) {
	c := &object.Commit{Author: author, Committer: gitSignature(w.m.Committer), Message: message, TreeHash: tree,
		ParentHashes: parents}
	return w.r.write(plumbing.CommitObject, c.Encode)
}

// rebase replays onto onto the commits reachable from head and not from
// onto, no merges, parents first; head itself when onto is its ancestor.
// Every replay is merged in memory first: a conflict writes nothing.
func (w *memMerger) rebase(onto, head *object.Commit) (plumbing.Hash, error) {
	if ok, err := onto.IsAncestor(head); err != nil || ok {
		return head.Hash, err
	}
	if _, err := mergeBase(onto, head); err != nil {
		return plumbing.ZeroHash, forge.Errorf(forge.ErrInvalid, "refusing to rebase unrelated histories")
	}
	exclude, err := w.r.reachable(onto.Hash)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	// Parents before children: a depth-first walk, each commit after its
	// parents.
	var order []*object.Commit
	seen := map[plumbing.Hash]bool{}
	var visit func(c *object.Commit) error
	visit = func(c *object.Commit) error {
		if seen[c.Hash] || exclude[c.Hash] {
			return nil
		}
		seen[c.Hash] = true
		for _, ph := range c.ParentHashes {
			pc, err := object.GetCommit(w.r.st, ph)
			if err != nil {
				return err
			}
			if err := visit(pc); err != nil {
				return err
			}
		}
		if len(c.ParentHashes) == 1 {
			order = append(order, c)
		}
		return nil
	}
	if err := visit(head); err != nil {
		return plumbing.ZeroHash, err
	}
	type step struct {
		c  *object.Commit
		fs files
	}
	var steps []step
	tipFiles, err := w.r.filesOf(onto)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	for _, c := range order {
		parent, err := object.GetCommit(w.r.st, c.ParentHashes[0])
		if err != nil {
			return plumbing.ZeroHash, err
		}
		if parent.TreeHash == c.TreeHash { // empty from the start: kept
			steps = append(steps, step{c, tipFiles})
			continue
		}
		pf, err := w.r.filesOf(parent)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		cf, err := w.r.filesOf(c)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		merged, conflicts := merge3(pf, tipFiles, cf)
		if len(conflicts) > 0 {
			return plumbing.ZeroHash, conflict(conflicts)
		}
		if _, conflicts, err := treeID(memory.NewStorage(), merged); err != nil || len(conflicts) > 0 {
			if err == nil {
				err = conflict(conflicts)
			}
			return plumbing.ZeroHash, err
		}
		if sameFiles(merged, tipFiles) {
			continue // became empty: dropped
		}
		steps = append(steps, step{c, merged})
		tipFiles = merged
	}
	tip := onto.Hash
	for _, st := range steps {
		tree, _, err := treeID(w.r.st, st.fs)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		if tip, err = w.commit(tree, []plumbing.Hash{tip}, st.c.Author, st.c.Message); err != nil {
			return plumbing.ZeroHash, err
		}
	}
	return tip, nil
}
