package packages

import (
	"context"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/quota"
)

// Store is the persistence of packages. Update runs fn in one transaction
// and commits iff it returns nil; View reads one snapshot.
type Store interface {
	Update(ctx context.Context, fn func(Tx) error) error
	View(ctx context.Context, fn func(Tx) error) error
}

// Tx is one transaction over packages. Names and versions compare
// ignoring case.
//
// It embeds quota.UsageTx: an upload charges the owner's quota in the
// transaction that records the file.
type Tx interface {
	quota.UsageTx
	// UserByID returns forge.ErrNotFound if there is no such user.
	UserByID(ctx context.Context, id forge.ID) (*forge.User, error)
	// UserByName returns the user or organisation; forge.ErrNotFound if
	// none.
	UserByName(ctx context.Context, name string) (*forge.User, error)
	// RepoByID returns forge.ErrNotFound if there is no such repository.
	RepoByID(ctx context.Context, id forge.ID) (*forge.Repository, error)

	// CreatePackage inserts p (p.ID is set); forge.ErrConflict if its
	// owner has a package of that type and name, forge.ErrNotFound if the
	// owner does not exist.
	CreatePackage(ctx context.Context, p *Package) error
	// PackageByName returns forge.ErrNotFound if none.
	PackageByName(ctx context.Context, owner forge.ID, typ Type, name string) (*Package, error)
	// PackageByID returns forge.ErrNotFound if none.
	PackageByID(ctx context.Context, id forge.ID) (*Package, error)
	// SetPackageRepo links the package to repo (0 unlinks);
	// forge.ErrNotFound if either is missing.
	SetPackageRepo(ctx context.Context, id, repo forge.ID) error
	// DeletePackage removes a package with its versions and files;
	// forge.ErrNotFound if none.
	DeletePackage(ctx context.Context, id forge.ID) error

	// CreateVersion inserts v (v.ID is set); forge.ErrConflict if the
	// package has that version.
	CreateVersion(ctx context.Context, v *Version) error
	// VersionByName returns forge.ErrNotFound if none.
	VersionByName(ctx context.Context, pkg forge.ID, version string) (*Version, error)
	// CountVersions returns the number of a package's versions.
	CountVersions(ctx context.Context, pkg forge.ID) (int64, error)
	// DeleteVersion removes a version with its files; forge.ErrNotFound if
	// none.
	DeleteVersion(ctx context.Context, id forge.ID) error
	// SearchVersions returns a page of the versions matching f, newest
	// first, with their packages, and their number.
	SearchVersions(ctx context.Context, f Filter, o forge.ListOptions) ([]VersionRef, int64, error)

	// CreateFile inserts f (f.ID is set); forge.ErrConflict if the version
	// has a file of that name.
	CreateFile(ctx context.Context, f *File) error
	// FileByName returns forge.ErrNotFound if none.
	FileByName(ctx context.Context, version forge.ID, name string) (*File, error)
	// ListFiles returns a version's files by id.
	ListFiles(ctx context.Context, version forge.ID) ([]*File, error)
	// DeleteFile removes a file; forge.ErrNotFound if none.
	DeleteFile(ctx context.Context, id forge.ID) error
}
