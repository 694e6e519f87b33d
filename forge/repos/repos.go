package repos

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// CreateOptions are Forgejo's CreateRepoOption.
type CreateOptions struct {
	Name          string
	Description   string
	Private       bool
	AutoInit      bool
	Template      bool
	Gitignores    string
	License       string
	Readme        string
	DefaultBranch string
	// ObjectFormat "" means sha1.
	ObjectFormat forge.ObjectFormat
}

// Create makes a repository owned by the user called owner ("" for the
// actor). The actor must be that user or a site administrator.
//
// Errors: forge.ErrForbidden; forge.ErrNotFound for an unknown owner;
// forge.ErrInvalid for a bad name, object format or template;
// forge.ErrConflict `The repository with the same name already exists.`.
func (s *Service) Create(ctx context.Context, actor forge.Actor, owner string, o CreateOptions) (*View, error) {
	if !actor.IsSignedIn() {
		return nil, forge.Errorf(forge.ErrUnauthenticated, "token is required")
	}
	if err := ValidateName(o.Name); err != nil {
		return nil, err
	}
	if o.ObjectFormat == "" {
		o.ObjectFormat = forge.SHA1
	}
	if !o.ObjectFormat.Valid() || (o.ObjectFormat == forge.SHA256 && s.cfg.DisableSHA256) {
		return nil, forge.Errorf(forge.ErrInvalid, "invalid object format: %s", o.ObjectFormat)
	}
	branch := o.DefaultBranch
	if branch == "" {
		branch = s.cfg.DefaultBranch
	}
	if strings.ContainsAny(branch, " ~^:?*[\\") || strings.HasPrefix(branch, "-") || strings.Contains(branch, "..") {
		return nil, forge.Errorf(forge.ErrInvalid, "[DefaultBranch]: GitRefName")
	}
	now := s.clock.Now()
	var v *View
	err := s.store.Update(ctx, func(tx Tx) error {
		u := actor.User
		if owner != "" && !strings.EqualFold(owner, actor.User.Name) {
			var err error
			if u, err = tx.UserByName(ctx, owner); err != nil {
				if errors.Is(err, forge.ErrNotFound) {
					return forge.Errorf(forge.ErrNotFound, "user redirect does not exist [name: %s]", strings.ToLower(owner))
				}
				return err
			}
			if !actor.IsSiteAdmin() {
				return forge.Errorf(forge.ErrForbidden, "user should be the site admin")
			}
		}
		r := &forge.Repository{
			OwnerID: u.ID, OwnerName: u.Name, Name: o.Name, Description: o.Description, Private: o.Private,
			Template: o.Template, DefaultBranch: branch, ObjectFormat: o.ObjectFormat, Empty: true,
			HasIssues: true, HasWiki: true, HasPullRequests: true, HasProjects: true, HasReleases: true,
			HasPackages: true, HasActions: false,
			AllowMerge: true, AllowRebase: true, AllowRebaseExplicit: true, AllowSquash: true,
			AllowFastForwardOnly: true, AllowRebaseUpdate: true, DefaultMergeStyle: "merge", DefaultUpdateStyle: "merge",
			InternalTracker: &forge.InternalTracker{EnableTimeTracker: true, AllowOnlyContributorsToTrackTime: true, EnableIssueDependencies: true},
			Topics:          []string{}, Created: now, Updated: now,
		}
		if err := tx.CreateRepo(ctx, r); err != nil {
			if errors.Is(err, forge.ErrConflict) {
				return forge.Errorf(forge.ErrConflict, "The repository with the same name already exists.")
			}
			return err
		}
		v = &View{Repo: r, Owner: u, Perm: forge.AccessModeOwner}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if err := s.initGit(ctx, actor, v.Repo, o); err != nil {
		// Undo the row: a repository without files must not remain.
		s.store.Update(ctx, func(tx Tx) error { return tx.DeleteRepo(ctx, v.Repo.ID) })
		s.git.Remove(ctx, v.Repo.ID)
		return nil, err
	}
	return v, nil
}

func (s *Service) initGit(ctx context.Context, actor forge.Actor, r *forge.Repository, o CreateOptions) error {
	var files []FileOp
	if o.AutoInit {
		var err error
		if files, err = initFiles(r, o, s.clock.Now().Year()); err != nil {
			return err
		}
	}
	if err := s.git.Create(ctx, r.ID, r.ObjectFormat, r.DefaultBranch); err != nil {
		return err
	}
	if len(files) > 0 {
		sig := Signature{Name: actor.User.Name, Email: actor.User.Email, When: s.clock.Now()}
		if _, err := s.git.Apply(ctx, r.ID, ChangeSet{NewBranch: r.DefaultBranch, Message: "Initial commit\n",
			Author: sig, Committer: sig, Files: files}); err != nil {
			return err
		}
	}
	return s.refresh(ctx, r.ID)
}

// refresh records what the git repository says: its size and whether it
// is empty. Hosts call AfterPush, which does this, when git changes the
// repository behind the service's back (pushes).
func (s *Service) refresh(ctx context.Context, id forge.ID) error {
	size, err := s.git.Size(ctx, id)
	if err != nil {
		return err
	}
	refs, err := s.git.Refs(ctx, id)
	if err != nil {
		return err
	}
	now := s.clock.Now()
	return s.store.Update(ctx, func(tx Tx) error {
		r, err := tx.RepoByID(ctx, id)
		if err != nil {
			return err
		}
		r.Size = size
		hasBranch, hasDefault := "", false
		for _, ref := range refs {
			if b, ok := strings.CutPrefix(ref.Name, "refs/heads/"); ok {
				if hasBranch == "" {
					hasBranch = b
				}
				hasDefault = hasDefault || b == r.DefaultBranch
			}
		}
		r.Empty = hasBranch == ""
		if !hasDefault && hasBranch != "" {
			r.DefaultBranch = hasBranch // the first push names the default branch
		}
		r.Updated = now
		return tx.UpdateRepo(ctx, r)
	})
}

// AfterPush brings the stored state of a repository (size, emptiness,
// default branch) up to date after git changed it, typically after a push
// through smart HTTP, then tells Config.PushListeners.
func (s *Service) AfterPush(ctx context.Context, actor forge.Actor, repo forge.ID, updates []RefUpdate) error {
	if err := s.refresh(ctx, repo); err != nil {
		return err
	}
	if len(s.cfg.PushListeners) == 0 {
		return nil
	}
	var r *forge.Repository
	if err := s.store.View(ctx, func(tx Tx) error {
		var err error
		if r, err = tx.RepoByID(ctx, repo); err != nil {
			return err
		}
		owner, err := tx.UserByID(ctx, r.OwnerID)
		if err == nil {
			r.OwnerName = owner.Name
		}
		return err
	}); err != nil {
		return err
	}
	for _, l := range s.cfg.PushListeners {
		l.AfterPush(ctx, actor, r, updates)
	}
	return nil
}

// Delete removes owner/name and its files. Only the owner or a site
// administrator may (forge.ErrForbidden `user should be the owner of the
// repo`).
func (s *Service) Delete(ctx context.Context, actor forge.Actor, owner, name string) error {
	var id forge.ID
	err := s.store.Update(ctx, func(tx Tx) error {
		v, err := load(ctx, tx, actor, owner, name)
		if err != nil {
			return err
		}
		if v.Perm < forge.AccessModeOwner {
			return forge.Errorf(forge.ErrForbidden, "user should be the owner of the repo")
		}
		id = v.Repo.ID
		if err := tx.DeleteRepo(ctx, id); err != nil {
			return err
		}
		if v.Repo.ForkID != 0 {
			return tx.RecountForks(ctx, v.Repo.ForkID)
		}
		return nil
	})
	if err != nil {
		return err
	}
	return s.git.Remove(ctx, id)
}

// List returns one page of the repositories matching f that the actor may
// see, with the actor's permission on each.
func (s *Service) List(ctx context.Context, actor forge.Actor, f RepoFilter, o forge.ListOptions) ([]*View, int64, error) {
	f.VisibleTo, f.AllVisible = actor.UserID(), actor.IsSiteAdmin()
	if actor.Scoped && actor.Scope.PublicOnly {
		f.VisibleTo, f.AllVisible = 0, false
	}
	var (
		out   []*View
		total int64
	)
	err := s.store.View(ctx, func(tx Tx) error {
		list, n, err := tx.ListRepos(ctx, f, o.Normalize())
		if err != nil {
			return err
		}
		total = n
		owners := map[forge.ID]*forge.User{}
		for _, r := range list {
			u := owners[r.OwnerID]
			if u == nil {
				if u, err = tx.UserByID(ctx, r.OwnerID); err != nil {
					return err
				}
				owners[r.OwnerID] = u
			}
			r.OwnerName = u.Name
			collab := forge.AccessNone
			if actor.IsSignedIn() {
				if collab, err = tx.CollaboratorMode(ctx, r.ID, actor.User.ID); err != nil {
					return err
				}
			}
			out = append(out, &View{Repo: r, Owner: u, Perm: Permission(actor, r, u, collab)})
		}
		return nil
	})
	if out == nil {
		out = []*View{}
	}
	return out, total, err
}

// OwnerByName resolves a user for listings of their repositories.
func (s *Service) OwnerByName(ctx context.Context, name string) (*forge.User, error) {
	var u *forge.User
	err := s.store.View(ctx, func(tx Tx) error {
		var err error
		u, err = tx.UserByName(ctx, name)
		if errors.Is(err, forge.ErrNotFound) {
			return forge.Errorf(forge.ErrNotFound, "user redirect does not exist [name: %s]", strings.ToLower(name))
		}
		return err
	})
	return u, err
}

// now is the service clock, for callers in this package.
func (s *Service) now() time.Time { return s.clock.Now() }
