package issues

import (
	"time"

	"github.com/hearthforge/hearth/forge"
)

// Issue is an issue of a repository, or a pull request's issue (IsPull).
// Its Index is its number in the repository, allocated by
// Tx.NextIssueIndex.
type Issue struct {
	ID     forge.ID
	RepoID forge.ID
	// Index is the issue's number, unique in the repository.
	Index    int64
	PosterID forge.ID
	// OriginalAuthor and OriginalAuthorID name the author of a migrated
	// issue; empty and 0 otherwise.
	OriginalAuthor   string
	OriginalAuthorID int64
	Title            string
	Body             string
	// Ref is the branch or tag the issue refers to, "" if none.
	Ref      string
	IsPull   bool
	IsClosed bool
	IsLocked bool
	// MilestoneID is the issue's milestone, 0 if none.
	MilestoneID forge.ID
	// NumComments counts the comments of type CommentPlain.
	NumComments int
	// Deadline is the due date, the zero time if none.
	Deadline time.Time
	// PinOrder is the position among pinned issues, 0 if not pinned.
	PinOrder int
	// ContentVersion grows with every change of Body.
	ContentVersion int
	Created        time.Time
	Updated        time.Time
	// Closed is when the issue was last closed, the zero time if open.
	Closed time.Time
}

// State is an issue's or milestone's state, with Forgejo's wire strings.
type State string

// States.
const (
	StateOpen   State = "open"
	StateClosed State = "closed"
	// StateAll selects both in filters.
	StateAll State = "all"
)

// StateOf returns StateClosed or StateOpen.
func StateOf(closed bool) State {
	if closed {
		return StateClosed
	}
	return StateOpen
}

// IssueView is an issue with what its JSON shows, as one actor sees it:
// the values converters need, loaded with a fixed number of queries.
type IssueView struct {
	Issue      *Issue
	Repo       *forge.Repository
	Poster     *forge.User
	Labels     []*Label
	Milestone  *Milestone
	Assignees  []*forge.User
	Assets     []*Attachment
	Permission forge.Permission
}

// CreateIssueOption creates an issue (Forgejo's CreateIssueOption).
type CreateIssueOption struct {
	// Title is required (forge.ErrInvalid `[Title]: Required`).
	Title string
	Body  string
	Ref   string
	// Assignees are user names; only writers may set them (ignored
	// otherwise).
	Assignees []string
	// Milestone is a milestone id, 0 for none; writers only.
	Milestone forge.ID
	// Labels are label ids of the repository (or its organisation); writers
	// only. Exclusive scopes apply.
	Labels []forge.ID
	Closed bool
	// Deadline is the due date, nil for none; writers only.
	Deadline *time.Time
}

// EditIssueOption edits an issue (Forgejo's EditIssueOption). A nil field
// leaves the issue's value unchanged.
type EditIssueOption struct {
	// Title changes the title when non-nil and non-empty.
	Title *string
	Body  *string
	Ref   *string
	// Assignees replaces the assignees (an empty non-nil slice clears
	// them); writers only, silently ignored for the poster.
	Assignees []string
	// Milestone sets the milestone by id; 0 removes it; writers only. An
	// unknown id is forge.ErrNotFound.
	Milestone *forge.ID
	// State: StateClosed closes, any other value opens.
	State *State
	// Deadline sets the due date (writers only): it is stored as 23:59:59
	// of that calendar day in its location; the zero time clears it.
	Deadline *time.Time
	// UnsetDeadline true clears the due date.
	UnsetDeadline *bool
	// UpdatedAt, when non-nil, is the date the change is stamped with
	// (CheckUpdatedAt decides whether the actor may give it).
	UpdatedAt *time.Time
}

// ListIssuesOption filters one repository's issues
// (GET /repos/{owner}/{repo}/issues) and, with more fields, the search.
type ListIssuesOption struct {
	// State is StateOpen (the default for ""), StateClosed or StateAll.
	State State
	// Type limits to issues (TypeIssues) or pulls (TypePulls); "" is both.
	Type IssueType
	// Labels are label names; an issue matches when it has all of them
	// (a label of each name); names no label has are dropped, and when
	// none is left nothing matches.
	Labels []string
	// Milestones are milestone titles or, failing a title, ids (decimal
	// text) of the repository; an issue matches when in any of them.
	// Unknown ones are dropped; when none is left nothing matches.
	Milestones []string
	// Keyword searches title, body and comments.
	Keyword string
	// Since and Before bound Updated (zero: no bound).
	Since, Before time.Time
	// CreatedBy, AssignedTo and MentionedBy are user names ("": any).
	CreatedBy, AssignedTo, MentionedBy string
	forge.ListOptions
}

// IssueType selects issues or pull requests in lists.
type IssueType string

// Issue types.
const (
	TypeIssues IssueType = "issues"
	TypePulls  IssueType = "pulls"
)
