package forge

import "time"

// ObjectFormat is the hash of a git repository's objects.
type ObjectFormat string

// Object formats, with git's names.
const (
	SHA1   ObjectFormat = "sha1"
	SHA256 ObjectFormat = "sha256"
)

// Valid reports whether f is a known format.
func (f ObjectFormat) Valid() bool { return f == SHA1 || f == SHA256 }

// HexLen is the length of an object id in hex: 40 or 64.
func (f ObjectFormat) HexLen() int {
	if f == SHA256 {
		return 64
	}
	return 40
}

// AccessMode is a user's level of access to a repository, in Forgejo's order.
type AccessMode int

// Access modes.
const (
	AccessNone AccessMode = iota
	AccessModeRead
	AccessModeWrite
	AccessModeAdmin
	AccessModeOwner
)

// Repository is a git repository and its settings. It belongs to an owner,
// a user or (later) an organisation, by OwnerID.
type Repository struct {
	ID            ID
	OwnerID       ID
	OwnerName     string
	Name          string
	Description   string
	Website       string
	Private       bool
	Template      bool
	Archived      bool
	ArchivedAt    time.Time
	DefaultBranch string
	ObjectFormat  ObjectFormat
	// ForkID is the repository this one was forked from, 0 if none.
	ForkID ID
	// Avatar is the blob key of the repository's avatar image, "" if none.
	Avatar string
	// Empty is true until the repository has a commit.
	Empty bool
	// Status is RepoReady except while the repository is being created or
	// deleted: a row left in another status by a crash is cleaned up by
	// repos.Service.Recover.
	Status RepoStatus
	// Size is the size of the git repository on disk, in bytes.
	Size int64
	// Units and settings (Forgejo's repo units).
	HasIssues, HasWiki, HasPullRequests, HasProjects, HasReleases, HasPackages, HasActions bool
	// Pull-request settings.
	IgnoreWhitespaceConflicts, AllowMerge, AllowRebase, AllowRebaseExplicit, AllowSquash bool
	AllowFastForwardOnly, AllowManualMerge, AutodetectManualMerge, AllowRebaseUpdate     bool
	DefaultDeleteBranchAfterMerge, DefaultAllowMaintainerEdit                            bool
	DefaultMergeStyle, DefaultUpdateStyle                                                string
	WikiBranch                                                                           string
	GloballyEditableWiki                                                                 bool
	Topics                                                                               []string
	InternalTracker                                                                      *InternalTracker
	ExternalTracker                                                                      *ExternalTracker
	ExternalWiki                                                                         *ExternalWiki
	NumStars, NumWatches, NumForks                                                       int
	Created, Updated                                                                     time.Time
}

// RepoStatus is where a repository is in its life (Forgejo's
// RepositoryStatus).
type RepoStatus int

// Repository statuses.
const (
	RepoReady    RepoStatus = iota // usable
	RepoCreating                   // row written, git directory not yet complete
	RepoDeleting                   // being removed: git directory first, then the row
)

// FullName is "owner/name".
func (r *Repository) FullName() string { return r.OwnerName + "/" + r.Name }

// InternalTracker holds the settings of the built-in issue tracker.
type InternalTracker struct {
	EnableTimeTracker                bool `json:"enable_time_tracker"`
	AllowOnlyContributorsToTrackTime bool `json:"allow_only_contributors_to_track_time"`
	EnableIssueDependencies          bool `json:"enable_issue_dependencies"`
}

// ExternalTracker points issues to another tracker.
type ExternalTracker struct {
	URL           string `json:"external_tracker_url"`
	Format        string `json:"external_tracker_format"`
	Style         string `json:"external_tracker_style"`
	RegexpPattern string `json:"external_tracker_regexp_pattern"`
}

// ExternalWiki points the wiki to another site.
type ExternalWiki struct {
	URL string `json:"external_wiki_url"`
}
