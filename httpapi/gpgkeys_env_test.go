package httpapi_test

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/ProtonMail/go-crypto/openpgp"
	"github.com/ProtonMail/go-crypto/openpgp/armor"
	"github.com/ProtonMail/go-crypto/openpgp/packet"
	"github.com/stretchr/testify/require"
	"golang.org/x/crypto/ssh"

	"github.com/hearthforge/hearth/forge/gpgkeys"
	"github.com/hearthforge/hearth/forge/site"
	"github.com/hearthforge/hearth/httpapi"
)

// gpgEnv is the API with the GPG key service on a real database, as
// forge/site wires it (site.PrimaryEmails: a user's activated address is
// their primary one), and the repository service: alice, bob and eve
// (e-mails <name>@example.com) with tokens of every scope. Every answer
// is checked against the OpenAPI document.
type gpgEnv struct {
	*env
	alice, bob, eve string
}

func newGPGEnv(t *testing.T, signing gpgkeys.SigningKeys) *gpgEnv {
	t.Helper()
	b := newBase(t, ":memory:", testSecret)
	repoSvc, _ := b.repoService(t)
	svc, err := gpgkeys.New(gpgkeys.Config{Store: b.db.GPGKeys(), Users: b.auth, Emails: site.PrimaryEmails{Store: b.db.Auth()},
		Repos: repoSvc, Signing: signing, Clock: b.clock})
	require.NoError(t, err)
	e := &gpgEnv{env: b.serve(t, httpapi.Config{Auth: b.auth, Repos: repoSvc, Git: b.git, GPGKeys: svc})}
	for _, name := range []string{"alice", "bob", "eve"} {
		e.createUser(name)
	}
	e.alice, e.bob, e.eve = e.token("alice", "all"), e.token("bob", "all"), e.token("eve", "all")
	return e
}

// send is do with a token, failing unless the status is want.
func (e *gpgEnv) send(tok, method, path string, body any, want int) resp {
	e.t.Helper()
	r := e.do(req{method: method, path: path, token: tok, body: body})
	require.Equal(e.t, want, r.StatusCode, "%s %s: %s", method, path, r.body)
	return r
}

// gnupg is the real gpg (/usr/bin/gpg) with a keyring of its own in a
// temporary GNUPGHOME, its agent stopped when the test ends.
type gnupg struct {
	t    *testing.T
	home string
}

// newGnuPG returns a gnupg, or skips the test when gpg is not installed.
func newGnuPG(t *testing.T) *gnupg {
	t.Helper()
	if _, err := exec.LookPath("gpg"); err != nil {
		t.Skip("gpg is not installed: the test needs the real gpg")
	}
	// A short path: gpg-agent's socket lives in it.
	home, err := os.MkdirTemp("", "gpg")
	require.NoError(t, err)
	require.NoError(t, os.Chmod(home, 0o700))
	g := &gnupg{t: t, home: home}
	t.Cleanup(func() {
		_ = exec.Command("gpgconf", "--homedir", home, "--kill", "all").Run()
		_ = os.RemoveAll(home)
	})
	return g
}

// run runs gpg in batch mode with stdin, returning its standard output.
func (g *gnupg) run(stdin string, args ...string) string {
	g.t.Helper()
	cmd := exec.Command("gpg", append([]string{"--homedir", g.home, "--batch", "--no-tty", "--pinentry-mode", "loopback",
		"--passphrase", ""}, args...)...)
	cmd.Stdin = strings.NewReader(stdin)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(g.t, err, "gpg %v: %s", args, stderr.String())
	return string(out)
}

// genKey makes a key of uid with no passphrase: an ed25519 signing
// primary key and a cv25519 encryption subkey. It returns the primary
// key's long key id and the subkey's, as gpg lists them.
func (g *gnupg) genKey(uid string) (keyID, subKeyID string) {
	g.t.Helper()
	g.run("", "--quick-gen-key", uid, "ed25519", "sign", "never")
	fpr := g.field(uid, "fpr", 9)
	g.run("", "--quick-add-key", fpr, "cv25519", "encr", "never")
	return g.field(uid, "pub", 4), g.field(uid, "sub", 4)
}

// field is field n (0-based) of the first record of kind in gpg's
// --with-colons listing of uid.
func (g *gnupg) field(uid, kind string, n int) string {
	g.t.Helper()
	for _, line := range strings.Split(g.run("", "--with-colons", "--list-keys", uid), "\n") {
		if f := strings.Split(line, ":"); f[0] == kind && len(f) > n {
			return f[n]
		}
	}
	g.t.Fatalf("gpg lists no %s record for %s", kind, uid)
	return ""
}

// export is uid's public key, armored.
func (g *gnupg) export(uid string) string {
	g.t.Helper()
	return g.run("", "--armor", "--export", uid)
}

// exportSecret is uid's private key, armored (no passphrase).
func (g *gnupg) exportSecret(uid string) string {
	g.t.Helper()
	return g.run("", "--armor", "--export-secret-keys", uid)
}

// sign is gpg's armored detached signature of data by uid's key.
func (g *gnupg) sign(uid, data string) string {
	g.t.Helper()
	return g.run(data, "--armor", "--detach-sign", "--local-user", uid)
}

// newKeyEnv is newGPGEnv with no signing key and a gpg that made a key of
// uid: its key id, its subkey's and its armored export.
func newKeyEnv(t *testing.T, uid string) (e *gpgEnv, g *gnupg, keyID, subKeyID, armored string) {
	t.Helper()
	g = newGnuPG(t)
	e = newGPGEnv(t, gpgkeys.SigningKeys{})
	keyID, subKeyID = g.genKey(uid)
	return e, g, keyID, subKeyID, g.export(uid)
}

// matrixSigningKeys is an SSH signing key made here (the access matrix
// reads /signing-key.ssh as a public route that answers).
func matrixSigningKeys(t *testing.T) gpgkeys.SigningKeys {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	require.NoError(t, err)
	block, err := ssh.MarshalPrivateKey(priv, "matrix")
	require.NoError(t, err)
	keys, err := gpgkeys.ParseSigningKeys(nil, pem.EncodeToMemory(block))
	require.NoError(t, err)
	return keys
}

// armoredTestKey is an armored OpenPGP public key of email made by
// go-crypto, for tests that need a key but not gpg.
func armoredTestKey(t *testing.T, email string) string {
	t.Helper()
	e, err := openpgp.NewEntity("Test", "", email, &packet.Config{Algorithm: packet.PubKeyAlgoEdDSA})
	require.NoError(t, err)
	return armoredPublicKey(t, e.Serialize)
}

// armoredPublicKey is what write writes, armored as a public key block.
func armoredPublicKey(t *testing.T, write func(io.Writer) error) string {
	t.Helper()
	var buf bytes.Buffer
	w, err := armor.Encode(&buf, openpgp.PublicKeyType, nil)
	require.NoError(t, err)
	require.NoError(t, write(w))
	require.NoError(t, w.Close())
	return buf.String()
}
