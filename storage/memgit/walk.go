package memgit

import (
	"context"
	"iter"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

// WalkTree yields the entries of the tree with id tree (recursively, each
// subtree before its entries). The repository is in memory already: the
// listing is built, then yielded.
func (s *Store) WalkTree(ctx context.Context, id forge.ID, tree string, recursive bool) iter.Seq2[repos.TreeEntry, error] {
	return func(yield func(repos.TreeEntry, error) bool) {
		entries, err := s.listTree(ctx, id, tree, recursive)
		if err != nil {
			yield(repos.TreeEntry{}, err)
			return
		}
		for _, e := range entries {
			if !yield(e, nil) {
				return
			}
		}
	}
}

func (s *Store) listTree(ctx context.Context, id forge.ID, tree string, recursive bool) ([]repos.TreeEntry, error) {
	r, err := s.get(ctx, id)
	if err != nil {
		return nil, err
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	if !isFullID(tree) {
		return nil, forge.Errorf(forge.ErrNotFound, "tree does not exist [id: %s]", tree)
	}
	t, err := object.GetTree(r.st, plumbing.NewHash(tree))
	if err != nil {
		return nil, forge.Errorf(forge.ErrNotFound, "tree does not exist [id: %s]", tree)
	}
	return r.list(t, "", recursive)
}

// Languages is repos.LanguageStats of the recursive listing of tree
// (uncached: the store is for tests and small embedders).
func (s *Store) Languages(ctx context.Context, id forge.ID, tree string) (map[string]int64, error) {
	return repos.LanguageStats(s.WalkTree(ctx, id, tree, true))
}
