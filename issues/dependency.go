package issues

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// ErrDependenciesLeft: an issue with open dependencies cannot be closed
// (Forgejo answers 412 `cannot close this issue because it still has open
// dependencies`). It is a forge.ErrPrecondition.
var ErrDependenciesLeft = errors.New("issue still has open dependencies")

// ErrRepoNotExist marks the not-found answer for the repository named by
// an IssueRef (Forgejo's ctx.NotFound("IsErrRepoNotExist", err)). It is a
// forge.ErrNotFound.
var ErrRepoNotExist = errors.New("repository does not exist")

// IssueRef names an issue of a repository, as the body of the dependency
// routes (Forgejo's IssueMeta).
type IssueRef struct {
	Owner, Repo string
	Index       int64
}

// HiddenTitle is the title of the placeholder Dependencies shows for a
// blocker the actor may not read.
const HiddenTitle = "HIDDEN"

// noDependenciesLeft is checked when an issue is closed (Forgejo's
// SetIssueAsClosed): if its repository has dependencies on and an issue it
// depends on is open, forge.ErrPrecondition (ErrDependenciesLeft).
func noDependenciesLeft(ctx context.Context, tx Tx, repo *forge.Repository, is *Issue) error {
	if !DependenciesEnabled(repo) {
		return nil
	}
	ids, err := tx.Dependencies(ctx, is.ID)
	if err != nil || len(ids) == 0 {
		return err
	}
	deps, err := tx.IssuesByID(ctx, ids)
	if err != nil {
		return err
	}
	for _, d := range deps {
		if !d.IsClosed {
			return forge.Reasonf(forge.ErrPrecondition, ErrDependenciesLeft, "cannot close this issue because it still has open dependencies")
		}
	}
	return nil
}

// AddDependency makes issue index of owner/repo depend on dep (POST
// /issues/{index}/dependencies; write:issue) and returns the issue.
// Permission is checked per repository (Forgejo's createIssueDependency):
// the issue's repository must not be archived, must have dependencies on
// and the actor must write the issue's unit there; the actor must read
// dep's unit in dep's repository. An archived repository of the path
// issue is forge.ErrArchived (Forgejo's mustNotBeArchived); every other
// refusal is forge.ErrNotFound, so
// that nothing of a repository the actor may not see is told. An unknown
// path issue or dep is ErrIssueNotFound; an unknown or invisible
// repository of dep is ErrRepoNotExist. forge.ErrConflict if the
// dependency exists or dep depends on the issue (circular). In the same
// transaction both issues get a CommentAddDependency naming the other and
// are updated now (RemoveDependency and the block routes alike, with
// CommentRemoveDependency for a removal).
func (s *Service) AddDependency(ctx context.Context, actor forge.Actor, owner, repo string, index int64, dep IssueRef) (*IssueView, error) {
	return s.link(ctx, actor, owner, repo, index, dep, true, true)
}

// RemoveDependency removes "issue index depends on dep" (DELETE
// /issues/{index}/dependencies) with AddDependency's checks, and returns
// the issue. forge.ErrNotFound if there is no such dependency.
func (s *Service) RemoveDependency(ctx context.Context, actor forge.Actor, owner, repo string, index int64, dep IssueRef) (*IssueView, error) {
	return s.link(ctx, actor, owner, repo, index, dep, true, false)
}

// AddBlock makes blocked depend on issue index of owner/repo (POST
// /issues/{index}/blocks) and returns issue index. The checks are
// AddDependency's with the roles swapped: the actor writes blocked's unit
// in its repository and reads issue index.
func (s *Service) AddBlock(ctx context.Context, actor forge.Actor, owner, repo string, index int64, blocked IssueRef) (*IssueView, error) {
	return s.link(ctx, actor, owner, repo, index, blocked, false, true)
}

// RemoveBlock removes "blocked depends on issue index" (DELETE
// /issues/{index}/blocks) with AddBlock's checks, and returns issue index.
func (s *Service) RemoveBlock(ctx context.Context, actor forge.Actor, owner, repo string, index int64, blocked IssueRef) (*IssueView, error) {
	return s.link(ctx, actor, owner, repo, index, blocked, false, false)
}

// link adds or removes a dependency between the path issue and the issue
// of ref: the path issue depends on ref's when pathDepends, else ref's
// depends on the path issue.
func (s *Service) link(ctx context.Context, actor forge.Actor, owner, repo string, index int64, ref IssueRef, pathDepends, add bool) (*IssueView, error) {
	a, err := s.open(ctx, actor, owner, repo, forge.AccessWrite)
	if err != nil {
		return nil, err
	}
	if pathDepends {
		// The dependency routes have Forgejo's mustNotBeArchived (423);
		// the block routes do not.
		if err := a.notArchived(); err != nil {
			return nil, err
		}
	}
	b := a
	if ref.Owner != a.repo.OwnerName || ref.Repo != a.repo.Name {
		r, perm, err := s.repos.RepoAccess(ctx, actor, ref.Owner, ref.Repo)
		if errors.Is(err, forge.ErrNotFound) {
			return nil, forge.Reasonf(forge.ErrNotFound, ErrRepoNotExist, "repository does not exist [id: 0, uid: 0, owner_name: %s, name: %s]", ref.Owner, ref.Repo)
		} else if err != nil {
			return nil, err
		}
		b = &access{actor: actor, repo: r, perm: perm}
	}
	var view *IssueView
	err = s.store.Update(ctx, func(tx Tx) error {
		pathIssue, err := tx.IssueByIndex(ctx, a.repo.ID, index)
		if errors.Is(err, forge.ErrNotFound) {
			return issueNotFound(a.repo.ID, index)
		} else if err != nil {
			return err
		}
		other, err := tx.IssueByIndex(ctx, b.repo.ID, ref.Index)
		if errors.Is(err, forge.ErrNotFound) {
			return issueNotFound(b.repo.ID, ref.Index)
		} else if err != nil {
			return err
		}
		target, ta, dep, da := pathIssue, a, other, b
		if !pathDepends {
			target, ta, dep, da = other, b, pathIssue, a
		}
		if ta.repo.Archived || !DependenciesEnabled(ta.repo) || !ta.canWrite(target.IsPull) || !da.canRead(dep.IsPull) {
			return notFound()
		}
		now := s.clock.Now()
		if add {
			err = createDependency(ctx, tx, actor, target, dep, now)
		} else {
			err = tx.DeleteDependency(ctx, target.ID, dep.ID)
			if errors.Is(err, forge.ErrNotFound) {
				err = forge.Errorf(forge.ErrNotFound, "issue dependency does not exist [issue id: %d, dependency id: %d]", target.ID, dep.ID)
			}
		}
		if err != nil {
			return err
		}
		if err := dependencyComments(ctx, tx, actor, target, dep, add, now); err != nil {
			return err
		}
		view, err = a.view(ctx, tx, pathIssue)
		return err
	})
	return view, err
}

// createDependency records "target depends on dep" unless it exists or
// dep depends on target (Forgejo's CreateIssueDependency; Forgejo answers
// those with 500, Hearth with forge.ErrConflict and Forgejo's messages).
func createDependency(ctx context.Context, tx Tx, actor forge.Actor, target, dep *Issue, now time.Time) error {
	if ok, err := tx.DependencyExists(ctx, target.ID, dep.ID); err != nil {
		return err
	} else if ok {
		return forge.Errorf(forge.ErrConflict, "issue dependency does already exist [issue id: %d, dependency id: %d]", target.ID, dep.ID)
	}
	if ok, err := tx.DependencyExists(ctx, dep.ID, target.ID); err != nil {
		return err
	} else if ok {
		return forge.Errorf(forge.ErrConflict, "circular dependencies exists (two issues blocking each other) [issue id: %d, dependency id: %d]", target.ID, dep.ID)
	}
	return tx.CreateDependency(ctx, &Dependency{UserID: actor.UserID(), IssueID: target.ID, DependsOn: dep.ID, Created: now})
}

// Dependencies lists the issues that block issue index (GET
// /issues/{index}/dependencies; read:issue), ordered by id, one page
// (limit 0 is 30, above 50 is 50). forge.ErrNotFound if the repository has
// dependencies off. A blocker the actor may not read is masked as
// Forgejo does: to an actor who writes the issue, an issue with only its
// number, title, state, kind and repository (RepoOnly true); to others a
// placeholder titled HiddenTitle with nothing else.
func (s *Service) Dependencies(ctx context.Context, actor forge.Actor, owner, repo string, index int64, o forge.ListOptions) ([]*DependencyView, error) {
	a, err := s.open(ctx, actor, owner, repo, forge.AccessRead)
	if err != nil {
		return nil, err
	}
	if !DependenciesEnabled(a.repo) {
		return nil, notFound()
	}
	o = o.Normalize()
	var is *Issue
	var list []*Issue
	var refs map[forge.ID]RepoRef
	err = s.store.View(ctx, func(tx Tx) error {
		var err error
		if is, err = a.issue(ctx, tx, index); err != nil {
			return err
		}
		list, refs, err = related(ctx, tx, is.ID, true)
		return err
	})
	if err != nil {
		return nil, err
	}
	list = page(list, o.Offset(), o.Limit)
	byRepo, err := s.accessByRepo(ctx, a, refs)
	if err != nil {
		return nil, err
	}
	var readable []*Issue
	for _, d := range list {
		if byRepo[d.RepoID].canRead(d.IsPull) {
			readable = append(readable, d)
		}
	}
	views, err := s.loadRelated(ctx, readable, byRepo)
	if err != nil {
		return nil, err
	}
	writer := a.canWrite(is.IsPull)
	out := make([]*DependencyView, 0, len(list))
	for _, d := range list {
		switch {
		case views[d.ID] != nil:
			out = append(out, &DependencyView{IssueView: views[d.ID]})
		case writer:
			ref := refs[d.RepoID]
			out = append(out, &DependencyView{RepoOnly: true, IssueView: &IssueView{
				Issue: &Issue{Index: d.Index, Title: d.Title, IsClosed: d.IsClosed, IsPull: d.IsPull},
				Repo:  &forge.Repository{ID: ref.ID, Name: ref.Name, OwnerName: ref.OwnerName}}})
		default:
			out = append(out, &DependencyView{Hidden: true, IssueView: &IssueView{Issue: &Issue{Title: HiddenTitle}}})
		}
	}
	return out, nil
}

// Blocks lists the issues that issue index blocks (GET
// /issues/{index}/blocks; read:issue), ordered by id; those the actor may
// not read are left out. Paging is Forgejo's: a limit of 1 or less is 30
// and there is no upper bound.
func (s *Service) Blocks(ctx context.Context, actor forge.Actor, owner, repo string, index int64, o forge.ListOptions) ([]*IssueView, error) {
	a, err := s.open(ctx, actor, owner, repo, forge.AccessRead)
	if err != nil {
		return nil, err
	}
	if o.Page < 1 {
		o.Page = 1
	}
	if o.Limit <= 1 {
		o.Limit = forge.DefaultPageSize
	}
	var list []*Issue
	var refs map[forge.ID]RepoRef
	err = s.store.View(ctx, func(tx Tx) error {
		is, err := a.issue(ctx, tx, index)
		if err != nil {
			return err
		}
		list, refs, err = related(ctx, tx, is.ID, false)
		return err
	})
	if err != nil {
		return nil, err
	}
	list = page(list, o.OffsetMax(o.Limit), o.Limit) // no upper bound on the limit: Forgejo's
	byRepo, err := s.accessByRepo(ctx, a, refs)
	if err != nil {
		return nil, err
	}
	var readable []*Issue
	for _, d := range list {
		if byRepo[d.RepoID].canRead(d.IsPull) {
			readable = append(readable, d)
		}
	}
	views, err := s.loadRelated(ctx, readable, byRepo)
	if err != nil {
		return nil, err
	}
	out := make([]*IssueView, 0, len(readable))
	for _, d := range readable {
		out = append(out, views[d.ID])
	}
	return out, nil
}

// DependencyView is one entry of Dependencies: a blocker as the actor may
// see it.
type DependencyView struct {
	*IssueView
	// RepoOnly: the actor may not read the blocker but writes the issue:
	// only its number, title, state, kind and repository are set.
	RepoOnly bool
	// Hidden: the blocker is a placeholder titled HiddenTitle.
	Hidden bool
}

// related loads the issues issueID depends on (deps) or that depend on it,
// ordered by id, and the names of their repositories.
func related(ctx context.Context, tx Tx, issueID forge.ID, deps bool) ([]*Issue, map[forge.ID]RepoRef, error) {
	var ids []forge.ID
	var err error
	if deps {
		ids, err = tx.Dependencies(ctx, issueID)
	} else {
		ids, err = tx.Dependents(ctx, issueID)
	}
	if err != nil || len(ids) == 0 {
		return nil, map[forge.ID]RepoRef{}, err
	}
	byID, err := tx.IssuesByID(ctx, ids)
	if err != nil {
		return nil, nil, err
	}
	list := make([]*Issue, 0, len(byID))
	var repoIDs []forge.ID
	for _, is := range byID {
		list = append(list, is)
		repoIDs = append(repoIDs, is.RepoID)
	}
	slices.SortFunc(list, func(x, y *Issue) int { return int(x.ID - y.ID) })
	slices.Sort(repoIDs)
	refs, err := tx.RepoRefs(ctx, slices.Compact(repoIDs))
	return list, refs, err
}

// page returns the limit items of list from offset (nil when there are
// none), whatever the values: no sum overflows.
func page[T any](list []T, offset, limit int) []T {
	if offset < 0 || offset >= len(list) || limit < 1 {
		return nil
	}
	return list[offset : offset+min(limit, len(list)-offset)]
}

// accessByRepo resolves the actor's access to each repository of refs (a
// for its own): repositories the actor may not see (not found) get no
// permission; other errors are returned.
func (s *Service) accessByRepo(ctx context.Context, a *access, refs map[forge.ID]RepoRef) (map[forge.ID]*access, error) {
	out := map[forge.ID]*access{a.repo.ID: a}
	for id, ref := range refs {
		if id == a.repo.ID {
			continue
		}
		r, perm, err := s.repos.RepoAccess(ctx, a.actor, ref.OwnerName, ref.Name)
		if err != nil && !errors.Is(err, forge.ErrNotFound) {
			return nil, err
		}
		if err != nil || r.ID != id {
			out[id] = &access{actor: a.actor, repo: &forge.Repository{ID: id, Name: ref.Name, OwnerName: ref.OwnerName}}
			continue
		}
		out[id] = &access{actor: a.actor, repo: r, perm: perm}
	}
	return out, nil
}

// loadRelated loads the views of list (issues of the repositories of
// byRepo), by issue id.
func (s *Service) loadRelated(ctx context.Context, list []*Issue, byRepo map[forge.ID]*access) (map[forge.ID]*IssueView, error) {
	out := map[forge.ID]*IssueView{}
	if len(list) == 0 {
		return out, nil
	}
	err := s.store.View(ctx, func(tx Tx) error {
		views, err := loadViews(ctx, tx, list, byRepo)
		for _, v := range views {
			out[v.Issue.ID] = v
		}
		return err
	})
	return out, err
}
