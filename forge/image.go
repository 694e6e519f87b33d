package forge

import "bytes"

// IsImage reports whether b starts like a PNG, JPEG, GIF or WebP file: the
// images avatars may be.
func IsImage(b []byte) bool {
	switch {
	case bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")),
		bytes.HasPrefix(b, []byte("\xff\xd8\xff")),
		bytes.HasPrefix(b, []byte("GIF87a")), bytes.HasPrefix(b, []byte("GIF89a")),
		len(b) > 12 && bytes.Equal(b[:4], []byte("RIFF")) && bytes.Equal(b[8:12], []byte("WEBP")):
		return true
	}
	return false
}

// MaxAvatarBytes bounds an avatar image.
const MaxAvatarBytes = 1 << 20

// CheckAvatar refuses an avatar image of no bytes or over MaxAvatarBytes
// (ErrInvalid `avatar image must be between 1 byte and 1048576 bytes`), or
// that is no PNG, JPEG, GIF or WebP image (ErrInvalid `avatar is not a
// PNG, JPEG, GIF or WebP image`).
func CheckAvatar(image []byte) error {
	switch {
	case len(image) == 0 || len(image) > MaxAvatarBytes:
		return Errorf(ErrInvalid, "avatar image must be between 1 byte and %d bytes", MaxAvatarBytes)
	case !IsImage(image):
		return Errorf(ErrInvalid, "avatar is not a PNG, JPEG, GIF or WebP image")
	}
	return nil
}
