package issues

import (
	"context"

	"github.com/hearthforge/hearth/forge"
)

// RepoCounts is what a repository's JSON shows of its issues:
// open_issues_count and open_pr_counter (with the closed ones).
type RepoCounts struct {
	Issues, Pulls IssueCount
}

// RepoIssueCounts returns, for each repository of repoIDs, its numbers of
// open and closed issues and pull requests, read in one transaction with
// two queries (repositories without any are absent). It is for the
// repository JSON of repositories the caller has already shown the actor:
// it checks the actor's account state only.
func (s *Service) RepoIssueCounts(ctx context.Context, actor forge.Actor, repoIDs []forge.ID) (map[forge.ID]RepoCounts, error) {
	if err := actor.CheckState(); err != nil {
		return nil, err
	}
	out := map[forge.ID]RepoCounts{}
	if len(repoIDs) == 0 {
		return out, nil
	}
	err := s.store.View(ctx, func(tx Tx) error {
		is, err := tx.IssueCounts(ctx, repoIDs, false)
		if err != nil {
			return err
		}
		ps, err := tx.IssueCounts(ctx, repoIDs, true)
		if err != nil {
			return err
		}
		for id, c := range is {
			rc := out[id]
			rc.Issues = c
			out[id] = rc
		}
		for id, c := range ps {
			rc := out[id]
			rc.Pulls = c
			out[id] = rc
		}
		return nil
	})
	return out, err
}
