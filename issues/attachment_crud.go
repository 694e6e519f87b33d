package issues

import (
	"context"
	"errors"

	"github.com/hearthforge/hearth/forge"
)

// AttachmentTarget names what an attachment hangs on: issue Index of the
// repository, or comment CommentID (then Index is ignored).
type AttachmentTarget struct {
	Index     int64
	CommentID forge.ID
}

// target loads the issue (and comment) of t for reading.
func (a *access) target(ctx context.Context, tx Tx, t AttachmentTarget) (*Issue, *Comment, error) {
	if t.CommentID != 0 {
		c, is, err := a.comment(ctx, tx, t.CommentID)
		return is, c, err
	}
	is, err := a.issue(ctx, tx, t.Index)
	return is, nil, err
}

// mayWriteAttachments is Forgejo's canUserWriteIssueAttachment (poster,
// repository admin or writer of the unit) or, for a comment,
// canUserWriteIssueCommentAttachment (comment poster or writer), with
// their messages.
func (a *access) mayWriteAttachments(is *Issue, c *Comment) error {
	if c != nil {
		if !a.isPoster(c.PosterID) && !a.canWrite(is.IsPull) {
			return forge.Errorf(forge.ErrForbidden, "user should have permission to edit comment")
		}
		return nil
	}
	if !a.isPoster(is.PosterID) && !a.isAdmin() && !a.canWrite(is.IsPull) {
		return forge.Errorf(forge.ErrForbidden, "user should have permission to write issue")
	}
	return nil
}

// attachment loads attachment id of t's issue or comment;
// ErrAttachmentNotFound when it hangs on something else.
func attachmentOf(ctx context.Context, tx Tx, is *Issue, c *Comment, id forge.ID) (*Attachment, error) {
	at, err := tx.AttachmentByID(ctx, id)
	if errors.Is(err, forge.ErrNotFound) || err == nil && (at.IssueID != is.ID || c == nil && at.CommentID != 0 || c != nil && at.CommentID != c.ID) {
		return nil, forge.Reasonf(forge.ErrNotFound, ErrAttachmentNotFound, "attachment does not exist [id: %d, uuid: ]", id)
	}
	return at, err
}

// ListAttachments returns the attachments of an issue (its own, not its
// comments') or of a comment, by id (read:issue).
func (s *Service) ListAttachments(ctx context.Context, actor forge.Actor, owner, repo string, t AttachmentTarget) ([]*Attachment, error) {
	a, err := s.open(ctx, actor, owner, repo, forge.AccessRead)
	if err != nil {
		return nil, err
	}
	var out []*Attachment
	err = s.store.View(ctx, func(tx Tx) error {
		is, c, err := a.target(ctx, tx, t)
		if err != nil {
			return err
		}
		f := AttachmentFilter{IssueIDs: []forge.ID{is.ID}}
		if c != nil {
			f = AttachmentFilter{CommentIDs: []forge.ID{c.ID}}
		}
		out, err = tx.Attachments(ctx, f)
		return err
	})
	return out, err
}

// GetAttachment returns attachment id of an issue or comment (read:issue);
// ErrAttachmentNotFound when it is not one of theirs.
func (s *Service) GetAttachment(ctx context.Context, actor forge.Actor, owner, repo string, t AttachmentTarget, id forge.ID) (*Attachment, error) {
	a, err := s.open(ctx, actor, owner, repo, forge.AccessRead)
	if err != nil {
		return nil, err
	}
	var at *Attachment
	err = s.store.View(ctx, func(tx Tx) error {
		is, c, err := a.target(ctx, tx, t)
		if err != nil {
			return err
		}
		at, err = attachmentOf(ctx, tx, is, c, id)
		return err
	})
	return at, err
}

// EditAttachment renames attachment id of an issue or comment
// (write:issue; as CreateIssueAttachment and CreateCommentAttachment);
// an empty name leaves it unchanged. forge.ErrArchived; ErrAttachmentNotFound.
func (s *Service) EditAttachment(ctx context.Context, actor forge.Actor, owner, repo string, t AttachmentTarget, id forge.ID, name string) (*Attachment, error) {
	a, err := s.open(ctx, actor, owner, repo, forge.AccessWrite)
	if err != nil {
		return nil, err
	}
	if err := a.notArchived(); err != nil {
		return nil, err
	}
	var at *Attachment
	err = s.store.Update(ctx, func(tx Tx) error {
		is, c, err := a.target(ctx, tx, t)
		if err != nil {
			return err
		}
		if err := a.mayWriteAttachments(is, c); err != nil {
			return err
		}
		if at, err = attachmentOf(ctx, tx, is, c, id); err != nil {
			return err
		}
		if name != "" {
			at.Name = name
		}
		return tx.UpdateAttachment(ctx, at)
	})
	return at, err
}

// DeleteAttachment removes attachment id of an issue or comment and its
// bytes after the commit (write:issue; as EditAttachment).
func (s *Service) DeleteAttachment(ctx context.Context, actor forge.Actor, owner, repo string, t AttachmentTarget, id forge.ID) error {
	a, err := s.open(ctx, actor, owner, repo, forge.AccessWrite)
	if err != nil {
		return err
	}
	if err := a.notArchived(); err != nil {
		return err
	}
	var uuid string
	err = s.store.Update(ctx, func(tx Tx) error {
		is, c, err := a.target(ctx, tx, t)
		if err != nil {
			return err
		}
		if err := a.mayWriteAttachments(is, c); err != nil {
			return err
		}
		at, err := attachmentOf(ctx, tx, is, c, id)
		if err != nil {
			return err
		}
		uuid = at.UUID
		return tx.DeleteAttachment(ctx, at.ID)
	})
	if err != nil {
		return err
	}
	s.deleteBlobs(ctx, []string{uuid})
	return nil
}
