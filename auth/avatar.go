package auth

import (
	"bytes"
	"context"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// avatarPrefix starts the blob key of every user avatar.
const avatarPrefix = "user-avatar-"

// SetAvatar stores image (PNG, JPEG, GIF or WebP) as the actor's avatar
// (forge.User.Avatar, the key of the blob); the previous one is deleted
// once the new one is recorded. forge.ErrInvalid for anything that is not
// such an image or is over forge.MaxAvatarBytes (forge.CheckAvatar); forge.ErrPrecondition without
// Config.Blobs. Needs a signed-in user with write:user.
func (s *Service) SetAvatar(ctx context.Context, actor forge.Actor, image []byte) error {
	if err := start(actor, "userUpdateAvatar"); err != nil {
		return err
	}
	if err := forge.CheckAvatar(image); err != nil {
		return err
	}
	if s.blobs == nil {
		return forge.Errorf(forge.ErrPrecondition, "avatars are disabled")
	}
	now := s.clock.Now()
	key := avatarPrefix + strconv.FormatInt(actor.User.ID, 10) + "-" + strconv.FormatInt(now.UnixNano(), 36)
	if _, err := s.blobs.Put(ctx, key, bytes.NewReader(image), forge.MaxAvatarBytes); err != nil {
		return err
	}
	old, err := s.setAvatarKey(ctx, actor.User.ID, key, now)
	switch {
	case err != nil:
		// No row names the new blob.
		s.blobs.Delete(context.WithoutCancel(ctx), key)
	case old != "" && old != key:
		s.blobs.Delete(ctx, old)
	}
	return err
}

// setAvatarKey records key as user id's avatar and returns the previous
// one.
func (s *Service) setAvatarKey(ctx context.Context, id forge.ID, key string, now time.Time) (string, error) {
	var old string
	err := s.store.Update(ctx, func(tx Tx) error {
		u, err := tx.UserByID(ctx, id)
		if err != nil {
			return err
		}
		old = u.Avatar
		if old == key {
			return nil
		}
		u.Avatar, u.Updated = key, now
		return tx.UpdateUser(ctx, u)
	})
	return old, err
}

// DeleteAvatar removes the actor's avatar (its avatar is then the
// e-mail's hash again). Needs a signed-in user with write:user.
func (s *Service) DeleteAvatar(ctx context.Context, actor forge.Actor) error {
	if err := start(actor, "userDeleteAvatar"); err != nil {
		return err
	}
	old, err := s.setAvatarKey(ctx, actor.User.ID, "", s.clock.Now())
	if err == nil && old != "" && s.blobs != nil {
		s.blobs.Delete(ctx, old)
	}
	return err
}

// OpenAvatar returns a user avatar image by its key (avatars are public,
// as in Forgejo); forge.ErrNotFound if there is none.
func (s *Service) OpenAvatar(ctx context.Context, key string) (io.ReadCloser, error) {
	if !strings.HasPrefix(key, avatarPrefix) || s.blobs == nil {
		return nil, forge.Errorf(forge.ErrNotFound, "avatar does not exist")
	}
	return s.blobs.Open(ctx, key)
}
