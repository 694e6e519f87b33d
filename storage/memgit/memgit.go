// Package memgit is an in-memory repos.Git for tests and embedders that do
// not want the git binary: repositories live in go-git's in-memory storage
// (github.com/go-git/go-git/v5/storage/memory) and vanish with the process.
// It never starts a process and passes the storage/gittest conformance
// suite.
//
// Differences from storage/gitstore, the git command line backend:
//
//   - SHA-1 only: go-git's in-memory storage holds SHA-1 objects, so Create
//     with forge.SHA256 fails with forge.ErrInvalid.
//   - Commits, trees and tags are byte-identical to git's for the same
//     input (same ids); annotated tag messages are cleaned up as git does
//     only for trailing white space (git's "strip" mode also drops "#"
//     comment lines).
//   - Log with a path keeps a commit when the path differs from every
//     parent (no history simplification beyond that); line counts come from
//     go-git's diff, which may split a change differently from git's on
//     unusual input, but counts added and removed lines the same way for
//     ordinary edits; binary files count 0/0 as with git.
//   - Patch "diff" is go-git's unified diff with git's seven-character
//     index ids; Patch "patch" adds format-patch's mail header, body,
//     diffstat (git's 72-column layout) and a "-- \nmemgit" signature
//     where git puts its version. For text changes both match git's output
//     byte for byte but for that signature (TestSamePatchesAsGit), and so
//     does the "diff" of binary files; the "patch" of a binary file says
//     "Binary files ... differ" where git writes a "GIT binary patch".
//     Neither detects renames (git diff-tree does not either;
//     format-patch would).
//   - Archive writes the entries git archive writes, in its order, with
//     its names, modes, owners, times and comment (the commit id)
//     (TestSameArchivesAsGit), but not its bytes: compression and header
//     encodings differ.
//   - Revisions: names, full and abbreviated ids and HEAD are resolved as
//     git does (refs/<rev>, refs/tags/<rev>, refs/heads/<rev>); other
//     revision syntax (main~1, v1^{commit}) goes through go-git's
//     ResolveRevision.
//   - LastCommits takes, for each name, the newest commit (in Log's order)
//     whose entry differs from every parent's; git log's history
//     simplification over merges is not reproduced (same answers for
//     linear histories).
//   - OpenBlob reads the stored object in place: the content is in memory
//     anyway, but it is not copied.
//   - Size is the sum of the objects' uncompressed sizes.
//
// A Store is safe for concurrent use: each repository has a read-write
// lock, and Apply, SetRef and CreateTag check and move refs under it.
// Apply calls on one repository are serialised; one whose branch moved
// since its parent re-checks its files with repos.CheckFileOp and commits
// on the new tip, as with gitstore.
package memgit

import (
	"context"
	"sort"
	"strings"
	"sync"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/storage/memory"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

// Store is a set of in-memory repositories. The zero value is not usable:
// call New.
type Store struct {
	mu    sync.Mutex
	repos map[forge.ID]*repo
}

var _ repos.Git = (*Store)(nil)

// New returns an empty Store.
func New() *Store { return &Store{repos: map[forge.ID]*repo{}} }

// repo is one repository; mu guards st (go-git's memory storage is not
// safe for concurrent writes); wmu serialises Apply calls, which read
// through the Store's locking methods while they hold it.
type repo struct {
	wmu sync.Mutex
	mu  sync.RWMutex
	st  *memory.Storage
}

// get returns the repository, forge.ErrNotFound if there is none, or the
// context's error if it is done.
func (s *Store) get(ctx context.Context, id forge.ID) (*repo, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.repos[id]
	if !ok {
		return nil, forge.Errorf(forge.ErrNotFound, "repository does not exist [id: %d]", id)
	}
	return r, nil
}

// Create initialises an empty repository whose HEAD names defaultBranch.
// forge.ErrInvalid for SHA-256 (unsupported) or an unknown format,
// forge.ErrConflict if the repository exists.
func (s *Store) Create(ctx context.Context, id forge.ID, format forge.ObjectFormat, defaultBranch string) error {
	if !format.Valid() {
		return forge.Errorf(forge.ErrInvalid, "invalid object format: %s", format)
	}
	if format != forge.SHA1 {
		return forge.Errorf(forge.ErrInvalid, "memgit supports only sha1 repositories, not %s: go-git's in-memory storage holds SHA-1 objects", format)
	}
	if !validRefName("refs/heads/" + defaultBranch) {
		return forge.Errorf(forge.ErrInvalid, "invalid default branch name %q", defaultBranch)
	}
	st := memory.NewStorage()
	if err := st.SetReference(plumbing.NewSymbolicReference(plumbing.HEAD, plumbing.NewBranchReferenceName(defaultBranch))); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.repos[id]; ok {
		return forge.Errorf(forge.ErrConflict, "repository files already exist [id: %d]", id)
	}
	s.repos[id] = &repo{st: st}
	return nil
}

// Fork creates repository to as a copy of every object, branch and tag of
// from. forge.ErrNotFound if from does not exist, forge.ErrConflict if to
// does.
func (s *Store) Fork(ctx context.Context, from, to forge.ID) error {
	src, err := s.get(ctx, from)
	if err != nil {
		return err
	}
	st := memory.NewStorage()
	src.mu.RLock()
	err = src.st.ForEachObjectHash(func(h plumbing.Hash) error {
		obj, err := src.st.EncodedObject(plumbing.AnyObject, h)
		if err != nil {
			return err
		}
		_, err = st.SetEncodedObject(obj) // objects are immutable: sharing them is safe
		return err
	})
	if err == nil {
		err = copyRefs(src.st, st)
	}
	src.mu.RUnlock()
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.repos[to]; ok {
		return forge.Errorf(forge.ErrConflict, "repository files already exist [id: %d]", to)
	}
	s.repos[to] = &repo{st: st}
	return nil
}

func copyRefs(from, to *memory.Storage) error {
	iter, err := from.IterReferences()
	if err != nil {
		return err
	}
	return iter.ForEach(func(ref *plumbing.Reference) error {
		name := ref.Name().String()
		if name == "HEAD" || strings.HasPrefix(name, "refs/heads/") || strings.HasPrefix(name, "refs/tags/") {
			return to.SetReference(ref)
		}
		return nil
	})
}

// Remove deletes the repository; removing a missing one is not an error.
func (s *Store) Remove(ctx context.Context, id forge.ID) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.repos, id)
	return nil
}

// Size is the total size of the repository's objects, in bytes.
func (s *Store) Size(ctx context.Context, id forge.ID) (int64, error) {
	r, err := s.get(ctx, id)
	if err != nil {
		return 0, err
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	var total int64
	err = r.st.ForEachObjectHash(func(h plumbing.Hash) error {
		n, err := r.st.EncodedObjectSize(h)
		total += n
		return err
	})
	return total, err
}

// Refs lists branches and tags, ordered by name.
func (s *Store) Refs(ctx context.Context, id forge.ID) ([]repos.Ref, error) {
	r, err := s.get(ctx, id)
	if err != nil {
		return nil, err
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	iter, err := r.st.IterReferences()
	if err != nil {
		return nil, err
	}
	refs := []repos.Ref{}
	err = iter.ForEach(func(ref *plumbing.Reference) error {
		name := ref.Name().String()
		if ref.Type() != plumbing.HashReference || !(strings.HasPrefix(name, "refs/heads/") || strings.HasPrefix(name, "refs/tags/")) {
			return nil
		}
		out := repos.Ref{Name: name, Target: ref.Hash().String(), Type: "commit", Commit: ref.Hash().String()}
		if t, err := object.GetTag(r.st, ref.Hash()); err == nil {
			out.Type = "tag"
			out.Commit = t.Target.String()
		}
		refs = append(refs, out)
		return nil
	})
	sort.Slice(refs, func(i, j int) bool { return refs[i].Name < refs[j].Name })
	return refs, err
}

// Resolve returns the commit id a revision names; forge.ErrNotFound if it
// names nothing or something that is not a commit (or a tag of one).
func (s *Store) Resolve(ctx context.Context, id forge.ID, rev string) (string, error) {
	r, err := s.get(ctx, id)
	if err != nil {
		return "", err
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	h, err := r.resolve(rev)
	if err != nil {
		return "", err
	}
	return h.String(), nil
}

// SetRef points ref at newID (deleting it when newID is ""), only if it
// still points at oldID ("" meaning it must not exist; "*" any value):
// forge.ErrConflict otherwise, forge.ErrInvalid for a bad name or id,
// forge.ErrNotFound for an id naming no object.
func (s *Store) SetRef(ctx context.Context, id forge.ID, ref, newID, oldID string) error {
	r, err := s.get(ctx, id)
	if err != nil {
		return err
	}
	if !validRefName(ref) {
		return forge.Errorf(forge.ErrInvalid, "invalid reference name %q", ref)
	}
	if newID != "" && !isFullID(newID) {
		return forge.Errorf(forge.ErrInvalid, "invalid object id %q", newID)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if newID != "" {
		if err := r.st.HasEncodedObject(plumbing.NewHash(newID)); err != nil {
			return forge.Errorf(forge.ErrNotFound, "object does not exist [id: %s]", newID)
		}
	}
	return r.setRef(plumbing.ReferenceName(ref), newID, oldID)
}

// setRef is SetRef with r.mu held and the arguments checked.
func (r *repo) setRef(name plumbing.ReferenceName, newID, oldID string) error {
	cur, err := r.st.Reference(name)
	exists := err == nil
	switch {
	case oldID == "*":
	case oldID == "" && exists:
		return forge.Errorf(forge.ErrConflict, "reference %s was not updated: it already exists", name)
	case oldID != "" && (!exists || cur.Hash().String() != oldID):
		return forge.Errorf(forge.ErrConflict, "reference %s was not updated: it is not at %s", name, oldID)
	}
	if newID == "" {
		return r.st.RemoveReference(name)
	}
	return r.st.SetReference(plumbing.NewHashReference(name, plumbing.NewHash(newID)))
}
