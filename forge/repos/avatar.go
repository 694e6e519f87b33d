package repos

import (
	"bytes"
	"context"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// MaxAvatarBytes bounds an avatar image.
const MaxAvatarBytes = forge.MaxAvatarBytes

// SetAvatar stores image (PNG, JPEG, GIF or WebP) as the repository's
// avatar. reqAdmin, not archived. forge.ErrInvalid for anything that is not
// such an image or is over MaxAvatarBytes; forge.ErrPrecondition without a
// blob store.
func (s *Service) SetAvatar(ctx context.Context, actor forge.Actor, owner, name string, image []byte) error {
	if err := forge.CheckAvatar(image); err != nil {
		return err
	}
	if s.cfg.Blobs == nil {
		return forge.Errorf(forge.ErrPrecondition, "avatars are disabled")
	}
	var old, written string
	_, err := s.updateRepo(ctx, actor, owner, name, func(r *forge.Repository, now time.Time) error {
		old = r.Avatar
		r.Avatar = avatarKey(r.ID, now)
		_, err := s.cfg.Blobs.Put(ctx, r.Avatar, bytes.NewReader(image), MaxAvatarBytes)
		if err == nil {
			written = r.Avatar
		}
		return err
	})
	switch {
	case err != nil && written != "":
		// The transaction failed after the blob was written: no row
		// names it.
		s.cfg.Blobs.Delete(context.WithoutCancel(ctx), written)
	case err == nil && old != "":
		s.cfg.Blobs.Delete(ctx, old)
	}
	return err
}

// avatarKey is the blob key of a new avatar of repository id. Keys are
// never shared between repositories.
func avatarKey(id forge.ID, now time.Time) string {
	return "repo-avatar-" + strconv.FormatInt(id, 10) + "-" + strconv.FormatInt(now.UnixNano(), 36)
}

// DeleteAvatar removes the repository's avatar. reqAdmin, not archived.
func (s *Service) DeleteAvatar(ctx context.Context, actor forge.Actor, owner, name string) error {
	var old string
	_, err := s.updateRepo(ctx, actor, owner, name, func(r *forge.Repository, _ time.Time) error {
		old, r.Avatar = r.Avatar, ""
		return nil
	})
	if err == nil && old != "" && s.cfg.Blobs != nil {
		s.cfg.Blobs.Delete(ctx, old)
	}
	return err
}

// OpenAvatar returns an avatar image by its key (avatars are public, as
// in Forgejo).
func (s *Service) OpenAvatar(ctx context.Context, key string) (io.ReadCloser, error) {
	if !strings.HasPrefix(key, "repo-avatar-") || s.cfg.Blobs == nil {
		return nil, forge.Errorf(forge.ErrNotFound, "avatar does not exist")
	}
	return s.cfg.Blobs.Open(ctx, key)
}

// IsImage reports whether b starts like a PNG, JPEG, GIF or WebP file
// (forge.IsImage).
func IsImage(b []byte) bool { return forge.IsImage(b) }
