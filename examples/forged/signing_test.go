package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ProtonMail/go-crypto/openpgp"
	"github.com/ProtonMail/go-crypto/openpgp/armor"
	"github.com/ProtonMail/go-crypto/openpgp/packet"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// -signing-key-gpg and -signing-key-ssh name the host's signing keys:
// forged serves their public halves; a file that is missing or holds no
// key stops it at start.
func TestSigningKeyFlags(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	sshPath := filepath.Join(dir, "ssh_signing")
	if out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "forged", "-f", sshPath).CombinedOutput(); err != nil {
		t.Skipf("ssh-keygen: %v: %s", err, out)
	}
	e, err := openpgp.NewEntity("Forged", "", "forged@example.com", &packet.Config{Algorithm: packet.PubKeyAlgoEdDSA})
	require.NoError(t, err)
	var priv bytes.Buffer
	w, err := armor.Encode(&priv, openpgp.PrivateKeyType, nil)
	require.NoError(t, err)
	require.NoError(t, e.SerializePrivate(w, nil))
	require.NoError(t, w.Close())
	gpgPath := filepath.Join(dir, "gpg_signing.asc")
	require.NoError(t, os.WriteFile(gpgPath, priv.Bytes(), 0o600))

	s := start(t, t.TempDir(), nil, "-signing-key-gpg", gpgPath, "-signing-key-ssh", sshPath)
	r := s.do(t, call{method: "GET", path: "/api/v1/signing-key.gpg"})
	require.Equal(t, 200, r.status, "%s", r.raw)
	list, err := openpgp.ReadArmoredKeyRing(bytes.NewReader(r.raw))
	require.NoError(t, err, "%s", r.raw)
	assert.Equal(t, e.PrimaryKey.KeyIdString(), list[0].PrimaryKey.KeyIdString())
	assert.Nil(t, list[0].PrivateKey, "the public half only")
	pub, err := os.ReadFile(sshPath + ".pub")
	require.NoError(t, err)
	f := strings.Fields(string(pub))
	r = s.do(t, call{method: "GET", path: "/api/v1/signing-key.ssh"})
	require.Equal(t, 200, r.status, "%s", r.raw)
	assert.Equal(t, f[0]+" "+f[1]+"\n", string(r.raw))

	for _, args := range [][]string{
		{"-signing-key-gpg", filepath.Join(dir, "missing")},
		{"-signing-key-ssh", gpgPath},
		{"-signing-key-gpg", sshPath + ".pub"},
	} {
		err := run(context.Background(), append([]string{"-addr", "127.0.0.1:0", "-data", t.TempDir()}, args...),
			func(string) string { return "" }, io.Discard, io.Discard, nil)
		assert.Error(t, err, "%v", args)
	}
}
