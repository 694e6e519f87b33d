package sshkeys_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/crypto/ssh"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/sshkeys"
)

// TestFingerprintIsSSHKeygens parses keys the real ssh-keygen made, in
// OpenSSH's one-line format and in RFC 4716's (ssh-keygen -e), and
// compares the fingerprint with what `ssh-keygen -lf` prints.
func TestFingerprintIsSSHKeygens(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("ssh-keygen"); err != nil {
		t.Skip("ssh-keygen is not installed")
	}
	for _, typ := range [][]string{{"-t", "ed25519"}, {"-t", "ecdsa", "-b", "384"}, {"-t", "rsa", "-b", "3072"}} {
		t.Run(typ[1], func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(t.TempDir(), "key")
			out, err := exec.Command("ssh-keygen", append([]string{"-q", "-N", "", "-C", "me@host", "-f", path}, typ...)...).CombinedOutput()
			require.NoError(t, err, "%s", out)
			out, err = exec.Command("ssh-keygen", "-lf", path+".pub").Output()
			require.NoError(t, err)
			want := strings.Fields(string(out))[1] // "<bits> SHA256:… comment (TYPE)"
			require.True(t, strings.HasPrefix(want, "SHA256:"))
			pub, err := os.ReadFile(path + ".pub")
			require.NoError(t, err)
			p, err := sshkeys.Parse(string(pub))
			require.NoError(t, err)
			assert.Equal(t, want, p.Fingerprint)
			assert.Equal(t, strings.Join(strings.Fields(string(pub))[:2], " "), p.Content, "the content is the type and the key, no comment")
			rfc, err := exec.Command("ssh-keygen", "-e", "-f", path+".pub").Output()
			require.NoError(t, err)
			p2, err := sshkeys.Parse(string(rfc))
			require.NoError(t, err, "%s", rfc)
			assert.Equal(t, want, p2.Fingerprint, "the RFC 4716 form is the same key")
		})
	}
}

// TestParseRefusesBadKeys: Forgejo's "Invalid key content" for what is not
// one public key of an allowed type and size.
func TestParseRefusesBadKeys(t *testing.T) {
	t.Parallel()
	rsaKey, err := rsa.GenerateKey(rand.Reader, 2048)
	require.NoError(t, err)
	small, err := ssh.NewPublicKey(&rsaKey.PublicKey)
	require.NoError(t, err)
	ec, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	ecPub, err := ssh.NewPublicKey(&ec.PublicKey)
	require.NoError(t, err)
	good := strings.TrimSpace(string(ssh.MarshalAuthorizedKey(ecPub)))
	for _, c := range []struct{ name, text, want string }{
		{"empty", "  ", "Invalid key content: empty key"},
		{"garbage", "not a key", "Invalid key content: ssh: no key found; last parsing error for ignored line: illegal base64 data at input byte 0"},
		{"two lines", good + "\n" + good, "Invalid key content: only a single line with a single key please"},
		{"private", "-----BEGIN OPENSSH PRIVATE KEY-----\nabc\n-----END OPENSSH PRIVATE KEY-----", "Invalid key content: a private key was given: give the public key"},
		{"rsa 2048", string(ssh.MarshalAuthorizedKey(small)), "Invalid key content: key length is not enough: got 2048, needs 3071"},
		{"bad base64", "ssh-ed25519 !!!!", "Invalid key content: ssh: no key found; last parsing error for ignored line: illegal base64 data at input byte 0"},
		{"unfinished rfc4716", "---- BEGIN SSH2 PUBLIC KEY ----\nAAAA", "Invalid key content: no end of the SSH2 public key block"},
	} {
		_, err := sshkeys.Parse(c.text)
		assert.ErrorIs(t, err, forge.ErrInvalid, c.name)
		if err != nil {
			assert.Equal(t, c.want, err.Error(), c.name)
		}
	}
	p, err := sshkeys.Parse(`command="x",no-pty ` + good + " comment with spaces")
	require.NoError(t, err, "options and a comment are allowed")
	assert.Equal(t, good, p.Content)
}
