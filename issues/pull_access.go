package issues

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

// pullsEnabled reports whether the Service was given what pull requests
// need.
func (s *Service) pullsEnabled() bool { return s.cfg.Pulls.Git != nil && s.cfg.Pulls.Repos != nil }

// openPulls resolves owner/repo for an operation of level on its pull
// requests: the repository token scope (Forgejo's pull routes sit under
// the repository scope), a repository the actor may see, Forgejo's
// mustAllowPulls and reqRepoReader(code) (not found otherwise). Writes
// need a signed-in actor who is not an organisation (forge.ErrForbidden
// `Organization can't be doer`: no sign-in gives an organisation's
// identity, but a service call is as safe as an HTTP call).
func (s *Service) openPulls(ctx context.Context, actor forge.Actor, owner, name string, level forge.AccessLevel) (*access, error) {
	a, err := s.openPullsAny(ctx, actor, owner, name, level)
	if err == nil && level == forge.AccessWrite && actor.User.IsOrganization() {
		return nil, orgDoer()
	}
	return a, err
}

func orgDoer() error { return forge.Errorf(forge.ErrForbidden, "Organization can't be doer") }

// openPullsAny is openPulls letting an organisation act, for the callers
// that refuse it with their own message.
func (s *Service) openPullsAny(ctx context.Context, actor forge.Actor, owner, name string, level forge.AccessLevel) (*access, error) {
	if !s.pullsEnabled() {
		return nil, notFound()
	}
	if err := actor.Check(level, forge.CategoryRepository); err != nil {
		return nil, err
	}
	// Resolved once: the workflows pass a (and its held resolution) to
	// their inner steps.
	held, err := s.cfg.Pulls.Repos.Resolve(ctx, actor, owner, name)
	if err != nil {
		return nil, err
	}
	perm := held.Perm()
	a := &access{actor: actor, repo: held.Repo(), perm: perm, held: held}
	if !a.canRead(true) || !perm.CanRead(forge.UnitCode) {
		return nil, notFound()
	}
	if level == forge.AccessWrite && !actor.IsSignedIn() {
		return nil, tokenRequired()
	}
	return a, nil
}

func pullNotFound() error { return forge.Reasonf(forge.ErrNotFound, ErrPullNotFound, msgNotFound) }

// pull loads pull request index of a's repository with its issue.
func (a *access) pull(ctx context.Context, tx Tx, index int64) (*Issue, *PullRequest, error) {
	is, err := tx.IssueByIndex(ctx, a.repo.ID, index)
	if errors.Is(err, forge.ErrNotFound) || err == nil && !is.IsPull {
		return nil, nil, pullNotFound()
	} else if err != nil {
		return nil, nil, err
	}
	pr, err := tx.PullByIssueID(ctx, is.ID)
	if errors.Is(err, forge.ErrNotFound) {
		return nil, nil, pullNotFound()
	}
	return is, pr, err
}

// pullViews loads the JSON values of the pull requests of list (issues of
// a's repository that are pull requests) in one transaction; finishViews
// completes them outside it.
func (a *access) pullViews(ctx context.Context, tx Tx, list []*Issue) ([]*PullView, error) {
	ivs, err := a.views(ctx, tx, list)
	if err != nil {
		return nil, err
	}
	ids := make([]forge.ID, 0, len(list))
	for _, is := range list {
		ids = append(ids, is.ID)
	}
	prs, err := tx.PullsByIssueID(ctx, ids)
	if err != nil {
		return nil, err
	}
	var userIDs []forge.ID
	requests := map[forge.ID][]*Review{}
	codeCount := map[forge.ID]int{}
	for _, is := range list {
		if p := prs[is.ID]; p != nil && p.MergerID != 0 {
			userIDs = append(userIDs, p.MergerID)
		}
		rs, _, err := tx.ListReviews(ctx, ReviewFilter{IssueID: is.ID}, all)
		if err != nil {
			return nil, err
		}
		var rids []forge.ID
		// Forgejo's requested_reviewers: each user's latest review of type
		// request, approve or reject (so reviewers who answered stay
		// listed), and the requested teams.
		latest := map[forge.ID]*Review{}
		for _, r := range rs {
			rids = append(rids, r.ID)
			switch {
			case r.ReviewerTeamID != 0 && r.Type == ReviewRequest:
				requests[is.ID] = append(requests[is.ID], r)
			case r.ReviewerID != 0 && (r.Type == ReviewRequest || r.Type == ReviewApprove || r.Type == ReviewReject):
				if _, ok := latest[r.ReviewerID]; !ok {
					requests[is.ID] = append(requests[is.ID], r)
					userIDs = append(userIDs, r.ReviewerID)
				}
				latest[r.ReviewerID] = r
			}
		}
		if len(rids) > 0 {
			cs, err := tx.ReviewComments(ctx, rids)
			if err != nil {
				return nil, err
			}
			for _, l := range cs {
				for _, c := range l {
					if c.Type == CommentCode {
						codeCount[is.ID]++
					}
				}
			}
		}
	}
	slices.Sort(userIDs)
	users, err := tx.UsersByID(ctx, slices.Compact(userIDs))
	if err != nil {
		return nil, err
	}
	out := make([]*PullView, 0, len(list))
	for k, is := range list {
		p := prs[is.ID]
		if p == nil {
			continue
		}
		v := &PullView{IssueView: ivs[k], Pull: p, RequestedReviewers: []*forge.User{}, RequestedTeams: []*forge.Team{},
			ReviewComments: codeCount[is.ID]}
		if p.MergerID != 0 {
			v.Merger = a.user(users, p.MergerID)
		}
		for _, r := range requests[is.ID] {
			if u := users[r.ReviewerID]; u != nil {
				v.RequestedReviewers = append(v.RequestedReviewers, u.VisibleTo(a.actor))
			} else if r.ReviewerTeamID != 0 {
				v.RequestedTeams = append(v.RequestedTeams, &forge.Team{ID: r.ReviewerTeamID, OrgID: a.repo.OwnerID})
			}
		}
		out = append(out, v)
	}
	return out, nil
}

// finishViews fills what the views read from repositories and git: the
// head repository (as the actor sees it) and the tip of the base branch.
func (s *Service) finishViews(ctx context.Context, a *access, views []*PullView) {
	heads := map[forge.ID]*forge.Repository{a.repo.ID: a.repo}
	bases := map[string]string{}
	var teams []*forge.Team
	for _, v := range views {
		teams = append(teams, v.RequestedTeams...)
	}
	s.nameTeams(ctx, teams)
	for _, v := range views {
		p := v.Pull
		if p.HeadRepoID != 0 {
			r, ok := heads[p.HeadRepoID]
			if !ok {
				if hr, perm, err := s.cfg.Pulls.Repos.RepoAccessByID(ctx, a.actor, p.HeadRepoID); err == nil && perm.HasAccess() {
					r = hr
				}
				heads[p.HeadRepoID] = r
			}
			v.HeadRepo = r
		}
		tip, ok := bases[p.BaseBranch]
		if !ok {
			tip = s.branchTip(ctx, a, p.BaseBranch)
			bases[p.BaseBranch] = tip
		}
		v.BaseCommitID = tip
		if v.BaseCommitID == "" {
			v.BaseCommitID = p.MergeBase
		}
	}
}

// branchTip returns the commit branch of a's repository points at (read
// as branchIn reads it), "" if it is gone or unreadable.
func (s *Service) branchTip(ctx context.Context, a *access, branch string) string {
	b, err := s.branchIn(ctx, a, branch)
	if err != nil {
		return ""
	}
	return b.Commit.ID
}

// branchIn returns a branch of a's repository with its rule as a's actor
// sees it; forge.ErrNotFound if missing. With a's held resolution (an
// operation's, openPulls) it is read through it, without resolving the
// access again; else as GetBranch.
func (s *Service) branchIn(ctx context.Context, a *access, branch string) (*repos.Branch, error) {
	var (
		b   *repos.Branch
		err error
	)
	if a.held != nil {
		b, err = a.held.Branch(ctx, branch)
	} else {
		_, b, err = s.cfg.Pulls.Repos.GetBranch(ctx, a.actor, a.repo.OwnerName, a.repo.Name, branch)
	}
	if err != nil {
		return nil, err
	}
	if b == nil || b.Commit == nil {
		return nil, forge.Errorf(forge.ErrNotFound, "branch does not exist [name: %s]", branch)
	}
	return b, nil
}

// accessByID is the actor's access to the repository of that id for a
// workflow that holds a (a pull request's head repository): a itself
// when it is that repository, else resolved once (through PullRepos, so
// that the inner steps use the resolution).
func (s *Service) accessByID(ctx context.Context, a *access, id forge.ID) (*access, error) {
	if id == a.repo.ID {
		return a, nil
	}
	held, err := s.cfg.Pulls.Repos.ResolveByID(ctx, a.actor, id)
	if err != nil {
		return nil, err
	}
	return &access{actor: a.actor, repo: held.Repo(), perm: held.Perm(), held: held}, nil
}

// headSpec is a parsed head of a pull request or comparison:
// "branch", "owner:branch" or "owner/repo:branch".
type headSpec struct {
	owner, repo, branch string
}

// parseHead splits a head; ok false when it has more than one colon.
func parseHead(head string) (headSpec, bool) {
	parts := strings.Split(head, ":")
	switch len(parts) {
	case 1:
		return headSpec{branch: parts[0]}, true
	case 2:
		owner, repo, _ := strings.Cut(parts[0], "/")
		return headSpec{owner: owner, repo: repo, branch: parts[1]}, true
	}
	return headSpec{}, false
}

// headRepo resolves the head repository of h for base, as the actor sees
// it (Forgejo's parseCompareInfo): the base itself for a bare branch or
// the base's owner; else owner/repo when given; else the owner's fork of
// base (PullForks), the base's parent when owner holds it, or
// owner/{base's name}. The actor must read its code (not found
// otherwise).
func (s *Service) headRepo(ctx context.Context, a *access, h headSpec) (*forge.Repository, forge.Permission, error) {
	if h.owner == "" || (h.repo == "" && strings.EqualFold(h.owner, a.repo.OwnerName)) ||
		(strings.EqualFold(h.owner, a.repo.OwnerName) && strings.EqualFold(h.repo, a.repo.Name)) {
		return a.repo, a.perm, nil
	}
	var (
		repo *forge.Repository
		perm forge.Permission
		err  error
	)
	switch {
	case h.repo != "":
		repo, perm, err = s.repos.RepoAccess(ctx, a.actor, h.owner, h.repo)
	default:
		err = forge.Errorf(forge.ErrNotFound, "%s does not have a fork of %s and %s is not a fork of a repository from %s",
			h.owner, a.repo.FullName(), a.repo.FullName(), h.owner)
		if f, ok := s.cfg.Pulls.Repos.(PullForks); ok {
			if r, p, ferr := f.ForkOf(ctx, a.actor, a.repo.ID, h.owner); ferr == nil {
				repo, perm, err = r, p, nil
			}
		}
		if repo == nil && a.repo.ForkID != 0 {
			if r, p, perr := s.cfg.Pulls.Repos.RepoAccessByID(ctx, a.actor, a.repo.ForkID); perr == nil && strings.EqualFold(r.OwnerName, h.owner) {
				repo, perm, err = r, p, nil
			}
		}
		if repo == nil {
			if r, p, rerr := s.repos.RepoAccess(ctx, a.actor, h.owner, a.repo.Name); rerr == nil && (r.ForkID == a.repo.ID || a.repo.ForkID == r.ID) {
				repo, perm, err = r, p, nil
			}
		}
	}
	if err != nil {
		return nil, forge.Permission{}, err
	}
	if !perm.CanRead(forge.UnitCode) {
		return nil, forge.Permission{}, notFound()
	}
	return repo, perm, nil
}

// userAccess is the access of another user to a's repository (the
// repository service's answer), for official reviews and candidates.
func (s *Service) userAccess(ctx context.Context, a *access, u *forge.User) *access {
	if a.actor.IsSignedIn() && a.actor.User.ID == u.ID {
		return a
	}
	as := forge.Actor{User: u, Method: forge.AuthPassword}
	_, perm, err := s.repos.RepoAccess(ctx, as, a.repo.OwnerName, a.repo.Name)
	if err != nil {
		return &access{actor: as, repo: a.repo}
	}
	return &access{actor: as, repo: a.repo, perm: perm}
}
