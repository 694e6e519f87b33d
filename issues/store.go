package issues

import (
	"context"
	"time"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/quota"
)

// Store is the persistence of issues and what hangs on them. Update runs fn
// in one transaction and commits iff it returns nil; View reads one
// snapshot. Storage does no authorisation and reads no clock: every time it
// writes is a field of the value it is given.
type Store interface {
	Update(ctx context.Context, fn func(Tx) error) error
	View(ctx context.Context, fn func(Tx) error) error
}

// Tx is one transaction over issues, comments, labels, milestones and
// attachments. Values returned are the caller's to change; values passed in
// are copied. Methods that take a slice of ids answer in one query. List
// methods take normalised forge.ListOptions (the service normalises them);
// a negative Limit lists everything from the page's offset.
type Tx interface {
	// OutboxTx appends events to the outbox (outbox.go).
	OutboxTx
	// UsageTx reads and charges quota in the write's transaction: the
	// attachment upload checks the repository owner's quota with
	// quota.Check (the attachment row is the usage).
	quota.UsageTx
	NameTx     // label and milestone names of the search (search_names.go)
	TrackingTx // dependencies, tracked times, stopwatches (tracking_store.go)
	MentionTx  // users mentioned in issues and comments (mentions.go)
	// UserByName finds an account ignoring case; forge.ErrNotFound if none.
	UserByName(ctx context.Context, name string) (*forge.User, error)
	// UserByID returns forge.ErrNotFound if none.
	UserByID(ctx context.Context, id forge.ID) (*forge.User, error)
	// UsersByID returns the accounts of ids that exist, by ID; missing ids
	// are absent. Never nil.
	UsersByID(ctx context.Context, ids []forge.ID) (map[forge.ID]*forge.User, error)

	// NextIssueIndex reserves and returns the next issue index of a
	// repository (1 for the first): max(index ever reserved, index of any
	// issue of the repository) + 1. Two transactions never get the same
	// index of one repository: the reservation is written by this
	// transaction (the writers are serialised) and survives deleting the
	// issue, as Forgejo's issue_index table does.
	NextIssueIndex(ctx context.Context, repoID forge.ID) (int64, error)
	// CreateIssue inserts i (i.ID is set). forge.ErrConflict if the
	// repository has an issue of that index; forge.ErrNotFound if the
	// repository does not exist.
	CreateIssue(ctx context.Context, i *Issue) error
	// IssueByIndex returns forge.ErrNotFound if the repository has no issue
	// of that index.
	IssueByIndex(ctx context.Context, repoID forge.ID, index int64) (*Issue, error)
	// IssueByID returns forge.ErrNotFound if none.
	IssueByID(ctx context.Context, id forge.ID) (*Issue, error)
	// IssuesByID returns the issues of ids that exist, by ID. Never nil.
	IssuesByID(ctx context.Context, ids []forge.ID) (map[forge.ID]*Issue, error)
	// UpdateIssue writes every field of i but RepoID, Index and Created.
	// forge.ErrNotFound if none.
	UpdateIssue(ctx context.Context, i *Issue) error
	// DeleteIssue removes an issue with its comments, labels, assignees
	// and attachment rows (not their blobs). forge.ErrNotFound if none.
	DeleteIssue(ctx context.Context, id forge.ID) error
	// ListIssues returns one page of the issues matching f in f.Sort's
	// order, and their number.
	ListIssues(ctx context.Context, f IssueFilter, o forge.ListOptions) ([]*Issue, int64, error)
	// IssueCounts returns, for each repository of repoIDs that has issues
	// of the kind (pull requests or not), its numbers of open and closed
	// ones. Never nil.
	IssueCounts(ctx context.Context, repoIDs []forge.ID, pulls bool) (map[forge.ID]IssueCount, error)

	// SetAssignees replaces the assignees of an issue (userIDs in order;
	// none clears). forge.ErrNotFound if the issue or a user does not exist.
	SetAssignees(ctx context.Context, issueID forge.ID, userIDs []forge.ID) error
	// Assignees returns the assignee ids of each issue of issueIDs that has
	// some, in the order they were set. Never nil.
	Assignees(ctx context.Context, issueIDs []forge.ID) (map[forge.ID][]forge.ID, error)

	// CreateComment inserts c (c.ID is set). forge.ErrNotFound if the issue
	// does not exist.
	CreateComment(ctx context.Context, c *Comment) error
	// CommentByID returns forge.ErrNotFound if none.
	CommentByID(ctx context.Context, id forge.ID) (*Comment, error)
	// UpdateComment writes every field of c but IssueID, Type and Created.
	// forge.ErrNotFound if none.
	UpdateComment(ctx context.Context, c *Comment) error
	// DeleteComment removes a comment and its attachment rows.
	// forge.ErrNotFound if none.
	DeleteComment(ctx context.Context, id forge.ID) error
	// ListComments returns one page of the comments matching f ordered by
	// creation then id, and their number.
	ListComments(ctx context.Context, f CommentFilter, o forge.ListOptions) ([]*Comment, int64, error)

	// CreateLabel inserts l (l.ID is set). forge.ErrNotFound if its
	// repository or organisation does not exist.
	CreateLabel(ctx context.Context, l *Label) error
	// LabelByID returns forge.ErrNotFound if none.
	LabelByID(ctx context.Context, id forge.ID) (*Label, error)
	// UpdateLabel writes every field of l but RepoID and OrgID.
	// forge.ErrNotFound if none.
	UpdateLabel(ctx context.Context, l *Label) error
	// DeleteLabel removes a label and takes it off every issue.
	// forge.ErrNotFound if none.
	DeleteLabel(ctx context.Context, id forge.ID) error
	// ListLabels returns one page of the labels matching f in f.Sort's
	// order (then by id), and their number. A negative o.Limit lists all.
	ListLabels(ctx context.Context, f LabelFilter, o forge.ListOptions) ([]*Label, int64, error)
	// SetIssueLabels replaces the labels of an issue and keeps the labels'
	// NumIssues and NumClosedIssues. forge.ErrNotFound if the issue or a
	// label does not exist.
	SetIssueLabels(ctx context.Context, issueID forge.ID, labelIDs []forge.ID) error
	// IssueLabels returns the labels of each issue of issueIDs that has
	// some, ordered by name then id. Never nil.
	IssueLabels(ctx context.Context, issueIDs []forge.ID) (map[forge.ID][]*Label, error)

	// CreateMilestone inserts m (m.ID is set). forge.ErrNotFound if the
	// repository does not exist.
	CreateMilestone(ctx context.Context, m *Milestone) error
	// MilestoneByID returns forge.ErrNotFound if the repository has no
	// milestone of that id.
	MilestoneByID(ctx context.Context, repoID, id forge.ID) (*Milestone, error)
	// MilestonesByID returns the milestones of ids that exist, by ID.
	// Never nil.
	MilestonesByID(ctx context.Context, ids []forge.ID) (map[forge.ID]*Milestone, error)
	// UpdateMilestone writes every field of m but RepoID and Created.
	// forge.ErrNotFound if none.
	UpdateMilestone(ctx context.Context, m *Milestone) error
	// DeleteMilestone removes a milestone; its issues keep no milestone
	// (MilestoneID 0). forge.ErrNotFound if none.
	DeleteMilestone(ctx context.Context, id forge.ID) error
	// ListMilestones returns one page of the milestones matching f ordered
	// by due date then id, and their number.
	ListMilestones(ctx context.Context, f MilestoneFilter, o forge.ListOptions) ([]*Milestone, int64, error)

	// CreateAttachment inserts a (a.ID is set). forge.ErrConflict on a
	// taken UUID; forge.ErrNotFound if its issue or comment does not exist.
	CreateAttachment(ctx context.Context, a *Attachment) error
	// AttachmentByID returns forge.ErrNotFound if none.
	AttachmentByID(ctx context.Context, id forge.ID) (*Attachment, error)
	// AttachmentByUUID returns forge.ErrNotFound if none.
	AttachmentByUUID(ctx context.Context, uuid string) (*Attachment, error)
	// UpdateAttachment writes Name and DownloadCount. forge.ErrNotFound if
	// none.
	UpdateAttachment(ctx context.Context, a *Attachment) error
	// DeleteAttachment removes the row. forge.ErrNotFound if none.
	DeleteAttachment(ctx context.Context, id forge.ID) error
	// Attachments returns the attachments matching f, ordered by id.
	Attachments(ctx context.Context, f AttachmentFilter) ([]*Attachment, error)

	SocialTx // reactions, issue watches, pins, cross-references (social.go)
	PullTx   // pull requests, reviews, scheduled merges (pull_store.go)
}

// BlockReader is implemented by the Tx of stores that read the blocks
// forge/orgs records (user_block): the service then refuses blocked users
// as Forgejo does (issue creation, comments, title changes). It is
// optional so that a backend can add it without breaking the others; every
// Hearth backend should implement it (memstore does).
type BlockReader interface {
	// IsBlockedByAny reports whether an account of blockerIDs blocks
	// userID.
	IsBlockedByAny(ctx context.Context, blockerIDs []forge.ID, userID forge.ID) (bool, error)
}

// IssueCount is the number of open and closed issues of a repository.
type IssueCount struct{ Open, Closed int64 }

// IssueFilter selects issues. Zero fields do not filter, except RepoIDs:
// an issue matches only if its repository is in RepoIDs or (with
// PublicRepos) is a public repository; a filter with neither matches
// nothing (never "every repository").
type IssueFilter struct {
	RepoIDs []forge.ID
	// PublicRepos also matches the issues of every public repository.
	PublicRepos bool
	// State is StateOpen, StateClosed, or "" / StateAll for both.
	State State
	// IsPull: nil both, else only pull requests or only issues.
	IsPull *bool
	// LabelIDs: issues with any of them. A non-nil empty slice matches
	// nothing.
	LabelIDs []forge.ID
	// LabelSets: issues with, for each set, any label of it (the sets
	// are and-ed: a repository's issues carrying every label named, each
	// name a set of the labels of that name). An empty set matches
	// nothing.
	LabelSets [][]forge.ID
	// MilestoneIDs: issues in any of them. A non-nil empty slice matches
	// nothing.
	MilestoneIDs []forge.ID
	// LabelNames: issues with a label of any of these names (exact; the
	// label may be any label the issue bears). A non-nil empty slice
	// matches nothing. Used by the search across repositories, where ids
	// differ per repository.
	LabelNames []string
	// MilestoneNames: issues whose milestone has any of these titles
	// (exact). A non-nil empty slice matches nothing.
	MilestoneNames []string
	// PosterID, AssigneeID: 0 any.
	PosterID, AssigneeID forge.ID
	// MentionedID: issues whose texts mention the user (MentionTx); 0 any.
	MentionedID forge.ID
	// Keyword matches title or body, ignoring case.
	Keyword string
	// UpdatedSince and UpdatedBefore bound Updated (zero: no bound).
	UpdatedSince, UpdatedBefore time.Time
	Sort                        IssueSort
}

// IssueSort orders issue lists, with Forgejo's names.
type IssueSort string

// Issue orders; "" is IssueSortLatest.
const (
	IssueSortLatest       IssueSort = "latest" // created desc
	IssueSortOldest       IssueSort = "oldest"
	IssueSortRecentUpdate IssueSort = "recentupdate"
	IssueSortLeastUpdate  IssueSort = "leastupdate"
	IssueSortMostComment  IssueSort = "mostcomment"
	IssueSortLeastComment IssueSort = "leastcomment"
	IssueSortNearDueDate  IssueSort = "nearduedate"
	IssueSortFarDueDate   IssueSort = "farduedate"
)

// CommentFilter selects comments: those of IssueID, or of every issue of
// RepoID; Types limits the types (nil: all).
type CommentFilter struct {
	IssueID, RepoID forge.ID
	Types           []CommentType
	// IsPull: nil both, else only comments of pull requests or only of
	// issues.
	IsPull *bool
	// UpdatedSince and UpdatedBefore bound Updated (zero: no bound).
	UpdatedSince, UpdatedBefore time.Time
}

// LabelFilter selects labels: those of RepoID and/or of OrgID (a label
// matches when it belongs to either of the non-zero ones; both zero
// matches nothing), narrowed by IDs and Names when non-nil.
type LabelFilter struct {
	RepoID, OrgID forge.ID
	// IDs: only these labels. A non-nil empty slice matches nothing.
	IDs []forge.ID
	// Names: only labels of these names (exact). A non-nil empty slice
	// matches nothing.
	Names []string
	Sort  LabelSort
}

// MilestoneFilter selects the milestones of a repository.
type MilestoneFilter struct {
	RepoID forge.ID
	// State StateOpen or StateClosed; anything else both.
	State State
	// Name: only milestones of this title (exact), "" any.
	Name string
	// NameContains: only milestones whose title contains it, ASCII
	// letters compared ignoring case (Forgejo's name filter,
	// BuildCaseInsensitiveLike: UPPER(name) LIKE '%VALUE%', the value
	// upper-cased as ASCII); `%` and `_` are plain characters here. ""
	// any.
	NameContains string
	// IDs: only these. A non-nil empty slice matches nothing.
	IDs []forge.ID
}

// AttachmentFilter selects attachments: the union of the attachments of
// the issues IssueIDs themselves (CommentID 0) and those of the comments
// CommentIDs.
type AttachmentFilter struct {
	IssueIDs   []forge.ID
	CommentIDs []forge.ID
}
