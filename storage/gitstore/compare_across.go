package gitstore

import (
	"context"
	"errors"
	"path/filepath"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/issues"
)

// CompareAcross compares the commit baseTip of repository base with the
// commit headTip of repository head (a fork in base's network) without
// copying anything into base: git runs in base with head's object
// directory as a read-only alternate (GIT_ALTERNATE_OBJECT_DIRECTORIES),
// and only reading commands run (rev-list, log, merge-base, diff), so
// base's objects and refs are as they were and a reader of base alone
// never finds head's commits there. The commits are those of Compare
// (o applied), Files those of DiffFiles from the merge base (baseTip when
// the two share no history). forge.ErrNotFound for a missing repository or
// commit; forge.ErrInvalid for a tip that is not a full commit id.
func (s *Store) CompareAcross(ctx context.Context, base, head forge.ID, baseTip, headTip string, o repos.LogOptions) (*issues.CrossComparison, error) {
	for _, id := range []string{baseTip, headTip} {
		if !isHex(id) || (len(id) != 40 && len(id) != 64) {
			return nil, forge.Errorf(forge.ErrInvalid, "not a commit id: %q", id)
		}
	}
	if err := s.exists(base); err != nil {
		return nil, err
	}
	if err := s.exists(head); err != nil {
		return nil, err
	}
	env := []string{"GIT_ALTERNATE_OBJECT_DIRECTORIES=" + filepath.Join(s.Path(head), "objects")}
	for _, id := range []string{baseTip, headTip} {
		if !s.hasCommit(ctx, base, id, env) {
			return nil, forge.Errorf(forge.ErrNotFound, "commit does not exist [id: %s]", id)
		}
	}
	out := &issues.CrossComparison{MergeBase: baseTip}
	var err error
	if out.Commits, out.Total, err = s.compare(ctx, base, env, baseTip, headTip, o); err != nil {
		return nil, err
	}
	mb, err := s.mergeBase(ctx, base, baseTip, headTip, env)
	if err == nil {
		out.MergeBase = mb
	} else if !errors.Is(err, forge.ErrNotFound) {
		return nil, err
	}
	if out.Files, err = s.diffFiles(ctx, base, env, out.MergeBase, headTip); err != nil {
		return nil, err
	}
	return out, nil
}

// Comparisons across forks read the head in place.
var _ issues.CrossCompareGit = (*Store)(nil)
