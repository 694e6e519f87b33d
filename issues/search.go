package issues

import (
	"context"
	"strings"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// RepoSearch finds the repositories an issue search covers, with the
// actor's permission on each (Forgejo's repository condition of
// SearchIssues): the repositories the actor may see (public ones, limited
// ones for signed-in users, private ones it has access to; only public
// ones for public-only tokens), owned by owner when owner is not "" (the
// repository service's error for an unknown owner), and given to team of
// that organisation when team is not "" (forge.ErrInvalid for an unknown
// team). The wiring adapts forge/repos and forge/orgs to it.
type RepoSearch interface {
	SearchRepos(ctx context.Context, actor forge.Actor, owner, team string) ([]RepoPermission, error)
}

// RepoPermission is a repository and the actor's permission on it.
type RepoPermission struct {
	Repo       *forge.Repository
	Permission forge.Permission
}

// SearchOption is the query of GET /repos/issues/search.
type SearchOption struct {
	// State StateClosed or StateAll; anything else is StateOpen.
	State State
	// Labels and Milestones are names; an issue matches any of them.
	// Names of no label (milestone) anywhere are dropped, and a filter
	// none of whose names exists is no filter (Forgejo's SearchIssues).
	Labels, Milestones []string
	// Keyword searches titles and bodies; one containing NUL is ignored.
	Keyword string
	// Type TypeIssues or TypePulls; anything else both.
	Type IssueType
	// Since and Before bound the update date (zero: no bound).
	Since, Before time.Time
	// Assigned, Created and Mentioned refer to the signed-in actor (no
	// effect when anonymous).
	Assigned, Created, Mentioned bool
	// Owner limits to an owner's repositories; Team (requiring Owner) to a
	// team's.
	Owner, Team string
	Sort        IssueSort
	// Limit 0 is 20 (Forgejo's [ui] ISSUE_PAGING_NUM), at most 50.
	forge.ListOptions
}

// SearchPageSize is the default page of the search.
const SearchPageSize = 20

// Search finds issues across the repositories the actor may read
// (read:issue), permission checked per repository and per unit (issues,
// pull requests), and returns one page and the number of matches. An empty
// set of repositories gives an empty result without a query, never
// everything. forge.ErrInvalid with ErrBadRequest `Owner organisation is
// required for filtering on team` for a team without owner; the errors of
// Config.Search for an unknown owner or team. Without Config.Search the
// search finds nothing.
//
// When Config.Search also implements RepoViews and no team is given, the
// repositories are a condition of the store's query
// (SearchRepoTx.SearchableRepos) rather than a listing of every one with
// its permission; only the page's repositories are then asked for, and
// an unknown owner is forge.ErrNotFound `user redirect does not exist
// [name: x]` as forge/repos.Service.IssueRepos says it (search_repos.go).
func (s *Service) Search(ctx context.Context, actor forge.Actor, opt SearchOption) ([]*IssueView, int64, error) {
	if err := actor.Check(forge.AccessRead, forge.CategoryIssue); err != nil {
		return nil, 0, err
	}
	if opt.Team != "" && opt.Owner == "" {
		return nil, 0, forge.Reasonf(forge.ErrInvalid, ErrBadRequest, "Owner organisation is required for filtering on team")
	}
	o := opt.ListOptions
	if o.Limit < 1 {
		o.Limit = SearchPageSize
	}
	o = o.Normalize()
	if s.cfg.Search == nil {
		return []*IssueView{}, 0, nil
	}
	f := IssueFilter{State: StateOpen, Sort: opt.Sort, UpdatedSince: opt.Since, UpdatedBefore: opt.Before}
	switch opt.State {
	case StateClosed, StateAll:
		f.State = opt.State
	}
	wantIssues, wantPulls := opt.Type != TypePulls, opt.Type != TypeIssues
	if opt.Type == TypeIssues {
		f.IsPull = ptr(false)
	} else if opt.Type == TypePulls {
		f.IsPull = ptr(true)
	}
	if !strings.ContainsRune(opt.Keyword, 0) {
		f.Keyword = opt.Keyword
	}
	if actor.IsSignedIn() {
		if opt.Created {
			f.PosterID = actor.User.ID
		}
		if opt.Assigned {
			f.AssigneeID = actor.User.ID
		}
		if opt.Mentioned {
			f.MentionedID = actor.User.ID
		}
	}
	if views, ok := s.cfg.Search.(RepoViews); ok && opt.Team == "" {
		list, total, err := s.searchInStore(ctx, views, actor, opt, f, o)
		if err != nil {
			return nil, 0, err
		}
		if list == nil {
			list = []*IssueView{}
		}
		return list, total, nil
	}
	rps, err := s.cfg.Search.SearchRepos(ctx, actor, opt.Owner, opt.Team)
	if err != nil {
		return nil, 0, err
	}
	byRepo := map[forge.ID]*access{}
	for _, rp := range rps {
		a := &access{actor: actor, repo: rp.Repo, perm: rp.Permission}
		if wantIssues && a.canRead(false) || wantPulls && a.canRead(true) {
			byRepo[rp.Repo.ID] = a
			f.RepoIDs = append(f.RepoIDs, rp.Repo.ID)
		}
	}
	if len(f.RepoIDs) == 0 {
		return []*IssueView{}, 0, nil
	}
	var (
		views []*IssueView
		total int64
	)
	err = s.store.View(ctx, func(tx Tx) error {
		if err := resolveSearchNames(ctx, tx, opt, &f); err != nil {
			return err
		}
		list, n, err := tx.ListIssues(ctx, f, o)
		if err != nil {
			return err
		}
		total = n
		kept := list[:0]
		for _, is := range list {
			if a := byRepo[is.RepoID]; a != nil && a.canRead(is.IsPull) {
				kept = append(kept, is) // else a unit the actor may not read there
			}
		}
		views, err = loadViews(ctx, tx, kept, byRepo)
		return err
	})
	return views, total, err
}
