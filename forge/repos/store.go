package repos

import (
	"context"
	"time"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/quota"
)

// Store is the persistence of repositories. Update runs fn in one
// transaction and commits iff it returns nil; View reads one snapshot.
type Store interface {
	Update(ctx context.Context, fn func(Tx) error) error
	View(ctx context.Context, fn func(Tx) error) error
}

// Tx is one transaction over repositories and what hangs on them.
type Tx interface {
	// UsageTx reads quota in the write's transaction (quota.go).
	quota.UsageTx
	// ReservationTx holds quota for git writes measured after they land
	// (quota.go).
	quota.ReservationTx
	// OutboxTx appends events to the outbox (outbox.go).
	OutboxTx
	// UserByName finds a user ignoring case; forge.ErrNotFound if none.
	UserByName(ctx context.Context, name string) (*forge.User, error)
	// UserByID returns forge.ErrNotFound if none.
	UserByID(ctx context.Context, id forge.ID) (*forge.User, error)
	// UsersByID returns, in one query, the users of ids that exist, by ID;
	// missing ids are absent. Never nil.
	UsersByID(ctx context.Context, ids []forge.ID) (map[forge.ID]*forge.User, error)

	// CreateRepo inserts r (r.ID is set). forge.ErrConflict if the owner has
	// a repository of that name, ignoring case.
	CreateRepo(ctx context.Context, r *forge.Repository) error
	// RepoByName finds an owner's repository ignoring case.
	RepoByName(ctx context.Context, ownerID forge.ID, name string) (*forge.Repository, error)
	// RepoByID returns forge.ErrNotFound if none.
	RepoByID(ctx context.Context, id forge.ID) (*forge.Repository, error)
	// ReposByID returns, in one query, the repositories of ids that exist,
	// by ID, whatever their Status; missing ids are absent. Never nil.
	ReposByID(ctx context.Context, ids []forge.ID) (map[forge.ID]*forge.Repository, error)
	// UpdateRepo writes every field of r. forge.ErrConflict on a taken name.
	UpdateRepo(ctx context.Context, r *forge.Repository) error
	// DeleteRepo removes the repository and what belongs to it.
	DeleteRepo(ctx context.Context, id forge.ID) error
	// ListRepos returns one page of the repositories matching f, and their
	// number. Only forge.RepoReady repositories are listed unless
	// f.AnyStatus.
	ListRepos(ctx context.Context, f RepoFilter, o forge.ListOptions) ([]*forge.Repository, int64, error)

	// SetCollaborator adds or updates a collaborator.
	SetCollaborator(ctx context.Context, repoID, userID forge.ID, mode forge.AccessMode) error
	// DeleteCollaborator removes one; forge.ErrNotFound if not one.
	DeleteCollaborator(ctx context.Context, repoID, userID forge.ID) error
	// RepoFlags lists the flags of a repository (Forgejo's repo_flag), by
	// name; never nil.
	RepoFlags(ctx context.Context, repoID forge.ID) ([]string, error)
	// SetRepoFlags replaces the flags of a repository with flags (each
	// name once). forge.ErrNotFound for no repository.
	SetRepoFlags(ctx context.Context, repoID forge.ID, flags []string) error
	// SearchTopics lists one page of the topics at least one repository
	// has (whatever its visibility, as Forgejo's topic table counts them)
	// whose name contains keyword, ignoring case ("" matches all), with
	// how many repositories have each: most used first, then oldest
	// first; and how many match.
	SearchTopics(ctx context.Context, keyword string, o forge.ListOptions) ([]Topic, int64, error)
	// IsBlocked reports whether blockerID blocks userID (Forgejo's
	// user_block, written by forge/orgs and user blocking).
	IsBlocked(ctx context.Context, blockerID, userID forge.ID) (bool, error)
	// CollaboratorMode is forge.AccessNone for users who are not collaborators.
	CollaboratorMode(ctx context.Context, repoID, userID forge.ID) (forge.AccessMode, error)
	// CollaboratorModes is CollaboratorMode for many repositories in one
	// query: the map holds the repositories of repoIDs on which userID is a
	// collaborator (absent: forge.AccessNone). Never nil.
	CollaboratorModes(ctx context.Context, userID forge.ID, repoIDs []forge.ID) (map[forge.ID]forge.AccessMode, error)
	// ListCollaborators returns one page of collaborators ordered by name.
	ListCollaborators(ctx context.Context, repoID forge.ID, o forge.ListOptions) ([]Collaborator, int64, error)

	// OrgMemberships reports, in one query, which of orgIDs the user is a
	// member of: the map holds those (true). Never nil.
	OrgMemberships(ctx context.Context, userID forge.ID, orgIDs []forge.ID) (map[forge.ID]bool, error)
	// TeamGrants returns, in one query, for each of repoIDs the grants of
	// the teams of the repository's owner that the user is in and that
	// have the repository, by team id; repositories without are absent.
	// Never nil.
	TeamGrants(ctx context.Context, userID forge.ID, repoIDs []forge.ID) (map[forge.ID][]forge.TeamGrant, error)
	// OrgTeams returns the teams of an organisation by id, with their
	// units (NumMembers and NumRepos are not counted); with userID
	// non-zero only those the user is in.
	OrgTeams(ctx context.Context, orgID, userID forge.ID) ([]*forge.Team, error)
	// AddRepoTeams gives the repository to each team of teamIDs (no error
	// for a team that has it); forge.ErrNotFound if a team or the
	// repository does not exist.
	AddRepoTeams(ctx context.Context, repoID forge.ID, teamIDs []forge.ID) error
	// DeleteRepoTeams takes the repository from every team that has it (no
	// error if none).
	DeleteRepoTeams(ctx context.Context, repoID forge.ID) error

	// SetWatch records a user's watch mode of a repository (WatchNone
	// removes it) and keeps the repository's watcher count.
	SetWatch(ctx context.Context, repoID, userID forge.ID, mode WatchMode, at time.Time) error
	// Watch returns the mode (WatchNone if none) and when it was set.
	Watch(ctx context.Context, repoID, userID forge.ID) (WatchMode, time.Time, error)
	// ListWatchers returns one page of the users watching (normal or auto).
	ListWatchers(ctx context.Context, repoID forge.ID, o forge.ListOptions) ([]*forge.User, int64, error)
	// SetStar stars or unstars and keeps the repository's star count.
	SetStar(ctx context.Context, repoID, userID forge.ID, starred bool, at time.Time) error
	// IsStarred reports whether the user starred the repository.
	IsStarred(ctx context.Context, repoID, userID forge.ID) (bool, error)
	// ListStargazers returns one page of the users who starred it.
	ListStargazers(ctx context.Context, repoID forge.ID, o forge.ListOptions) ([]*forge.User, int64, error)

	// CreateProtection inserts p. forge.ErrConflict if the rule exists.
	CreateProtection(ctx context.Context, p *BranchProtection) error
	// Protection finds a rule by name; forge.ErrNotFound if none.
	Protection(ctx context.Context, repoID forge.ID, rule string) (*BranchProtection, error)
	// ListProtections lists a repository's rules by creation.
	ListProtections(ctx context.Context, repoID forge.ID) ([]*BranchProtection, error)
	// UpdateProtection writes p.
	UpdateProtection(ctx context.Context, p *BranchProtection) error
	// DeleteProtection removes a rule; forge.ErrNotFound if none.
	DeleteProtection(ctx context.Context, repoID forge.ID, rule string) error

	// SetTransfer records a pending transfer with its TeamIDs (replacing
	// any other); Transfer and Transfers return the TeamIDs in order.
	SetTransfer(ctx context.Context, t *Transfer) error
	// Transfer returns the pending transfer of a repository,
	// forge.ErrNotFound if none.
	Transfer(ctx context.Context, repoID forge.ID) (*Transfer, error)
	// Transfers is Transfer for many repositories in one query: the map
	// holds those of repoIDs with a pending transfer, whose Doer and
	// Recipient carry only their ID. Never nil.
	Transfers(ctx context.Context, repoIDs []forge.ID) (map[forge.ID]*Transfer, error)
	// TeamOrgs returns, in one query, the organisation of each team of
	// teamIDs that exists, by team id; missing ids are absent. Never nil.
	TeamOrgs(ctx context.Context, teamIDs []forge.ID) (map[forge.ID]forge.ID, error)
	// DeleteTransfer forgets a pending transfer (no error if none).
	DeleteTransfer(ctx context.Context, repoID forge.ID) error
	// RecountForks sets a repository's fork counter to its number of forks.
	RecountForks(ctx context.Context, repoID forge.ID) error

	// CreateTagProtection inserts p (p.ID is set).
	CreateTagProtection(ctx context.Context, p *TagProtection) error
	// TagProtection returns a rule by id; forge.ErrNotFound if none.
	TagProtection(ctx context.Context, repoID, id forge.ID) (*TagProtection, error)
	// ListTagProtections lists a repository's tag rules by id.
	ListTagProtections(ctx context.Context, repoID forge.ID) ([]*TagProtection, error)
	// UpdateTagProtection writes p.
	UpdateTagProtection(ctx context.Context, p *TagProtection) error
	// DeleteTagProtection removes a rule; forge.ErrNotFound if none.
	DeleteTagProtection(ctx context.Context, repoID, id forge.ID) error

	// CreateRelease inserts r (r.ID is set); forge.ErrConflict if the tag
	// has a release.
	CreateRelease(ctx context.Context, r *Release) error
	// ReleaseByID and ReleaseByTag return forge.ErrNotFound if none.
	ReleaseByID(ctx context.Context, repoID, id forge.ID) (*Release, error)
	ReleaseByTag(ctx context.Context, repoID forge.ID, tag string) (*Release, error)
	// ListReleases returns one page of releases, newest first.
	ListReleases(ctx context.Context, repoID forge.ID, f ReleaseFilter, o forge.ListOptions) ([]*Release, int64, error)
	// UpdateRelease writes r.
	UpdateRelease(ctx context.Context, r *Release) error
	// DeleteRelease removes a release and its attachment rows.
	DeleteRelease(ctx context.Context, id forge.ID) error
	// CreateAttachment inserts a (a.ID is set).
	CreateAttachment(ctx context.Context, a *Attachment) error
	// Attachment and AttachmentByUUID return forge.ErrNotFound if none.
	Attachment(ctx context.Context, id forge.ID) (*Attachment, error)
	AttachmentByUUID(ctx context.Context, uuid string) (*Attachment, error)
	// ListAttachments lists a release's attachments by id.
	ListAttachments(ctx context.Context, releaseID forge.ID) ([]*Attachment, error)
	// AttachmentsOf is ListAttachments for many releases in one query: the
	// map holds, by release id, the attachments (by id) of those of
	// releaseIDs that have some. Never nil.
	AttachmentsOf(ctx context.Context, releaseIDs []forge.ID) (map[forge.ID][]*Attachment, error)
	// UpdateAttachment writes a.
	UpdateAttachment(ctx context.Context, a *Attachment) error
	// DeleteAttachment removes an attachment row.
	DeleteAttachment(ctx context.Context, id forge.ID) error

	// CreateStatus inserts a commit status (st.ID is set).
	CreateStatus(ctx context.Context, st *CommitStatus) error
	// ListStatuses returns one page of a commit's statuses and their number.
	ListStatuses(ctx context.Context, repoID forge.ID, sha string, f StatusFilter, o forge.ListOptions) ([]*CommitStatus, int64, error)
}

// RepoFilter narrows ListRepos. Zero fields do not filter.
type RepoFilter struct {
	OwnerID forge.ID
	// AnyStatus lists repositories being created or deleted too (Recover);
	// otherwise only forge.RepoReady ones are listed and counted.
	AnyStatus bool
	// Keyword is a comma-separated list of words (Forgejo's search): a
	// repository matches one word when its name or one of its topics
	// contains it, ignoring case, or with IncludeDesc its description does.
	// With Topic, a word matches only a topic equal to it, ignoring case.
	Keyword     string
	Topic       bool
	IncludeDesc bool
	// VisibleTo keeps public repositories of owners the user may see
	// (public ones, limited ones for a user, private organisations for
	// their members) plus the repositories the user owns, collaborates on
	// or has through a team of the owning organisation; 0 keeps public
	// repositories of public owners only. AllVisible lifts
	// the restriction (site administrators).
	VisibleTo  forge.ID
	AllVisible bool
	// Restricted keeps, of what VisibleTo keeps, only what the user owns,
	// collaborates on or has through a team: restricted users get nothing
	// from public-ness.
	Restricted bool
	// CollaboratorOf, when set, keeps the repositories the user owns or
	// collaborates on.
	CollaboratorOf forge.ID
	Private        *bool
	Archived       *bool
	Template       *bool
	// StarredBy keeps the repositories the user starred.
	StarredBy forge.ID
	// WatchedBy keeps the repositories the user watches.
	WatchedBy forge.ID
	// ForkOf keeps the forks of a repository.
	ForkOf forge.ID
	// Sort: "" or "id" (oldest first), "newest", "alpha", "updated", "size",
	// "stars".
	Sort  string
	Order string // "asc" or "desc" for Sort
}

// Collaborator is a user with explicit access to a repository.
type Collaborator struct {
	User *forge.User
	Mode forge.AccessMode
}

// WatchMode is how a user watches a repository (Forgejo's watch modes).
type WatchMode int

// Watch modes.
const (
	WatchNone   WatchMode = iota // not watching
	WatchNormal                  // watching, by choice
	WatchDont                    // explicitly not watching: no automatic watch
	WatchAuto                    // watching because the user pushed or was added
)

// Watching reports whether the mode counts as watching.
func (m WatchMode) Watching() bool { return m == WatchNormal || m == WatchAuto }
