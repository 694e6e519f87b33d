package issues

import (
	"context"

	"github.com/hearthforge/hearth/forge"
)

// Authorize returns nil when actor may write to the issues of owner/name
// at all (a signed-in actor who may see the repository and read its issues
// or pull requests; with writer, as labels and milestones need, write
// access to one of those units), else the error the writes of this
// package return first: the token-scope or account-state error, the
// repository's not-found error as RepoAccess returns it, the not-found
// answer of a repository whose issues and pull requests the actor may not
// read, `token is required`, forge.ErrForbidden `user should have a
// permission to write to a repo`.
//
// It changes nothing and the operations check it all again: it lets the
// API refuse a caller without rights before it reads the request body, as
// Forgejo's middlewares run before its binding.
func (s *Service) Authorize(ctx context.Context, actor forge.Actor, owner, name string, writer bool) error {
	a, err := s.open(ctx, actor, owner, name, forge.AccessWrite)
	if err != nil || !writer {
		return err
	}
	return a.requireWriter()
}

// AuthorizeOrgLabels returns nil when actor may write the labels of the
// organisation org, else the error those writes return first (the
// token-scope error, the organisation's not-found error, `token is
// required`, forge.ErrForbidden `Must be an organization owner`).
func (s *Service) AuthorizeOrgLabels(ctx context.Context, actor forge.Actor, org string) error {
	_, err := s.org(ctx, actor, org, forge.AccessWrite)
	return err
}

// AuthorizeAttachment returns nil when actor may attach a file to issue
// index of owner/name (comment false) or to its comment id (comment
// true), else the error CreateIssueAttachment or CreateCommentAttachment
// returns first for any file: the errors of Authorize, the not-found
// answer when attachments are off, forge.ErrArchived, ErrIssueNotFound or
// ErrCommentNotFound, forge.ErrForbidden `user should have permission to
// write issue` or `user should have permission to edit comment`.
func (s *Service) AuthorizeAttachment(ctx context.Context, actor forge.Actor, owner, name string, comment bool, id int64) error {
	a, err := s.uploadAccess(ctx, actor, owner, name)
	if err != nil {
		return err
	}
	return s.store.View(ctx, func(tx Tx) error {
		if comment {
			_, _, err := a.commentAttachable(ctx, tx, id)
			return err
		}
		_, err := a.issueAttachable(ctx, tx, id)
		return err
	})
}

// AuthorizePulls returns nil when actor may write to the pull requests of
// owner/name at all, else the error their writes return first (openPulls:
// the repository token scope, the repository's not-found error, the
// not-found answer when pull requests or the code may not be read, `token
// is required`).
func (s *Service) AuthorizePulls(ctx context.Context, actor forge.Actor, owner, name string) error {
	_, err := s.openPullsAny(ctx, actor, owner, name, forge.AccessWrite)
	return err
}
