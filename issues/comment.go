package issues

import (
	"time"

	"github.com/hearthforge/hearth/forge"
)

// CommentType is the kind of a comment, with Forgejo's values: plain
// comments are what users write; the others are the events of an issue's
// timeline.
type CommentType int

// Comment types (models/issues/comment.go).
const (
	CommentPlain     CommentType = 0
	CommentReopen    CommentType = 1
	CommentClose     CommentType = 2
	CommentLabel     CommentType = 7
	CommentMilestone CommentType = 8
	CommentAssignees CommentType = 9
	CommentTitle     CommentType = 10
	CommentDeadline  CommentType = 16 // CommentTypeAddedDeadline
	// CommentModifiedDeadline and CommentRemovedDeadline follow Forgejo.
	CommentModifiedDeadline CommentType = 17
	CommentRemovedDeadline  CommentType = 18
	CommentChangeRef        CommentType = 33 // CommentTypeChangeIssueRef
)

// Editable reports whether a comment of type c has content a user may
// edit (Forgejo's CommentType.HasContentSupport, for the types Hearth
// creates).
func (c CommentType) Editable() bool { return c == CommentPlain }

// Comment is a comment of an issue: a plain comment or a timeline event.
type Comment struct {
	ID      forge.ID
	IssueID forge.ID
	Type    CommentType
	// PosterID is who wrote it or caused the event.
	PosterID         forge.ID
	OriginalAuthor   string
	OriginalAuthorID int64
	Body             string
	// LabelID is the label added (Content "1") or removed (Content "")
	// by a CommentLabel.
	LabelID forge.ID
	// Content is "1" when a CommentLabel adds a label.
	Content string
	// OldMilestoneID and MilestoneID are the change of a CommentMilestone.
	OldMilestoneID, MilestoneID forge.ID
	// AssigneeID and RemovedAssignee are the change of a CommentAssignees.
	AssigneeID      forge.ID
	RemovedAssignee bool
	// OldTitle and NewTitle are the change of a CommentTitle.
	OldTitle, NewTitle string
	// OldRef and NewRef are the change of a CommentChangeRef.
	OldRef, NewRef string
	// DependentIssueID is the other issue of a CommentAddDependency or
	// CommentRemoveDependency; the comment goes with that issue.
	DependentIssueID forge.ID
	ContentVersion   int
	Created, Updated time.Time
}

// CommentView is a comment with what its JSON shows.
type CommentView struct {
	Comment *Comment
	Issue   *Issue
	Repo    *forge.Repository
	Poster  *forge.User
	Assets  []*Attachment
}

// CreateCommentOption creates a comment (Forgejo's CreateIssueCommentOption).
type CreateCommentOption struct {
	// Body is required (forge.ErrInvalid `[Body]: Required`).
	Body string
	// UpdatedAt, when non-nil, dates the comment and the issue's update
	// (see CheckUpdatedAt).
	UpdatedAt *time.Time
}

// EditCommentOption edits a comment (Forgejo's EditIssueCommentOption).
type EditCommentOption struct {
	// Body is required.
	Body string
	// UpdatedAt, when non-nil, is the comment's and the issue's update date.
	UpdatedAt *time.Time
	// Index, when non-zero, marks the deprecated route
	// /issues/{index}/comments/{id}: it skips the archived-repository
	// check; the index itself is not checked (Forgejo ignores it).
	Index int64
}

// ListCommentsOption filters comments: those of one issue or one
// repository, updated since/before (zero: no bound).
type ListCommentsOption struct {
	Since, Before time.Time
	forge.ListOptions
}
