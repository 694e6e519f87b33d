package issues

import (
	"context"

	"github.com/hearthforge/hearth/forge"
)

// Target is what a gated operation names: the repository Owner/Name, or
// the organisation Org for the organisation labels; for an upload, the
// issue (Attachment.Index) or the comment (Attachment.CommentID).
type Target struct {
	Owner, Name, Org string
	Attachment       AttachmentTarget
}

// Authorize returns nil when actor may call the gated operation op
// (Forgejo's operationId, a key of gated) on t as far as Forgejo checks
// before it reads the request body, else the error op returns first for
// such an actor:
//   - the issue writes (probeIssues): the token-scope or account-state
//     error, the repository's not-found error as RepoAccess returns it, the
//     not-found answer of a repository whose issues and pull requests the
//     actor may not read, `token is required`; with probeIssueWriter (labels
//     and milestones) also forge.ErrForbidden `user should have a
//     permission to write to a repo`;
//   - the pull request writes (probePulls, openPulls): the repository token
//     scope, the repository's not-found error, the not-found answer when
//     pull requests or the code may not be read, `token is required`;
//   - the uploads: those of the issue writes, the not-found answer when
//     attachments are off, forge.ErrArchived, ErrIssueNotFound or
//     ErrCommentNotFound, forge.ErrForbidden `user should have permission
//     to write issue` or `user should have permission to edit comment`;
//   - the organisation labels: the token-scope error, the organisation's
//     not-found error, `token is required`, forge.ErrForbidden `Must be an
//     organization owner`.
//
// forge.ErrInvalid for an op this package does not probe. It changes
// nothing and the operations check it all again: it lets the API refuse a
// caller without rights before it reads the request body, as Forgejo's
// middlewares run before its binding.
func (s *Service) Authorize(ctx context.Context, actor forge.Actor, op string, t Target) error {
	switch gated[op] {
	case probeIssues, probeIssueWriter:
		a, err := s.open(ctx, actor, t.Owner, t.Name, forge.AccessWrite)
		if err != nil || gated[op] != probeIssueWriter {
			return err
		}
		return a.requireWriter()
	case probePulls:
		_, err := s.openPullsAny(ctx, actor, t.Owner, t.Name, forge.AccessWrite)
		return err
	case probeIssueUpload, probeCommentUpload:
		return s.authorizeUpload(ctx, actor, t.Owner, t.Name, gated[op] == probeCommentUpload, t.Attachment)
	case probeOrgLabels:
		_, err := s.org(ctx, actor, t.Org, forge.AccessWrite)
		return err
	}
	return forge.Errorf(forge.ErrInvalid, "issues: %q is no gated operation", op)
}

// authorizeUpload is Authorize for an upload to the issue t.Index of
// owner/name or, with comment, to its comment t.CommentID.
func (s *Service) authorizeUpload(ctx context.Context, actor forge.Actor, owner, name string, comment bool, t AttachmentTarget) error {
	a, err := s.uploadAccess(ctx, actor, owner, name)
	if err != nil {
		return err
	}
	return s.store.View(ctx, func(tx Tx) error {
		if comment {
			_, _, err := a.commentAttachable(ctx, tx, t.CommentID)
			return err
		}
		_, err := a.issueAttachable(ctx, tx, t.Index)
		return err
	})
}
