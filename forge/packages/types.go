package packages

import (
	"regexp"
	"strings"
	"time"
	"unicode"

	"github.com/hearthforge/hearth/forge"
)

// Type is a package type, by Forgejo's name.
type Type string

// TypeGeneric is the generic registry's type, the one Hearth serves.
const TypeGeneric Type = "generic"

// Types are the package types Forgejo knows (the type filter of
// listPackages).
var Types = []Type{"alpine", "arch", "cargo", "chef", "composer", "conan", "conda", "container", "cran", "debian",
	TypeGeneric, "go", "helm", "maven", "npm", "nuget", "pub", "pypi", "rpm", "rubygems", "swift", "vagrant"}

// typeNames are the display names of Forgejo's models/packages Type.Name.
var typeNames = map[Type]string{
	"alpine": "Alpine", "arch": "Arch", "cargo": "Cargo", "chef": "Chef", "composer": "Composer",
	"conan": "Conan", "conda": "Conda", "container": "Container", "cran": "CRAN", "debian": "Debian",
	TypeGeneric: "Generic", "go": "Go", "helm": "Helm", "maven": "Maven", "npm": "npm", "nuget": "NuGet",
	"pub": "Pub", "pypi": "PyPI", "rpm": "RPM", "rubygems": "RubyGems", "swift": "Swift", "vagrant": "Vagrant",
}

// Name is the type's display name, as Forgejo shows it (the `type` of
// /user/quota/packages): "Generic" for generic, "npm" for npm. A type
// Forgejo does not know is its own name.
func (t Type) Name() string {
	if n, ok := typeNames[t]; ok {
		return n
	}
	return string(t)
}

// Package is an owner's package (Forgejo's package).
type Package struct {
	ID      forge.ID
	OwnerID forge.ID
	// RepoID is the repository the package is linked to, 0 if none.
	RepoID  forge.ID
	Type    Type
	Name    string
	Created time.Time
}

// Version is a version of a package (Forgejo's package_version).
type Version struct {
	ID        forge.ID
	PackageID forge.ID
	CreatorID forge.ID
	Version   string
	Created   time.Time
}

// File is a file of a version (Forgejo's package_file and its blob).
type File struct {
	ID        forge.ID
	VersionID forge.ID
	Name      string
	// BlobKey names the bytes in the blob store.
	BlobKey                   string
	Size                      int64
	MD5, SHA1, SHA256, SHA512 string
	Created                   time.Time
}

// VersionRef is a version with its package.
type VersionRef struct {
	Package *Package
	Version *Version
}

// Filter selects the versions of SearchVersions.
type Filter struct {
	OwnerID forge.ID
	// Type selects one type; "" all.
	Type Type
	// Query selects packages whose name contains it, ignoring case.
	Query string
}

// Descriptor is a version with everything its JSON shows: package, owner,
// creator (nil if deleted), linked repository (nil if none), files.
type Descriptor struct {
	Package *Package
	Version *Version
	Owner   *forge.User
	Creator *forge.User
	Repo    *forge.Repository
	Files   []*File
}

var (
	packageNameRe = regexp.MustCompile(`\A[-_+.\w]+\z`)
	filenameRe    = regexp.MustCompile(`\A[-_+=:;.()\[\]{}~!@#$%^& \w]+\z`)
)

// ValidGenericName reports whether name may name a generic package
// (routers/api/packages/generic isValidPackageName).
func ValidGenericName(name string) bool {
	if len(name) == 1 && !unicode.IsLetter(rune(name[0])) && !unicode.IsNumber(rune(name[0])) {
		return false
	}
	return packageNameRe.MatchString(name) && name != ".."
}

// ValidGenericFilename reports whether name may name a generic package's
// file (isValidFileName).
func ValidGenericFilename(name string) bool {
	return filenameRe.MatchString(name) && strings.TrimSpace(name) == name && name != "." && name != ".."
}

// ValidGenericVersion reports whether v may be a generic package's version:
// not empty, without surrounding space.
func ValidGenericVersion(v string) bool {
	return v != "" && strings.TrimSpace(v) == v
}
