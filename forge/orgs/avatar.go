package orgs

import (
	"context"
	"io"

	"github.com/hearthforge/hearth/forge"
)

// MaxAvatarBytes bounds an avatar image.
const MaxAvatarBytes = 1 << 20

// SetAvatar stores image (PNG, JPEG, GIF or WebP) as the organisation's
// avatar. Needs write:organization and an owner. forge.ErrInvalid for
// anything that is not such an image or is over MaxAvatarBytes;
// forge.ErrPrecondition without Config.Blobs.
func (s *Service) SetAvatar(ctx context.Context, actor forge.Actor, org string, image []byte) error {
	return errTodo
}

// DeleteAvatar removes the organisation's avatar. Needs write:organization
// and an owner.
func (s *Service) DeleteAvatar(ctx context.Context, actor forge.Actor, org string) error {
	return errTodo
}

// OpenAvatar returns an organisation avatar image by its key (avatars are
// public); forge.ErrNotFound if there is none.
func (s *Service) OpenAvatar(ctx context.Context, key string) (io.ReadCloser, error) {
	return nil, errTodo
}
