package orgs

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

// avatarPrefix starts the blob key of every organisation avatar.
const avatarPrefix = "org-avatar-"

// IsImage reports whether b starts like a PNG, JPEG, GIF or WebP file
// (forge.IsImage).
func IsImage(b []byte) bool { return forge.IsImage(b) }

// SetAvatar stores image (PNG, JPEG, GIF or WebP) as the organisation's
// avatar. Needs write:organization and an owner. forge.ErrInvalid for
// anything that is not such an image or is over MaxAvatarBytes;
// forge.ErrPrecondition without Config.Blobs. The previous image is
// deleted once the new one is recorded.
func (s *Service) SetAvatar(ctx context.Context, actor forge.Actor, org string, image []byte) error {
	var old, key string
	_, err := s.updateOrg(ctx, actor, "orgUpdateAvatar", org, func(_ Tx, v *orgView, now time.Time) error {
		if err := s.checkAvatar(image); err != nil {
			return err
		}
		old = v.org.Avatar
		key = avatarPrefix + strconv.FormatInt(v.org.ID, 10) + "-" + strconv.FormatInt(now.UnixNano(), 36)
		if key == old {
			key += "-1" // two uploads in one second keep distinct keys
		}
		if _, err := s.cfg.Blobs.Put(ctx, key, bytes.NewReader(image), MaxAvatarBytes); err != nil {
			return err
		}
		v.org.Avatar = key
		return nil
	})
	switch {
	case err != nil && key != "":
		// The blob was perhaps written: the organisation does not name it.
		s.cfg.Blobs.Delete(ctx, key)
	case err == nil && old != "" && old != key:
		s.cfg.Blobs.Delete(ctx, old)
	}
	return err
}

// checkAvatar refuses an avatar that is no image or too big, and any
// avatar without Config.Blobs.
func (s *Service) checkAvatar(image []byte) error {
	if err := forge.CheckAvatar(image); err != nil {
		return err
	}
	if s.cfg.Blobs == nil {
		return forge.Errorf(forge.ErrPrecondition, "avatars are disabled")
	}
	return nil
}

// DeleteAvatar removes the organisation's avatar. Needs write:organization
// and an owner.
func (s *Service) DeleteAvatar(ctx context.Context, actor forge.Actor, org string) error {
	var old string
	_, err := s.updateOrg(ctx, actor, "orgDeleteAvatar", org, func(_ Tx, v *orgView, _ time.Time) error {
		old, v.org.Avatar = v.org.Avatar, ""
		return nil
	})
	if err == nil && old != "" && s.cfg.Blobs != nil {
		s.cfg.Blobs.Delete(ctx, old)
	}
	return err
}

// OpenAvatar returns an organisation avatar image by its key (avatars are
// public, as in Forgejo); forge.ErrNotFound if there is none.
func (s *Service) OpenAvatar(ctx context.Context, key string) (io.ReadCloser, error) {
	if !strings.HasPrefix(key, avatarPrefix) || s.cfg.Blobs == nil {
		return nil, forge.Errorf(forge.ErrNotFound, "avatar does not exist")
	}
	return s.cfg.Blobs.Open(ctx, key)
}
