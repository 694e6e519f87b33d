package repos

import (
	"context"
	"errors"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// Fork copies owner/name (every branch and tag) into a repository of the
// actor called forkName ("" keeps the name), linked to its parent. Readers
// may fork. forge.ErrConflict when the actor has a repository of that name
// or already forked this one; forge.ErrInvalid for forking one's own
// repository under its own name.
func (s *Service) Fork(ctx context.Context, actor forge.Actor, owner, name, forkName string) (*View, error) {
	return s.ForkInto(ctx, actor, owner, name, forkName, "")
}

// ForkInto is Fork into the organisation called org ("" for the actor's
// own account: CreateForkOption's organization). Site administrators and
// the organisation's members may; the fork joins the organisation's teams
// that include all repositories, and its creator becomes an admin
// collaborator unless already an administrator (as CreateInOrg). Errors
// besides Fork's: forge.ErrInvalid `org does not exist [id: 0, name: x]`
// (Forgejo's 422) for a name of no organisation; forge.ErrForbidden `user
// is no member of organisation 'x'`.
func (s *Service) ForkInto(ctx context.Context, actor forge.Actor, owner, name, forkName, org string) (*View, error) {
	if err := actor.Check(forge.AccessWrite, forge.CategoryRepository); err != nil {
		return nil, err
	}
	if !actor.IsSignedIn() {
		return nil, forge.Errorf(forge.ErrUnauthenticated, "token is required")
	}
	parent, err := s.reader(ctx, actor, owner, name)
	if err != nil {
		return nil, err
	}
	if forkName == "" {
		forkName = parent.Repo.Name
	}
	if err := ValidateName(forkName); err != nil {
		return nil, err
	}
	now := s.clock.Now()
	var v *View
	err = s.store.Update(ctx, func(tx Tx) error {
		forker := actor.User
		if org != "" {
			var err error
			if forker, err = forkOrg(ctx, tx, actor, org); err != nil {
				return err
			}
		}
		mine, _, err := tx.ListRepos(ctx, RepoFilter{OwnerID: forker.ID, ForkOf: parent.Repo.ID, AllVisible: true}, forge.ListOptions{Page: 1, Limit: 1})
		if err != nil {
			return err
		}
		if err := s.checkOwnerQuota(ctx, tx, forker, forkIsPrivate(parent.Repo, parent.Owner), parent.Repo.Size); err != nil {
			return err
		}
		if len(mine) > 0 || parent.Repo.OwnerID == forker.ID && forkName == parent.Repo.Name {
			return forge.Errorf(forge.ErrConflict, "repository is already forked by user [uname: %s, repo path: %s, fork path: %s/%s]",
				forker.Name, parent.Repo.FullName(), forker.Name, forkName)
		}
		r := *parent.Repo
		r.ID, r.OwnerID, r.OwnerName, r.Name, r.ForkID = 0, forker.ID, forker.Name, forkName, parent.Repo.ID
		// A fork is private when its parent is, or the parent's owner is
		// private (Forgejo's ForkRepository).
		r.Private = forkIsPrivate(parent.Repo, parent.Owner)
		r.NumStars, r.NumWatches, r.NumForks, r.Archived, r.ArchivedAt = 0, 0, 0, false, time.Time{}
		r.Topics, r.Created, r.Updated = []string{}, now, now
		// The fork gets its own copy of the avatar (copyAvatar, below),
		// never the parent's key: deleting one must not delete the other.
		r.Avatar, r.Status = "", forge.RepoCreating
		if err := tx.CreateRepo(ctx, &r); err != nil {
			if errors.Is(err, forge.ErrConflict) {
				return forge.Errorf(forge.ErrConflict, "repository already exists [uname: %s, name: %s]", forker.Name, forkName)
			}
			return err
		}
		if err := tx.RecountForks(ctx, parent.Repo.ID); err != nil {
			return err
		}
		// The forker watches the fork (Forgejo's CreateRepositoryByExample
		// with AutoWatchNewRepos).
		if !s.cfg.DisableAutoWatch {
			if err := tx.SetWatch(ctx, r.ID, actor.User.ID, WatchNormal, now); err != nil {
				return err
			}
		}
		if forker.IsOrganization() {
			if err := joinOrgTeams(ctx, tx, actor, &r); err != nil {
				return err
			}
		}
		v = &View{Repo: &r, Owner: forker}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if err := s.git.Fork(ctx, parent.Repo.ID, v.Repo.ID); err != nil {
		if rerr := s.removeRepo(context.WithoutCancel(ctx), v.Repo.ID); rerr != nil {
			s.log.Error("repos: undoing a failed fork", "repo", v.Repo.ID, "err", rerr)
		}
		return nil, err
	}
	if err := s.refresh(ctx, v.Repo.ID); err != nil {
		return nil, err
	}
	avatar := s.copyAvatar(ctx, parent.Repo.Avatar, v.Repo.ID)
	err = s.store.Update(ctx, func(tx Tx) error {
		r, err := tx.RepoByID(ctx, v.Repo.ID)
		if err != nil {
			return err
		}
		r.Status, r.Avatar = forge.RepoReady, avatar
		if err := tx.UpdateRepo(ctx, r); err != nil {
			return err
		}
		if err := reread(ctx, tx, actor, v); err != nil {
			return err
		}
		return s.appendOutbox(ctx, tx, OutboxRepoForked, OutboxEvent{Actor: actor, Repo: v.Repo, Parent: parent.Repo})
	})
	if err != nil {
		return nil, err
	}
	s.signalOutbox()
	s.notifyForked(ctx, actor, parent.Repo, v.Repo)
	return v, nil
}

// copyAvatar stores a copy of the avatar blob key under a new key for
// repository id and returns it; "" when there is none or the copy fails
// (a fork without an avatar is better than one sharing its parent's).
func (s *Service) copyAvatar(ctx context.Context, key string, id forge.ID) string {
	if key == "" || s.cfg.Blobs == nil {
		return ""
	}
	src, err := s.cfg.Blobs.Open(ctx, key)
	if err != nil {
		return ""
	}
	defer src.Close()
	dst := avatarKey(id, s.clock.Now())
	if _, err := s.cfg.Blobs.Put(ctx, dst, src, MaxAvatarBytes); err != nil {
		s.log.Warn("repos: copying a fork's avatar", "repo", id, "err", err)
		return ""
	}
	return dst
}

// Parent returns the repository the fork with id fork was made from, as
// the actor sees it: nil and no error when fork is not a fork, or its
// parent is gone or invisible to the actor. The fork itself must be
// readable (ErrRepoNotFound otherwise, as GetByID); the account state and
// token scope errors of forge.Actor.Check and the store's errors are
// returned, never taken for "no parent".
func (s *Service) Parent(ctx context.Context, actor forge.Actor, fork forge.ID) (*View, error) {
	var parent *View
	err := s.store.View(ctx, func(tx Tx) error {
		v, err := loadByID(ctx, tx, actor, fork)
		if err != nil || v.Repo.ForkID == 0 {
			return err
		}
		parent, err = loadByID(ctx, tx, actor, v.Repo.ForkID)
		if errors.Is(err, ErrRepoNotFound) {
			parent, err = nil, nil
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return parent, nil
}

// forkIsPrivate is the visibility a fork of base, owned by baseOwner, must
// have: private when base is, or when baseOwner is a private user or
// organisation (Forgejo's ForkRepository and updateRepository). A pure
// rule.
func forkIsPrivate(base *forge.Repository, baseOwner *forge.User) bool {
	return base.Private || baseOwner.Visibility == forge.VisibilityPrivate
}

// forkPrivate is forkIsPrivate for the base repository with id baseID,
// read in tx: forge.ErrNotFound when it is gone.
func forkPrivate(ctx context.Context, tx Tx, baseID forge.ID) (bool, error) {
	base, err := tx.RepoByID(ctx, baseID)
	if err != nil {
		return false, err
	}
	owner, err := tx.UserByID(ctx, base.OwnerID)
	if err != nil {
		return false, err
	}
	return forkIsPrivate(base, owner), nil
}

// maxForkCascade bounds the forks one visibility change visits.
const maxForkCascade = 10_000

// syncForkVisibility makes the forks of base (and theirs, in turn) follow
// its visibility after it changed, as Forgejo's updateRepository does: a
// fork is private when its base is private or the base's owner is a
// private user or organisation. Run inside the edit's transaction.
func syncForkVisibility(ctx context.Context, tx Tx, base *forge.Repository, baseOwner *forge.User, now time.Time) error {
	type item struct {
		repo  *forge.Repository
		owner *forge.User
	}
	queue := []item{{base, baseOwner}}
	seen := map[forge.ID]bool{base.ID: true}
	for len(queue) > 0 {
		it := queue[0]
		queue = queue[1:]
		private := forkIsPrivate(it.repo, it.owner)
		for page := 1; ; page++ {
			forks, _, err := tx.ListRepos(ctx, RepoFilter{ForkOf: it.repo.ID, AllVisible: true}, forge.ListOptions{Page: page, Limit: 50})
			if err != nil {
				return err
			}
			for _, f := range forks {
				if seen[f.ID] {
					continue
				}
				if len(seen) >= maxForkCascade {
					return forge.Errorf(forge.ErrPrecondition, "too many forks to change their visibility")
				}
				seen[f.ID] = true
				owner, err := tx.UserByID(ctx, f.OwnerID)
				if err != nil {
					return err
				}
				if f.Private != private {
					f.Private, f.Updated = private, now
					if err := tx.UpdateRepo(ctx, f); err != nil {
						return err
					}
				}
				queue = append(queue, item{f, owner})
			}
			if len(forks) < 50 {
				break
			}
		}
	}
	return nil
}

// forkOrg resolves the organisation a fork goes to, inside tx (ForkInto's
// rules).
func forkOrg(ctx context.Context, tx Tx, actor forge.Actor, org string) (*forge.User, error) {
	u, err := tx.UserByName(ctx, org)
	if errors.Is(err, forge.ErrNotFound) || err == nil && !u.IsOrganization() {
		return nil, forge.Errorf(forge.ErrInvalid, "org does not exist [id: 0, name: %s]", org)
	} else if err != nil {
		return nil, err
	}
	if actor.User.IsAdmin {
		return u, nil
	}
	member, err := isMember(ctx, tx, actor, u)
	if err != nil {
		return nil, err
	}
	if !member {
		return nil, forge.Errorf(forge.ErrForbidden, "user is no member of organisation '%s'", u.Name)
	}
	return u, nil
}

// ForkOf returns the fork of the repository with id baseID that the user
// or organisation called owner holds, whatever its name, with the actor's
// permission on it (Forgejo's GetForkedRepo, as parseCompareInfo uses it
// for heads written "owner:branch"; issues.PullForks). An owner holds at
// most one fork of a repository (ForkInto refuses a second).
// ErrRepoNotFound when the owner is unknown, holds no such fork, or the
// fork is invisible to the actor, alike; the account state and token scope
// errors of forge.Actor.Check and the store's errors as they are.
func (s *Service) ForkOf(ctx context.Context, actor forge.Actor, baseID forge.ID, owner string) (*forge.Repository, forge.Permission, error) {
	if err := actor.Check(forge.AccessRead, forge.CategoryRepository); err != nil {
		return nil, forge.Permission{}, err
	}
	var v *View
	err := s.store.View(ctx, func(tx Tx) error {
		u, err := tx.UserByName(ctx, owner)
		if errors.Is(err, forge.ErrNotFound) {
			return ErrRepoNotFound
		} else if err != nil {
			return err
		}
		forks, _, err := tx.ListRepos(ctx, RepoFilter{OwnerID: u.ID, ForkOf: baseID, AllVisible: true}, forge.ListOptions{Page: 1, Limit: 1})
		if err != nil {
			return err
		}
		if len(forks) == 0 {
			return ErrRepoNotFound
		}
		v, err = resolve(ctx, tx, actor, u.Name, forks[0].Name)
		if _, ok := err.(*OwnerNotFoundError); ok {
			return ErrRepoNotFound
		}
		return err
	})
	if err != nil {
		return nil, forge.Permission{}, err
	}
	return v.Repo, v.Perm, nil
}
