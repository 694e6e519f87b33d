package quota

import (
	"context"

	"github.com/hearthforge/hearth/forge"
)

// Store is the persistence of rules, groups, memberships and usage
// counters. Update runs fn in one transaction and commits iff it returns
// nil; View reads one snapshot. Storage does no authorisation.
type Store interface {
	Update(ctx context.Context, fn func(Tx) error) error
	View(ctx context.Context, fn func(Tx) error) error
}

// Tx is one transaction over quota. Rule and group names are compared
// exactly (case matters, as Forgejo's primary keys on SQLite). Values
// returned are the caller's.
type Tx interface {
	UsageTx
	// UserByName finds an account (user or organisation) ignoring case;
	// forge.ErrNotFound if none.
	UserByName(ctx context.Context, name string) (*forge.User, error)

	// CreateRule inserts r. forge.ErrConflict if a rule of that name
	// exists.
	CreateRule(ctx context.Context, r *Rule) error
	// RuleByName returns forge.ErrNotFound if none.
	RuleByName(ctx context.Context, name string) (*Rule, error)
	// UpdateRule writes Limit and Subjects of the rule named r.Name.
	// forge.ErrNotFound if none.
	UpdateRule(ctx context.Context, r *Rule) error
	// DeleteRule removes a rule and detaches it from every group.
	// forge.ErrNotFound if none.
	DeleteRule(ctx context.Context, name string) error
	// ListRules returns every rule ordered by name. Never nil.
	ListRules(ctx context.Context) ([]Rule, error)

	// CreateGroup inserts an empty group. forge.ErrConflict if one of that
	// name exists.
	CreateGroup(ctx context.Context, name string) error
	// GroupByName returns the group with its rules ordered by name;
	// forge.ErrNotFound if none.
	GroupByName(ctx context.Context, name string) (*Group, error)
	// ListGroups returns every group with its rules, ordered by name.
	// Never nil.
	ListGroups(ctx context.Context) ([]Group, error)
	// DeleteGroup removes a group, its rule mappings and its memberships
	// (the rules survive). forge.ErrNotFound if none.
	DeleteGroup(ctx context.Context, name string) error
	// AddGroupRule attaches rule to group. forge.ErrNotFound if either is
	// missing; forge.ErrConflict if already attached.
	AddGroupRule(ctx context.Context, group, rule string) error
	// RemoveGroupRule detaches rule from group. forge.ErrNotFound if either
	// is missing or the rule is not in the group.
	RemoveGroupRule(ctx context.Context, group, rule string) error

	// AddGroupMember makes owner (a user or organisation id) a member of
	// group. forge.ErrNotFound if the group or the account is missing;
	// forge.ErrConflict if already a member.
	AddGroupMember(ctx context.Context, group string, owner forge.ID) error
	// RemoveGroupMember ends a membership. forge.ErrNotFound if the group
	// is missing or owner is not a member.
	RemoveGroupMember(ctx context.Context, group string, owner forge.ID) error
	// RemoveMemberships ends every membership of owner (none is fine).
	RemoveMemberships(ctx context.Context, owner forge.ID) error
	// GroupMembers returns the accounts in group ordered by id.
	// forge.ErrNotFound if the group is missing. Never nil.
	GroupMembers(ctx context.Context, group string) ([]*forge.User, error)

	// ListAttachmentUsage returns one page of the attachments charged to
	// owner (issue, comment and release attachments of its repositories,
	// and unlinked uploads that carry one of its repositories) ordered by
	// size descending then id, and their number.
	ListAttachmentUsage(ctx context.Context, owner forge.ID, o forge.ListOptions) ([]AttachmentUsage, int64, error)

	// RecountUsage computes owner's usage from the source rows: the git
	// size of its repositories by visibility, the attachments of its
	// repositories, and (through the optional interfaces below, when the
	// backend's Tx implements them) LFS objects, artifacts and packages.
	// Buckets with no recounter are returned as the counters hold them.
	RecountUsage(ctx context.Context, owner forge.ID) (Used, error)
	// RebuildUsage recomputes the counters the store derives (the
	// attachment counters of owner's repositories) from the rows. The
	// counters domains keep (LFS, artifacts, packages) are left alone.
	RebuildUsage(ctx context.Context, owner forge.ID) error
	// UsageOwners returns the ids of every owner with counters, ascending.
	// Never nil.
	UsageOwners(ctx context.Context) ([]forge.ID, error)
}

// AttachmentUsage is one attachment charged to an owner, with what its
// API and HTML addresses need (QuotaUsedAttachment). A release attachment
// has ReleaseID and TagName; a comment attachment CommentID and its
// issue's Index; an issue attachment Index; an unlinked upload none.
type AttachmentUsage struct {
	ID        forge.ID
	Name      string
	Size      int64
	RepoID    forge.ID
	OwnerName string
	RepoName  string
	// Index is the number; IsPull tells a pull request.
	Index     int64
	IsPull    bool
	CommentID forge.ID
	ReleaseID forge.ID
	TagName   string
}

// PackageUsage is one package file charged to an owner
// (QuotaUsedPackage; Forgejo lists one row per file of a version).
type PackageUsage struct {
	OwnerName string
	Name      string
	Type      string
	Version   string
	// Size is the sum of the version's blob sizes.
	Size int64
}

// ArtifactUsage is one unexpired Actions artifact charged to an owner
// (QuotaUsedArtifact).
type ArtifactUsage struct {
	Name string
	// Size is the compressed size.
	Size int64
}

// PackageUsageTx is implemented by a backend's quota Tx that stores
// packages (the generic registry): the package list of /quota/packages
// and the recount of BucketPackages. Without it the list is empty.
type PackageUsageTx interface {
	// ListPackageUsage returns one page of the package files charged to
	// owner ordered by size descending, and their number.
	ListPackageUsage(ctx context.Context, owner forge.ID, o forge.ListOptions) ([]PackageUsage, int64, error)
	// RecountPackages sums the blob sizes of the package files charged to
	// owner.
	RecountPackages(ctx context.Context, owner forge.ID) (int64, error)
}

// ArtifactUsageTx is implemented by a backend's quota Tx that stores
// Actions artifacts. Without it the list is empty.
type ArtifactUsageTx interface {
	// ListArtifactUsage returns one page of the unexpired artifacts of
	// owner's repositories ordered by compressed size descending, and
	// their number.
	ListArtifactUsage(ctx context.Context, owner forge.ID, o forge.ListOptions) ([]ArtifactUsage, int64, error)
	// RecountArtifacts sums their compressed sizes.
	RecountArtifacts(ctx context.Context, owner forge.ID) (int64, error)
}

// LFSUsageTx is implemented by a backend's quota Tx that stores LFS
// objects.
type LFSUsageTx interface {
	// RecountLFS sums the sizes of the LFS objects of owner's
	// repositories.
	RecountLFS(ctx context.Context, owner forge.ID) (int64, error)
}
