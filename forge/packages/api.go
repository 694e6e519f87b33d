package packages

import (
	"context"
	"errors"

	"github.com/hearthforge/hearth/forge"
)

// List returns a page of the owner's package versions matching f (its
// OwnerID is set here), newest first, with their number
// (routers/api/v1/packages ListPackages). Access errors: read (see access).
func (s *Service) List(ctx context.Context, actor forge.Actor, owner string, f Filter, o forge.ListOptions) ([]*Descriptor, int64, error) {
	u, err := s.access(ctx, actor, owner, forge.AccessModeRead)
	if err != nil {
		return nil, 0, err
	}
	f.OwnerID = u.ID
	var out []*Descriptor
	var n int64
	err = s.cfg.Store.View(ctx, func(tx Tx) error {
		refs, total, err := tx.SearchVersions(ctx, f, o)
		if err != nil {
			return err
		}
		n, out = total, make([]*Descriptor, 0, len(refs))
		for _, r := range refs {
			d, err := s.describe(ctx, tx, u, r.Package, r.Version)
			if err != nil {
				return err
			}
			out = append(out, d)
		}
		return nil
	})
	return out, n, err
}

// Get returns a package version with its files. ErrPackageNotFound, the
// access errors (read).
func (s *Service) Get(ctx context.Context, actor forge.Actor, owner string, typ Type, name, version string) (*Descriptor, error) {
	u, err := s.access(ctx, actor, owner, forge.AccessModeRead)
	if err != nil {
		return nil, err
	}
	var d *Descriptor
	err = s.cfg.Store.View(ctx, func(tx Tx) error {
		p, v, err := s.version(ctx, tx, u, typ, name, version)
		if err != nil {
			return err
		}
		d, err = s.describe(ctx, tx, u, p, v)
		return err
	})
	return d, err
}

// DeleteVersion deletes a package version with its files (and the package
// with its last version), refunding the owner's quota.
// ErrPackageNotFound, the access errors (write).
func (s *Service) DeleteVersion(ctx context.Context, actor forge.Actor, owner string, typ Type, name, version string) error {
	u, err := s.access(ctx, actor, owner, forge.AccessModeWrite)
	if err != nil {
		return err
	}
	var gone []string
	err = s.cfg.Store.Update(ctx, func(tx Tx) error {
		p, v, err := s.version(ctx, tx, u, typ, name, version)
		if err != nil {
			return err
		}
		gone, err = s.removeVersion(ctx, tx, u, p, v)
		return err
	})
	if err != nil {
		return err
	}
	s.deleteBlobs(ctx, gone)
	return nil
}

// Link links the package to the owner's repository repoName
// (LinkToRepository). ErrPackageNotFound; forge.ErrNotFound for a
// repository the actor may not see; forge.ErrInvalid if the package is
// already linked; ErrNoAccess without write access to the repository's
// packages; the access errors (write).
func (s *Service) Link(ctx context.Context, actor forge.Actor, owner string, typ Type, name, repoName string) error {
	return s.link(ctx, actor, owner, typ, name, repoName)
}

// Unlink removes the package's link to a repository (UnlinkFromRepository);
// nothing to do if it has none. ErrPackageNotFound, ErrNoAccess without
// write access to the linked repository's packages, the access errors
// (write).
func (s *Service) Unlink(ctx context.Context, actor forge.Actor, owner string, typ Type, name string) error {
	return s.link(ctx, actor, owner, typ, name, "")
}

func (s *Service) link(ctx context.Context, actor forge.Actor, owner string, typ Type, name, repoName string) error {
	unlink := repoName == ""
	u, err := s.access(ctx, actor, owner, forge.AccessModeWrite)
	if err != nil {
		return err
	}
	if s.cfg.Repos == nil {
		return forge.Errorf(forge.ErrPrecondition, "packages: repositories are not served")
	}
	var p *Package
	err = s.cfg.Store.View(ctx, func(tx Tx) error {
		var err error
		p, err = tx.PackageByName(ctx, u.ID, typ, name)
		if errors.Is(err, forge.ErrNotFound) {
			return ErrPackageNotFound
		}
		if err == nil && unlink && p.RepoID != 0 {
			var r *forge.Repository
			if r, err = tx.RepoByID(ctx, p.RepoID); err == nil {
				repoName = r.Name
			}
		}
		return err
	})
	switch {
	case err != nil:
		return err
	case unlink && p.RepoID == 0:
		return nil // not linked: nothing to undo
	case !unlink && p.RepoID != 0:
		return forge.Errorf(forge.ErrInvalid, "package is already linked to a repository")
	}
	repo, perm, err := s.cfg.Repos.RepoAccess(ctx, actor, u.Name, repoName)
	if err != nil {
		return err
	}
	if repo.OwnerID != u.ID || !perm.CanWrite(forge.UnitPackages) {
		return ErrNoAccess
	}
	target := repo.ID
	if unlink {
		target = 0
	}
	return s.cfg.Store.Update(ctx, func(tx Tx) error { return tx.SetPackageRepo(ctx, p.ID, target) })
}

// describe loads what a version's JSON shows.
func (s *Service) describe(ctx context.Context, tx Tx, owner *forge.User, p *Package, v *Version) (*Descriptor, error) {
	d := &Descriptor{Package: p, Version: v, Owner: owner}
	if v.CreatorID != 0 {
		c, err := tx.UserByID(ctx, v.CreatorID)
		if err != nil && !errors.Is(err, forge.ErrNotFound) {
			return nil, err
		}
		d.Creator = c
	}
	if p.RepoID != 0 {
		r, err := tx.RepoByID(ctx, p.RepoID)
		if err != nil && !errors.Is(err, forge.ErrNotFound) {
			return nil, err
		}
		d.Repo = r
	}
	files, err := tx.ListFiles(ctx, v.ID)
	d.Files = files
	return d, err
}
