package issues

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/hearthforge/hearth/forge"
)

// SearchRepoTx computes, in the store, the repositories an issue search
// covers (Forgejo's AccessibleRepositoryCondition): a condition on the
// repositories, not a listing of them with their permissions.
type SearchRepoTx interface {
	// SearchableRepos returns, in one query, the ids of the ready
	// repositories (of ownerID, when not 0) that the actor may see as
	// forge/repos.Service.IssueRepos lists them (the VisibleTo rule of a
	// repository listing; every repository for site administrators; only
	// public ones of public owners for public-only tokens) in which
	// forge/repos.Access lets it read the issues unit (issueRepos) and the
	// pull-request unit (pullRepos). Ascending; never nil. It reads the
	// actor's user id, administrator, restricted and public-only flags,
	// nothing else (no account state, no token category).
	SearchableRepos(ctx context.Context, actor forge.Actor, ownerID forge.ID) (issueRepos, pullRepos []forge.ID, err error)
}

// RepoViews is an optional part of a RepoSearch: the repositories of ids
// that the actor may see, each with its permission
// (forge/repos.Service.ViewsByID), in a fixed number of queries. With it
// the search finds its repositories with SearchRepoTx and asks for the
// repositories of the page only; without it (or with a team filter) it
// lists every searchable repository through SearchRepos.
type RepoViews interface {
	ReposByID(ctx context.Context, actor forge.Actor, ids []forge.ID) ([]RepoPermission, error)
}

// searchInStore is Search with the repository condition in the store:
// the owner resolved by name, the readable repositories' ids from
// SearchableRepos, one page of issues, then the page's repositories with
// the actor's permission (every issue is checked against it again: what
// the store condition admits and the permission rule refuses is dropped,
// never shown).
func (s *Service) searchInStore(ctx context.Context, views RepoViews, actor forge.Actor, opt SearchOption, f IssueFilter, o forge.ListOptions) ([]*IssueView, int64, error) {
	if err := actor.CheckState(); err != nil {
		return nil, 0, err
	}
	wantIssues, wantPulls := opt.Type != TypePulls, opt.Type != TypeIssues
	var (
		list              []*Issue
		total             int64
		inIssues, inPulls map[forge.ID]bool
	)
	err := s.store.View(ctx, func(tx Tx) error {
		var ownerID forge.ID
		if opt.Owner != "" {
			u, err := tx.UserByName(ctx, opt.Owner)
			if errors.Is(err, forge.ErrNotFound) {
				return forge.Errorf(forge.ErrNotFound, "user redirect does not exist [name: %s]", strings.ToLower(opt.Owner))
			}
			if err != nil {
				return err
			}
			ownerID = u.ID
		}
		issueRepos, pullRepos, err := tx.SearchableRepos(ctx, actor, ownerID)
		if err != nil {
			return err
		}
		inIssues, inPulls = idSet(issueRepos), idSet(pullRepos)
		if wantIssues {
			f.RepoIDs = append(f.RepoIDs, issueRepos...)
		}
		if wantPulls {
			f.RepoIDs = append(f.RepoIDs, pullRepos...)
		}
		slices.Sort(f.RepoIDs)
		f.RepoIDs = slices.Compact(f.RepoIDs)
		if len(f.RepoIDs) == 0 {
			return nil // nothing visible: no issue query, never everything
		}
		if err := resolveSearchNames(ctx, tx, opt, &f); err != nil {
			return err
		}
		var n int64
		list, n, err = tx.ListIssues(ctx, f, o)
		total = n
		return err
	})
	if err != nil {
		return nil, 0, err
	}
	kept := list[:0]
	var pageRepos []forge.ID
	for _, is := range list {
		if is.IsPull && inPulls[is.RepoID] || !is.IsPull && inIssues[is.RepoID] {
			kept = append(kept, is) // else a unit the actor may not read there
			pageRepos = append(pageRepos, is.RepoID)
		}
	}
	if len(kept) == 0 {
		return []*IssueView{}, total, nil
	}
	slices.Sort(pageRepos)
	rps, err := views.ReposByID(ctx, actor, slices.Compact(pageRepos))
	if err != nil {
		return nil, 0, err
	}
	byRepo := make(map[forge.ID]*access, len(rps))
	for _, rp := range rps {
		byRepo[rp.Repo.ID] = &access{actor: actor, repo: rp.Repo, perm: rp.Permission}
	}
	checked := kept[:0]
	for _, is := range kept {
		if a := byRepo[is.RepoID]; a != nil && a.canRead(is.IsPull) {
			checked = append(checked, is)
		}
	}
	if len(checked) == 0 {
		return []*IssueView{}, total, nil
	}
	var out []*IssueView
	err = s.store.View(ctx, func(tx Tx) error {
		var err error
		out, err = loadViews(ctx, tx, checked, byRepo)
		return err
	})
	return out, total, err
}

func idSet(ids []forge.ID) map[forge.ID]bool {
	m := make(map[forge.ID]bool, len(ids))
	for _, id := range ids {
		m[id] = true
	}
	return m
}

// resolveSearchNames sets f's label and milestone ids from opt's names:
// Forgejo resolves the names among every label and milestone, and drops
// a filter none of whose names exists (GetLabelIDsByNames,
// GetMilestoneIDsByNames); unknown names among known ones are ignored.
func resolveSearchNames(ctx context.Context, tx Tx, opt SearchOption, f *IssueFilter) error {
	if len(opt.Labels) > 0 {
		ids, err := tx.LabelIDsByNames(ctx, opt.Labels)
		if err != nil {
			return err
		}
		if len(ids) > 0 {
			f.LabelIDs = ids
		}
	}
	if len(opt.Milestones) > 0 {
		ids, err := tx.MilestoneIDsByNames(ctx, opt.Milestones)
		if err != nil {
			return err
		}
		if len(ids) > 0 {
			f.MilestoneIDs = ids
		}
	}
	return nil
}
