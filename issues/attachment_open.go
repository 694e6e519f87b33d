package issues

import (
	"context"
	"errors"
	"io"

	"github.com/hearthforge/hearth/forge"
)

// OpenAttachment returns the issue or comment attachment with that uuid
// and its bytes (GET /attachments/{uuid}) when the actor may read the
// issue's unit in its repository (read:issue), counting the download.
// Attachments of repositories or issues the actor may not see are
// forge.ErrNotFound, as missing ones; so is every attachment when
// Config.Repos cannot resolve repositories by id (RepoAccessByID) or no
// Blobs are configured. The caller closes the reader.
func (s *Service) OpenAttachment(ctx context.Context, actor forge.Actor, uuid string) (*Attachment, io.ReadCloser, error) {
	if err := actor.Check(forge.AccessRead, forge.CategoryIssue); err != nil {
		return nil, nil, err
	}
	by, ok := s.repos.(RepoAccessByID)
	if !ok || s.cfg.Blobs == nil {
		return nil, nil, notFound()
	}
	var (
		at *Attachment
		is *Issue
	)
	err := s.store.View(ctx, func(tx Tx) error {
		var err error
		if at, err = tx.AttachmentByUUID(ctx, uuid); err != nil {
			return err
		}
		is, err = tx.IssueByID(ctx, at.IssueID)
		return err
	})
	if errors.Is(err, forge.ErrNotFound) {
		return nil, nil, notFound()
	} else if err != nil {
		return nil, nil, err
	}
	repo, perm, err := by.RepoAccessByID(ctx, actor, is.RepoID)
	if errors.Is(err, forge.ErrNotFound) {
		return nil, nil, notFound()
	} else if err != nil {
		return nil, nil, err
	}
	a := &access{actor: actor, repo: repo, perm: perm}
	if !a.canRead(is.IsPull) {
		return nil, nil, notFound()
	}
	err = s.store.Update(ctx, func(tx Tx) error {
		cur, err := tx.AttachmentByID(ctx, at.ID)
		if err != nil {
			return err
		}
		cur.DownloadCount++
		at = cur
		return tx.UpdateAttachment(ctx, cur)
	})
	if errors.Is(err, forge.ErrNotFound) {
		return nil, nil, notFound()
	} else if err != nil {
		return nil, nil, err
	}
	rc, err := s.cfg.Blobs.Open(ctx, at.UUID)
	if errors.Is(err, forge.ErrNotFound) {
		return nil, nil, notFound()
	}
	return at, rc, err
}
