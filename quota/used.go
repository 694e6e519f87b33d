package quota

import "github.com/hearthforge/hearth/forge"

// Bucket is one usage counter of an owner: a leaf of the subject tree that
// holds bytes. Every write that changes what quota counts adds its delta to
// exactly one bucket of exactly one owner (the repository's owner, or the
// package's owner for a package not linked to a repository).
type Bucket string

// The buckets, named as their subjects.
const (
	// BucketReposPublic: git size of the owner's public repositories.
	BucketReposPublic Bucket = "size:repos:public"
	// BucketReposPrivate: git size of the owner's private repositories.
	BucketReposPrivate Bucket = "size:repos:private"
	// BucketLFS: LFS objects of the owner's repositories.
	BucketLFS Bucket = "size:git:lfs"
	// BucketAttachmentsIssues: attachments of issues and comments of the
	// owner's repositories.
	BucketAttachmentsIssues Bucket = "size:assets:attachments:issues"
	// BucketAttachmentsReleases: release assets of the owner's repositories.
	BucketAttachmentsReleases Bucket = "size:assets:attachments:releases"
	// BucketArtifacts: compressed size of the unexpired Actions artifacts of
	// the owner's repositories.
	BucketArtifacts Bucket = "size:assets:artifacts"
	// BucketPackages: blob sizes of the files of the owner's packages (or of
	// the packages linked to the owner's repositories), counted once per file.
	BucketPackages Bucket = "size:assets:packages:all"
)

// Buckets lists every bucket.
var Buckets = []Bucket{
	BucketReposPublic, BucketReposPrivate, BucketLFS, BucketAttachmentsIssues,
	BucketAttachmentsReleases, BucketArtifacts, BucketPackages,
}

// Valid reports whether b is one of Buckets.
func (b Bucket) Valid() bool {
	for _, v := range Buckets {
		if v == b {
			return true
		}
	}
	return false
}

// Derived reports whether the store keeps b itself from its own rows, in
// the transaction that writes them: the git size of repositories (their
// Size, public or private by their flag) and the issue, comment and
// release attachments (per-repository counters the store updates with
// every attachment row it inserts or deletes, cascades included). The
// other buckets (LFS, artifacts, packages) are counters their domains
// change with AddUsage (through Charge).
func (b Bucket) Derived() bool {
	switch b {
	case BucketReposPublic, BucketReposPrivate, BucketAttachmentsIssues, BucketAttachmentsReleases:
		return true
	}
	return false
}

// Subject returns the leaf subject b counts.
func (b Bucket) Subject() Subject { return Subject(b) }

// RepoBucket is the bucket of a repository's git size: public or private by
// the repository's own flag (not its owner's visibility), as Forgejo.
func RepoBucket(private bool) Bucket {
	if private {
		return BucketReposPrivate
	}
	return BucketReposPublic
}

// Used is the usage of one owner, in bytes per bucket: the leaves Forgejo's
// QuotaUsed exposes. The zero value is no usage.
type Used struct {
	ReposPublic         int64
	ReposPrivate        int64
	LFS                 int64
	AttachmentsIssues   int64
	AttachmentsReleases int64
	Artifacts           int64
	Packages            int64
}

// field returns the counter of b, nil for an unknown bucket.
func (u *Used) field(b Bucket) *int64 {
	switch b {
	case BucketReposPublic:
		return &u.ReposPublic
	case BucketReposPrivate:
		return &u.ReposPrivate
	case BucketLFS:
		return &u.LFS
	case BucketAttachmentsIssues:
		return &u.AttachmentsIssues
	case BucketAttachmentsReleases:
		return &u.AttachmentsReleases
	case BucketArtifacts:
		return &u.Artifacts
	case BucketPackages:
		return &u.Packages
	}
	return nil
}

// Get returns the counter of b (0 for an unknown bucket).
func (u Used) Get(b Bucket) int64 {
	if p := u.field(b); p != nil {
		return *p
	}
	return 0
}

// Set sets the counter of b; forge.ErrInvalid for an unknown bucket.
func (u *Used) Set(b Bucket, v int64) error {
	p := u.field(b)
	if p == nil {
		return forge.Errorf(forge.ErrInvalid, "unknown quota bucket %q", string(b))
	}
	*p = v
	return nil
}

// Add adds delta to the counter of b; forge.ErrInvalid for an unknown
// bucket.
func (u *Used) Add(b Bucket, delta int64) error {
	p := u.field(b)
	if p == nil {
		return forge.Errorf(forge.ErrInvalid, "unknown quota bucket %q", string(b))
	}
	*p += delta
	return nil
}

// Of returns the usage of subject s: the sum of the buckets below it
// (models/quota/used.go CalculateFor). size:assets:wiki and none are 0.
func (u Used) Of(s Subject) int64 {
	var n int64
	for _, b := range Buckets {
		if s.Covers(b.Subject()) {
			n += u.Get(b)
		}
	}
	return n
}

// Drift is the difference between counters and a recount of one owner.
type Drift struct {
	Owner forge.ID
	// Counted is what the counters held; Actual what the source rows sum to.
	Counted, Actual Used
}

// None reports whether the counters were right.
func (d Drift) None() bool { return d.Counted == d.Actual }
