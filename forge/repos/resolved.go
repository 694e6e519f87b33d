package repos

import (
	"context"
	"sync"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// Resolved is a repository with one actor's access to it, resolved by the
// Service (Resolve, ResolveByID) at the start of a workflow of another
// domain (a pull request's merge or update), so that the workflow's inner
// steps in this package (reading a branch, its commit statuses, deleting
// the head branch, recording the merge's ref move) apply their rules to
// the access resolved once instead of resolving it again at every step.
//
// Its fields are unexported: a Resolved is made only by this package,
// with the access the store grants at that moment, so holding one proves
// the resolution. Each method still applies the rule of the operation it
// stands for (token scope, unit access, archived state, protection rules,
// read at the moment of the change), only not the resolution. A Resolved
// is resolved again when it is older than resolvedMaxAge: a value kept
// beyond a workflow acts with the access of now, not of then. The zero
// value (and nil) is refused as a repository not found.
type Resolved struct {
	s     *Service
	actor forge.Actor
	mu    sync.Mutex
	v     *View
	at    time.Time
}

// resolvedMaxAge is how long a Resolved is trusted before its access is
// resolved again: longer than a workflow takes, so that a workflow
// resolves once, and short enough that a value kept beyond it acts with
// the access of now.
const resolvedMaxAge = time.Minute

// Resolve resolves owner/name for actor as RepoAccess does (the account
// state, no token scope: each method of the Resolved checks the scope of
// its operation; ErrRepoNotFound or *OwnerNotFoundError for a repository
// the actor may not see).
func (s *Service) Resolve(ctx context.Context, actor forge.Actor, owner, name string) (*Resolved, error) {
	v, err := s.resolveView(ctx, actor, owner, name)
	if err != nil {
		return nil, err
	}
	return &Resolved{s: s, actor: actor, v: v, at: s.clock.Now()}, nil
}

// ResolveByID is Resolve for the repository of that id, as RepoAccessByID
// (ErrRepoNotFound for a missing repository and an invisible one alike).
func (s *Service) ResolveByID(ctx context.Context, actor forge.Actor, id forge.ID) (*Resolved, error) {
	v, err := s.resolveViewByID(ctx, actor, id)
	if err != nil {
		return nil, err
	}
	return &Resolved{s: s, actor: actor, v: v, at: s.clock.Now()}, nil
}

// Repo returns a copy of the repository as resolved (its owner's name
// set); nil for the zero Resolved.
func (r *Resolved) Repo() *forge.Repository {
	if r == nil || r.v == nil {
		return nil
	}
	c := *r.v.Repo
	return &c
}

// Perm is the actor's access to the repository as resolved.
func (r *Resolved) Perm() forge.Permission {
	if r == nil || r.v == nil {
		return forge.Permission{}
	}
	return r.v.Perm
}

// view returns the resolved view, resolved again by id when it is older
// than resolvedMaxAge. A zero or nil Resolved is ErrRepoNotFound.
func (r *Resolved) view(ctx context.Context) (*View, error) {
	if r == nil || r.s == nil || r.v == nil {
		return nil, ErrRepoNotFound
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	now := r.s.clock.Now()
	if age := now.Sub(r.at); age >= 0 && age < resolvedMaxAge {
		return r.v, nil
	}
	v, err := r.s.resolveViewByID(ctx, r.actor, r.v.Repo.ID)
	if err != nil {
		return nil, err
	}
	r.v, r.at = v, now
	return v, nil
}

// checked is view for an operation that needs level of the repository
// token scope and passes every rule.
func (r *Resolved) checked(ctx context.Context, level forge.AccessLevel, rules ...func(*View) error) (*View, error) {
	v, err := r.view(ctx)
	if err != nil {
		return nil, err
	}
	if err := r.actor.Check(level, forge.CategoryRepository); err != nil {
		return nil, err
	}
	for _, rule := range rules {
		if err := rule(v); err != nil {
			return nil, err
		}
	}
	return v, nil
}

// reader is view with Service.reader's rule for a read of the code
// (read:repository, reqRepoReader(code)).
func (r *Resolved) reader(ctx context.Context) (*View, error) {
	return r.checked(ctx, forge.AccessRead, func(v *View) error { return requireUnitRead(v, forge.UnitCode) })
}

// writer is view with Service.writer's rule for a write of the code
// (write:repository, reqRepoWriter(code), not archived).
func (r *Resolved) writer(ctx context.Context) (*View, error) {
	return r.checked(ctx, forge.AccessWrite, requireWrite, func(v *View) error { return checkWritable(v.Repo) })
}

// Branch is GetBranch on the resolved repository.
func (r *Resolved) Branch(ctx context.Context, branch string) (*Branch, error) {
	v, err := r.reader(ctx)
	if err != nil {
		return nil, err
	}
	rr, p, err := r.s.refRules(ctx, r.actor, v)
	if err != nil {
		return nil, err
	}
	return r.s.getBranch(ctx, v, branchRules{rr.Branches, p}, branch)
}

// DeleteBranch is Service.DeleteBranch on the resolved repository: the
// protection rules are read at the moment of the deletion.
func (r *Resolved) DeleteBranch(ctx context.Context, branch string) error {
	v, err := r.writer(ctx)
	if err != nil {
		return err
	}
	return r.s.deleteBranch(ctx, r.actor, v, branch)
}

// CombinedStatus is Service.CombinedStatus on the resolved repository.
func (r *Resolved) CombinedStatus(ctx context.Context, rev string) (string, StatusState, []*CommitStatus, error) {
	v, err := r.reader(ctx)
	if err != nil {
		return "", "", nil, err
	}
	return r.s.combinedStatus(ctx, r.actor, v, rev)
}

// AfterPush is Service.AfterPush on the resolved repository: it records
// the ref moves of a git write the actor made in it (a merge) as a push.
func (r *Resolved) AfterPush(ctx context.Context, updates []RefUpdate) error {
	v, err := r.writer(ctx)
	if err != nil {
		return err
	}
	return r.s.recordRefMoves(ctx, refMoves{actor: r.actor, repo: v.Repo.ID, updates: updates})
}
