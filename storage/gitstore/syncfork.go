package gitstore

import (
	"context"
	"strconv"
	"strings"

	"github.com/hearthforge/hearth/forge"
)

// ForkBehind is what fork sync needs of the base repository (Forgejo's
// GetSyncForkInfo): whether commit fork, the fork branch's tip, is held by
// repository repo and reachable from commit head, the base branch's tip
// (the fork has nothing head lacks), and how many commits head has that
// fork lacks (`git rev-list --count fork..head`). A fork commit repo does
// not hold, or one not reachable from head (the branches diverged), is
// (false, 0, nil). forge.ErrNotFound if repo or head does not exist.
func (s *Store) ForkBehind(ctx context.Context, repo forge.ID, fork, head string) (bool, int, error) {
	ih, err := s.commitID(ctx, repo, head)
	if err != nil {
		return false, 0, err
	}
	if !s.hasCommit(ctx, repo, fork, nil) {
		return false, 0, nil
	}
	ok, err := s.isAncestor(ctx, repo, fork, ih, nil)
	if err != nil || !ok {
		return false, 0, err
	}
	out, err := s.run(ctx, repo, nil, nil, "rev-list", "--count", fork+".."+ih)
	if err != nil {
		return false, 0, err
	}
	n, err := strconv.Atoi(strings.TrimSpace(string(out)))
	if err != nil {
		return false, 0, err
	}
	return true, n, nil
}

// SyncForkRef fast-forwards ref of repository fork from oldID to newID, a
// commit of repository base: the commit's objects are fetched from base
// first (Forgejo pushes from the base repository into the fork). It moves
// nothing unless oldID is an ancestor of newID (forge.ErrConflict, as a
// non-fast-forward push is refused) and ref still points at oldID
// (forge.ErrConflict from the compare-and-swap); forge.ErrNotFound if a
// repository or newID does not exist. Objects fetched for a refused update
// stay unreferenced, which git's gc removes.
func (s *Store) SyncForkRef(ctx context.Context, base, fork forge.ID, ref, newID, oldID string) error {
	if err := s.exists(fork); err != nil {
		return err
	}
	unlock := s.lock(fork)
	defer unlock()
	if err := s.fetchCommit(ctx, fork, base, newID, nil); err != nil {
		return err
	}
	ok, err := s.isAncestor(ctx, fork, oldID, newID, nil)
	if err != nil {
		return err
	}
	if !ok {
		return forge.Errorf(forge.ErrConflict, "reference %s was not updated: %s is not a fast-forward of %s", ref, newID, oldID)
	}
	return s.SetRef(ctx, fork, ref, newID, oldID)
}
