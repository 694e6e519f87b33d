package issues

import (
	"context"
	"time"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/quota"
)

// upload is one attachment upload: the checks run in a read transaction,
// the bytes are stored, and the row is written in a write transaction that
// checks again; a failure after the bytes are stored deletes them, so
// nothing is half-written.
type upload struct {
	s     *Service
	a     *access
	opt   UploadOption
	now   time.Time
	check func(ctx context.Context, tx Tx) (*Issue, *Comment, error)
}

func (u *upload) run(ctx context.Context) (*Attachment, error) {
	s, a := u.s, u.a
	var stamp time.Time
	var given bool
	stampOf := func(ctx context.Context, tx Tx) (*Issue, *Comment, error) {
		is, c, err := u.check(ctx, tx)
		if err != nil {
			return nil, nil, err
		}
		stamp, given, err = CheckUpdatedAt(a.perm, is.Created, u.opt.UpdatedAt, u.now)
		return is, c, err
	}
	owner, subject := quota.RepoOwner(a.repo), quota.SubjectAttachmentsIssues
	err := s.store.View(ctx, func(tx Tx) error {
		if _, _, err := stampOf(ctx, tx); err != nil {
			return err
		}
		// Forgejo's check (delta 0) before the bytes are stored.
		return quota.Check(ctx, tx, s.cfg.Quota, owner, subject, quota.BucketAttachmentsIssues, 0)
	})
	if err != nil {
		return nil, err
	}
	if u.opt.Content == nil {
		return nil, forge.Errorf(forge.ErrInvalid, "attachment: no file")
	}
	at := &Attachment{UUID: s.cfg.NewUUID(), RepoID: a.repo.ID, UploaderID: a.actor.UserID(), Name: u.opt.Name}
	size, err := s.cfg.Blobs.Put(ctx, at.UUID, u.opt.Content, s.cfg.MaxAttachmentSize)
	if err != nil {
		return nil, err
	}
	at.Size = size
	err = s.store.Update(ctx, func(tx Tx) error {
		is, c, err := stampOf(ctx, tx)
		if err != nil {
			return err
		}
		// The upload may not carry the owner past a limit; the row
		// inserted below is the usage (quota.BucketAttachmentsIssues).
		if err := quota.Charge(ctx, tx, s.cfg.Quota, owner, subject, quota.BucketAttachmentsIssues, size); err != nil {
			return err
		}
		at.IssueID, at.Created = is.ID, stamp
		if c != nil {
			at.CommentID = c.ID
			// rule 10: the comment's update date
			c.Updated = stamp
			if err := tx.UpdateComment(ctx, c); err != nil {
				return err
			}
		}
		if err := tx.CreateAttachment(ctx, at); err != nil {
			return err
		}
		if c != nil {
			return nil
		}
		// rule 7: the issue's content is saved again, dated with the stamp
		ch := newChange(tx, a.actor, is, u.now, stamp, given)
		is.ContentVersion++
		ch.dirty = true
		return ch.commit(ctx)
	})
	if err != nil {
		s.deleteBlobs(context.WithoutCancel(ctx), []string{at.UUID})
		return nil, err
	}
	return at, nil
}

func (s *Service) uploadAccess(ctx context.Context, actor forge.Actor, owner, repo string) (*access, error) {
	if s.cfg.Blobs == nil {
		return nil, notFound() // Forgejo's [attachment] ENABLED=false
	}
	a, err := s.open(ctx, actor, owner, repo, forge.AccessWrite)
	if err != nil {
		return nil, err
	}
	return a, a.notArchived()
}

// issueAttachable loads issue index for an attachment: its poster, a
// writer, a repository admin or a site administrator may attach (else
// forge.ErrForbidden `user should have permission to write issue`).
func (a *access) issueAttachable(ctx context.Context, tx Tx, index int64) (*Issue, error) {
	is, err := a.issue(ctx, tx, index)
	if err != nil {
		return nil, err
	}
	if !a.isPoster(is.PosterID) && !a.isAdmin() && !a.canWrite(is.IsPull) {
		return nil, forge.Errorf(forge.ErrForbidden, "user should have permission to write issue")
	}
	return is, nil
}

// commentAttachable loads comment id for an attachment: its poster or a
// writer may attach (else forge.ErrForbidden `user should have
// permission to edit comment`).
func (a *access) commentAttachable(ctx context.Context, tx Tx, id forge.ID) (*Comment, *Issue, error) {
	c, is, err := a.comment(ctx, tx, id)
	if err != nil {
		return nil, nil, err
	}
	if !a.isPoster(c.PosterID) && !a.canWrite(is.IsPull) {
		return nil, nil, forge.Errorf(forge.ErrForbidden, "user should have permission to edit comment")
	}
	return c, is, nil
}

// CreateIssueAttachment attaches a file to issue index (write:issue; its
// poster, a writer, a repository admin or a site administrator, else
// forge.ErrForbidden `user should have permission to write issue`). The
// date of opt.UpdatedAt (CheckUpdatedAt) is the attachment's creation and
// the issue's update. Returns a not-found error when Config.Blobs is nil,
// forge.ErrArchived, ErrIssueNotFound, forge.ErrInvalid when the file is
// over Config.MaxAttachmentSize.
func (s *Service) CreateIssueAttachment(ctx context.Context, actor forge.Actor, owner, repo string, index int64, opt UploadOption) (*Attachment, error) {
	a, err := s.uploadAccess(ctx, actor, owner, repo)
	if err != nil {
		return nil, err
	}
	u := &upload{s: s, a: a, opt: opt, now: s.clock.Now(), check: func(ctx context.Context, tx Tx) (*Issue, *Comment, error) {
		is, err := a.issueAttachable(ctx, tx, index)
		return is, nil, err
	}}
	return u.run(ctx)
}

// CreateCommentAttachment attaches a file to comment id (its poster or a
// writer, else forge.ErrForbidden `user should have permission to edit
// comment`), as CreateIssueAttachment; the date is the attachment's
// creation and the comment's update.
func (s *Service) CreateCommentAttachment(ctx context.Context, actor forge.Actor, owner, repo string, id forge.ID, opt UploadOption) (*Attachment, error) {
	a, err := s.uploadAccess(ctx, actor, owner, repo)
	if err != nil {
		return nil, err
	}
	u := &upload{s: s, a: a, opt: opt, now: s.clock.Now(), check: func(ctx context.Context, tx Tx) (*Issue, *Comment, error) {
		c, is, err := a.commentAttachable(ctx, tx, id)
		return is, c, err
	}}
	return u.run(ctx)
}
