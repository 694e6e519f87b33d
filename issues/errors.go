package issues

import (
	"errors"

	"github.com/hearthforge/hearth/forge"
)

// Reasons below the forge categories, for the answers Forgejo gives
// differently within one category. Test them with errors.Is.
var (
	// ErrNotPoster: the actor is neither the poster nor a writer. Forgejo
	// answers 403 with an empty body. It is a forge.ErrForbidden.
	ErrNotPoster = errors.New("not the poster nor a writer")
	// ErrNotEditable: the comment's type has no content. Forgejo answers
	// 204. It is a forge.ErrPrecondition.
	ErrNotEditable = errors.New("comment type has no content")
	// ErrIssueNotFound: no such issue, or not readable. Forgejo's body
	// names IsErrIssueNotExist on some routes. It is a forge.ErrNotFound.
	ErrIssueNotFound = errors.New("issue does not exist")
	// ErrLabelNotFound is a forge.ErrNotFound (forge.ErrInvalid where
	// Forgejo answers 422: RemoveLabel).
	ErrLabelNotFound = errors.New("label does not exist")
	// ErrMilestoneNotFound is a forge.ErrNotFound.
	ErrMilestoneNotFound = errors.New("milestone does not exist")
	// ErrCommentNotFound is a forge.ErrNotFound.
	ErrCommentNotFound = errors.New("comment does not exist")
	// ErrAttachmentNotFound is a forge.ErrNotFound.
	ErrAttachmentNotFound = errors.New("attachment does not exist")
)

// notPoster is the bare 403 of Forgejo's issue and comment edits.
func notPoster() error {
	return forge.Reasonf(forge.ErrForbidden, ErrNotPoster, "")
}
