package forge_test

import (
	"encoding/base64"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
)

func TestSeal(t *testing.T) {
	t.Parallel()
	secret := []byte("0123456789abcdef0123456789abcdef")
	a, err := forge.Seal(secret, []byte("JBSWY3DPEHPK3PXP"))
	assert.NoError(t, err)
	b, _ := forge.Seal(secret, []byte("JBSWY3DPEHPK3PXP"))
	assert.NotEqual(t, a, b, "fresh nonce every time")
	assert.NotContains(t, a, "JBSWY3DPEHPK3PXP")
	plain, err := forge.Unseal(secret, a)
	assert.NoError(t, err)
	assert.Equal(t, "JBSWY3DPEHPK3PXP", string(plain))
	_, err = forge.Unseal([]byte("other"), a)
	assert.ErrorIs(t, err, forge.ErrInvalid)
	// Flip one bit of the tag (decoded, so the change cannot fall into
	// base64's unused trailing bits and leave the bytes as they were).
	raw, err := base64.RawStdEncoding.DecodeString(a)
	require.NoError(t, err)
	raw[len(raw)-1] ^= 0x01
	_, err = forge.Unseal(secret, base64.RawStdEncoding.EncodeToString(raw))
	assert.ErrorIs(t, err, forge.ErrInvalid)
	_, err = forge.Seal(nil, []byte("x"))
	assert.ErrorIs(t, err, forge.ErrPrecondition)
}
