package issues

import (
	"context"
	"errors"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

// headFetchable reports whether the objects of p's head branch may be
// copied now from its head repository into base (refs/pull/N/head): always
// when head and base are one repository, and when the pull request is
// being created (IssueID 0: its poster, the actor, was checked by
// headRepo a moment ago); else only while the pull request's poster may
// read the head repository's code. A poster who lost that access (a
// removed collaborator or team member, a head repository turned private,
// a poster gone or no longer allowed to act) no longer draws the head's
// new commits into the base: the pull request keeps the head it last
// synchronised, and nothing new is fetched, whoever triggers the resync (a
// push to the head, a merge, an update). Forgejo re-syncs regardless of
// the poster; Hearth deliberately does not. The store's errors are
// returned.
func (s *Service) headFetchable(ctx context.Context, base *forge.Repository, p *PullRequest) (bool, error) {
	if p.HeadRepoID == 0 || p.HeadRepoID == base.ID || p.IssueID == 0 {
		return true, nil
	}
	var poster *forge.User
	err := s.store.View(ctx, func(tx Tx) error {
		is, err := tx.IssueByID(ctx, p.IssueID)
		if err != nil {
			return err
		}
		poster, err = tx.UserByID(ctx, is.PosterID)
		return err
	})
	if errors.Is(err, forge.ErrNotFound) {
		return false, nil
	} else if err != nil {
		return false, err
	}
	as := forge.Actor{User: poster, Method: forge.AuthPassword}
	_, perm, err := s.cfg.Pulls.Repos.RepoAccessByID(ctx, as, p.HeadRepoID)
	switch {
	case errors.Is(err, forge.ErrNotFound), errors.Is(err, forge.ErrForbidden), errors.Is(err, forge.ErrUnauthenticated):
		return false, nil
	case err != nil:
		return false, err
	}
	return perm.CanRead(forge.UnitCode), nil
}

// compareTips compares baseTip of rp with headTip, the tip of branch of
// hr. A comparison is a read: when hr is another repository its objects
// are read in place (CrossCompareGit), never copied into rp, where a
// reader of rp who may not read hr would find them. Without
// CrossCompareGit the head is copied under refs/pull/compare/head and the
// ref dropped afterwards.
func (s *Service) compareTips(ctx context.Context, rp, hr *forge.Repository, branch, baseTip, headTip string) ([]*repos.Commit, int, []repos.FileChangeStat, error) {
	g := s.cfg.Pulls.Git
	if hr.ID != rp.ID {
		if cg, ok := g.(CrossCompareGit); ok {
			c, err := cg.CompareAcross(ctx, rp.ID, hr.ID, baseTip, headTip, repos.LogOptions{Files: true})
			if err != nil {
				return nil, 0, nil, err
			}
			return c.Commits, c.Total, c.Files, nil
		}
		const ref = "refs/pull/compare/head"
		var err error
		if headTip, err = g.SyncHead(ctx, rp.ID, hr.ID, branch, ref); err != nil {
			return nil, 0, nil, err
		}
		defer s.dropHeadRef(context.WithoutCancel(ctx), rp.ID, ref, headTip)
	}
	list, total, err := g.Compare(ctx, rp.ID, baseTip, headTip, repos.LogOptions{Files: true})
	if err != nil {
		return nil, 0, nil, err
	}
	from := baseTip
	if mb, err := g.MergeBase(ctx, rp.ID, baseTip, headTip); err == nil {
		from = mb
	}
	files, err := g.DiffFiles(ctx, rp.ID, from, headTip)
	if err != nil {
		return nil, 0, nil, err
	}
	return list, total, files, nil
}
