package issues

import (
	"context"
	"errors"

	"github.com/hearthforge/hearth/forge"
)

// ChecksChanged runs the merges scheduled (MergeWhenChecksSucceed) for
// the open pull requests of repo whose head is sha, as Forgejo's
// automerge does when a commit status arrives: each is merged as the user
// who scheduled it, with the style, message and branch deletion they
// chose, once the base branch's protection no longer refuses it; a merge
// still refused stays scheduled. The wiring calls it after a commit status
// is created. It returns the indexes merged; errors other than refusals
// are joined.
func (s *Service) ChecksChanged(ctx context.Context, repo *forge.Repository, sha string) ([]int64, error) {
	if !s.pullsEnabled() || repo == nil || sha == "" {
		return nil, nil
	}
	type job struct {
		index int64
		m     *AutoMerge
		doer  *forge.User
	}
	var jobs []job
	err := s.store.View(ctx, func(tx Tx) error {
		open, err := tx.FindPulls(ctx, PullFilter{BaseRepoID: repo.ID, Open: true})
		if err != nil {
			return err
		}
		for _, p := range open {
			if p.HeadCommitID != sha {
				continue
			}
			m, err := tx.AutoMergeByPull(ctx, p.ID)
			if errors.Is(err, forge.ErrNotFound) {
				continue
			} else if err != nil {
				return err
			}
			u, err := tx.UserByID(ctx, m.DoerID)
			if errors.Is(err, forge.ErrNotFound) {
				continue
			} else if err != nil {
				return err
			}
			jobs = append(jobs, job{p.Index, m, u})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	var (
		merged []int64
		errs   []error
	)
	for _, j := range jobs {
		del := j.m.DeleteBranchAfterMerge
		title, body := j.m.Message, ""
		actor := forge.Actor{User: j.doer, Method: forge.AuthPassword}
		_, err := s.MergePullDetailed(ctx, actor, repo.OwnerName, repo.Name, j.index,
			MergePullOption{Do: j.m.Style, MergeTitleField: title, MergeMessageField: body, DeleteBranchAfterMerge: &del})
		switch {
		case err == nil:
			merged = append(merged, j.index)
		case errors.Is(err, ErrMergeNotAllowed):
		default:
			errs = append(errs, err)
		}
	}
	return merged, errors.Join(errs...)
}
