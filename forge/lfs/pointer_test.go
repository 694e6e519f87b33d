package lfs

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/assert"
)

func TestPointerValid(t *testing.T) {
	t.Parallel()
	good := strings.Repeat("0123456789abcdef", 4)
	for _, tc := range []struct {
		p    Pointer
		want bool
	}{
		{Pointer{good, 0}, true},
		{Pointer{good, 1 << 40}, true},
		{Pointer{good, -1}, false},
		{Pointer{strings.ToUpper(good), 1}, false},
		{Pointer{good[:63], 1}, false},
		{Pointer{good + "0", 1}, false},
		{Pointer{good[:63] + "g", 1}, false},
		{Pointer{"../../" + good[6:], 1}, false},
		{Pointer{"", 1}, false},
	} {
		assert.Equal(t, tc.want, tc.p.Valid(), "%+v", tc.p)
	}
}

// TestVerifyingReader: the right bytes end in io.EOF; a wrong size or
// hash ends in its error instead, so an atomic blob store keeps nothing;
// more bytes than announced are never read past size+1.
func TestVerifyingReader(t *testing.T) {
	t.Parallel()
	data := []byte("some object bytes")
	sum := sha256.Sum256(data)
	p := Pointer{Oid: hex.EncodeToString(sum[:]), Size: int64(len(data))}
	for _, tc := range []struct {
		name string
		p    Pointer
		r    io.Reader
		want error
	}{
		{"exact", p, bytes.NewReader(data), nil},
		{"one byte at a time", p, iotest.OneByteReader(bytes.NewReader(data)), nil},
		{"short", p, bytes.NewReader(data[:5]), ErrSizeMismatch},
		{"long", p, bytes.NewReader(append(data, '!')), ErrSizeMismatch},
		{"endless", p, iotest.OneByteReader(neverEnding('x')), ErrSizeMismatch},
		{"other bytes", p, bytes.NewReader(bytes.ToUpper(data)), ErrHashMismatch},
		{"empty object", Pointer{Oid: hex.EncodeToString(sha256.New().Sum(nil))}, bytes.NewReader(nil), nil},
	} {
		got, err := io.ReadAll(newVerifyingReader(tc.r, tc.p))
		if tc.want == nil {
			assert.NoError(t, err, tc.name)
			assert.Len(t, got, int(tc.p.Size), tc.name)
			continue
		}
		assert.True(t, errors.Is(err, tc.want), "%s: %v", tc.name, err)
		assert.LessOrEqual(t, len(got), int(tc.p.Size)+1, tc.name)
	}
}

type neverEnding byte

func (b neverEnding) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(b)
	}
	return len(p), nil
}
