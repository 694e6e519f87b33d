package issues

import (
	"context"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

// RepoCounter reads the issue counters of repositories for the repository
// presentation (repos.Config.IssueCounts): a trusted port that checks
// nothing, for the composition root (repos.Service.PresentAll calls it
// with the repositories it has found the actor may read).
type RepoCounter struct{ store Store }

var _ repos.IssueCounter = RepoCounter{}

// NewRepoCounter returns the RepoCounter of store.
func NewRepoCounter(store Store) RepoCounter { return RepoCounter{store: store} }

// RepoIssueCounts returns, for each repository of repoIDs, its numbers of
// open and closed issues and pull requests, read in one transaction with
// two queries (repositories without any are absent; none for no ids).
func (c RepoCounter) RepoIssueCounts(ctx context.Context, repoIDs []forge.ID) (map[forge.ID]repos.IssueCounts, error) {
	out := map[forge.ID]repos.IssueCounts{}
	if len(repoIDs) == 0 {
		return out, nil
	}
	err := c.store.View(ctx, func(tx Tx) error {
		is, err := tx.IssueCounts(ctx, repoIDs, false)
		if err != nil {
			return err
		}
		ps, err := tx.IssueCounts(ctx, repoIDs, true)
		if err != nil {
			return err
		}
		for id, n := range is {
			rc := out[id]
			rc.OpenIssues, rc.ClosedIssues = n.Open, n.Closed
			out[id] = rc
		}
		for id, n := range ps {
			rc := out[id]
			rc.OpenPulls, rc.ClosedPulls = n.Open, n.Closed
			out[id] = rc
		}
		return nil
	})
	return out, err
}
