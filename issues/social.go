package issues

import (
	"context"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// SocialTx is the part of Tx for what users add around an issue:
// reactions, issue watches (subscriptions), pinned issues and the
// cross-references one issue's text makes to another.
type SocialTx interface {
	// CreateReaction inserts r (r.ID is set). forge.ErrConflict if the user
	// already reacted with that content on that issue or comment;
	// forge.ErrNotFound if the issue (or comment) does not exist.
	CreateReaction(ctx context.Context, r *Reaction) error
	// DeleteReaction removes the reaction of userID with content on issue
	// issueID itself (commentID 0) or on its comment commentID, if any:
	// deleting none is no error.
	DeleteReaction(ctx context.Context, issueID, commentID, userID forge.ID, content string) error
	// Reactions returns one page of the reactions of issue issueID itself
	// (commentID 0) or of comment commentID, ordered by id, and their
	// number. A negative o.Limit lists all.
	Reactions(ctx context.Context, issueID, commentID forge.ID, o forge.ListOptions) ([]*Reaction, int64, error)

	// SetIssueWatch inserts or replaces the watch of w.UserID on w.IssueID
	// (Created is kept when one exists). forge.ErrNotFound if the issue or
	// the user does not exist.
	SetIssueWatch(ctx context.Context, w *IssueWatch) error
	// IssueWatch returns forge.ErrNotFound if userID has no watch on
	// issueID.
	IssueWatch(ctx context.Context, userID, issueID forge.ID) (*IssueWatch, error)
	// IssueWatchers returns one page of the watches of issueID whose
	// IsWatching is true, ordered by id, and their number.
	IssueWatchers(ctx context.Context, issueID forge.ID, o forge.ListOptions) ([]*IssueWatch, int64, error)

	// PinnedIssues returns the issues (isPull false) or pull requests of
	// repoID whose PinOrder is positive, ordered by PinOrder then id.
	PinnedIssues(ctx context.Context, repoID forge.ID, isPull bool) ([]*Issue, error)

	// CreateCrossRef records that comment r.CommentID is a cross-reference
	// event. forge.ErrNotFound if the comment does not exist.
	CreateCrossRef(ctx context.Context, r *CrossRef) error
	// CrossRefs returns the cross-references of the comments of commentIDs
	// that are cross-reference events, by comment id. Never nil.
	CrossRefs(ctx context.Context, commentIDs []forge.ID) (map[forge.ID]*CrossRef, error)
	// CrossRefsFrom returns the cross-references made by the text of issue
	// refIssueID itself (refCommentID 0) or of its comment refCommentID,
	// ordered by comment id.
	CrossRefsFrom(ctx context.Context, refIssueID, refCommentID forge.ID) ([]*CrossRef, error)
	// SetCrossRefAction writes the Action of the cross-reference of
	// commentID. forge.ErrNotFound if none.
	SetCrossRefAction(ctx context.Context, commentID forge.ID, action RefAction) error
}

// Reaction is a user's reaction (an emoji name of AllowedReactions) to an
// issue (CommentID 0) or to one of its comments.
type Reaction struct {
	ID        forge.ID
	IssueID   forge.ID
	CommentID forge.ID
	UserID    forge.ID
	Content   string
	Created   time.Time
}

// IssueWatch is a user's explicit choice to watch (IsWatching) or ignore
// an issue.
type IssueWatch struct {
	ID         forge.ID
	UserID     forge.ID
	IssueID    forge.ID
	IsWatching bool
	Created    time.Time
	Updated    time.Time
}

// CrossRef is what makes a comment of issue B (CommentID, of type
// CommentIssueRef, CommentCommentRef or CommentPullRef) a reference to B
// made by the text of issue RefIssueID (of repository RefRepoID) or of its
// comment RefCommentID.
type CrossRef struct {
	CommentID    forge.ID
	RefRepoID    forge.ID
	RefIssueID   forge.ID
	RefCommentID forge.ID
	RefIsPull    bool
	Action       RefAction
}

// RefAction is what a reference asks of its target, with Forgejo's values
// (modules/references XRefAction).
type RefAction int

// Reference actions.
const (
	RefActionNone     RefAction = 0
	RefActionCloses   RefAction = 1
	RefActionReopens  RefAction = 2
	RefActionNeutered RefAction = 3
)

// String returns Forgejo's wire name of the action (TimelineComment's
// ref_action).
func (a RefAction) String() string {
	switch a {
	case RefActionCloses:
		return "closes"
	case RefActionReopens:
		return "reopens"
	case RefActionNeutered:
		return "neutered"
	}
	return ""
}

// The comment types of cross-references and pins (models/issues/comment.go).
const (
	CommentIssueRef   CommentType = 3
	CommentCommentRef CommentType = 5
	CommentPullRef    CommentType = 6
	CommentPin        CommentType = 36
	CommentUnpin      CommentType = 37
)
