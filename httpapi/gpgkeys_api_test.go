package httpapi_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ProtonMail/go-crypto/openpgp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge/gpgkeys"
)

// TestGPGKeysMadeByRealGPG adds, verifies, lists and deletes a key the
// real gpg made, with a detached signature of the verification token gpg
// made: the key ids and e-mails expected are gpg's.
func TestGPGKeysMadeByRealGPG(t *testing.T) {
	t.Parallel()
	const uid = "Alice <alice@example.com>"
	e, g, keyID, subKeyID, armored := newKeyEnv(t, uid)

	// Added without a signature: an identity names alice's address.
	k := e.send(e.alice, "POST", "/api/v1/user/gpg_keys", map[string]any{"armored_public_key": armored}, 201).json(t)
	assert.Equal(t, keyID, k["key_id"])
	assert.Equal(t, "", k["primary_key_id"])
	assert.Equal(t, false, k["verified"])
	assert.Equal(t, true, k["can_sign"])
	assert.Equal(t, []any{map[string]any{"email": "alice@example.com", "verified": true}}, k["emails"])
	subs := k["subkeys"].([]any)
	require.Len(t, subs, 1)
	sub := subs[0].(map[string]any)
	assert.Equal(t, subKeyID, sub["key_id"])
	assert.Equal(t, keyID, sub["primary_key_id"])
	assert.Equal(t, true, sub["can_encrypt_comms"])
	assert.Equal(t, false, sub["can_sign"])
	id := int64(k["id"].(float64))

	// The same key again, by anyone: the key id is taken.
	e.expect(e.do(req{method: "POST", path: "/api/v1/user/gpg_keys", token: e.bob, body: map[string]any{"armored_public_key": armored}}),
		422, "A key with the same id already exists")

	// Verified with gpg's signature of the token.
	r := e.send(e.alice, "GET", "/api/v1/user/gpg_key_token", nil, 200)
	token := string(r.body)
	require.Regexp(t, `^[0-9a-f]{64}$`, token)
	assert.Equal(t, token, string(e.send(e.alice, "GET", "/api/v1/user/gpg_key_token", nil, 200).body), "the same minute, the same token")
	assert.NotEqual(t, token, string(e.send(e.bob, "GET", "/api/v1/user/gpg_key_token", nil, 200).body), "a token per user")
	// Another user's signature of alice's token proves nothing.
	bogus := g.sign(uid, "not the token")
	e.expect(e.do(req{method: "POST", path: "/api/v1/user/gpg_key_verify", token: e.alice,
		body: map[string]any{"key_id": keyID, "armored_signature": bogus}}), 422,
		"The provided GPG key, signature and token do not match or token is out of date. Provide a valid signature for the token: "+token)
	// Nor does another key's signature of the token.
	const other = "Alice Again <alice@example.com>"
	g.genKey(other)
	e.expect(e.do(req{method: "POST", path: "/api/v1/user/gpg_key_verify", token: e.alice,
		body: map[string]any{"key_id": keyID, "armored_signature": g.sign(other, token)}}), 422,
		"The provided GPG key, signature and token do not match or token is out of date. Provide a valid signature for the token: "+token)
	e.expect(e.do(req{method: "POST", path: "/api/v1/user/gpg_key_verify", token: e.bob,
		body: map[string]any{"key_id": keyID, "armored_signature": g.sign(uid, token)}}), 404, "")
	v := e.send(e.alice, "POST", "/api/v1/user/gpg_key_verify",
		map[string]any{"key_id": keyID, "armored_signature": g.sign(uid, token)}, 200).json(t)
	assert.Equal(t, true, v["verified"])
	assert.Equal(t, k["id"], v["id"])

	// Listed by its owner and by others; read by its owner only.
	r = e.send(e.alice, "GET", "/api/v1/user/gpg_keys", nil, 200)
	assert.Equal(t, "1", r.Header.Get("X-Total-Count"))
	list := r.list(t)
	require.Len(t, list, 1)
	assert.Equal(t, true, list[0]["verified"])
	assert.Len(t, list[0]["subkeys"], 1)
	others := e.send(e.bob, "GET", "/api/v1/users/alice/gpg_keys", nil, 200).list(t)
	require.Len(t, others, 1)
	assert.Equal(t, keyID, others[0]["key_id"])
	assert.Empty(t, e.send(e.alice, "GET", "/api/v1/users/bob/gpg_keys", nil, 200).list(t))
	got := e.send(e.alice, "GET", fmt.Sprintf("/api/v1/user/gpg_keys/%d", id), nil, 200).json(t)
	assert.Equal(t, keyID, got["key_id"])
	e.expect(e.do(req{method: "GET", path: fmt.Sprintf("/api/v1/user/gpg_keys/%d", id), token: e.bob}), 404, "The target couldn't be found.")

	// Deleted by its owner only (Forgejo answers 204 to others, changing nothing).
	e.send(e.bob, "DELETE", fmt.Sprintf("/api/v1/user/gpg_keys/%d", id), nil, 204)
	e.send(e.alice, "GET", fmt.Sprintf("/api/v1/user/gpg_keys/%d", id), nil, 200)
	e.send(e.alice, "DELETE", fmt.Sprintf("/api/v1/user/gpg_keys/%d", id), nil, 204)
	e.send(e.alice, "GET", fmt.Sprintf("/api/v1/user/gpg_keys/%d", id), nil, 404)
	assert.Empty(t, e.send(e.alice, "GET", "/api/v1/user/gpg_keys", nil, 200).list(t))
	// Its id is free again, subkey included.
	e.send(e.alice, "POST", "/api/v1/user/gpg_keys", map[string]any{"armored_public_key": armored}, 201)
}

// TestGPGKeyOfAnotherAddress: a key none of whose identities names an
// activated address of the user is refused (404, naming the token) unless
// it comes with a signature of the token, and then it is verified.
func TestGPGKeyOfAnotherAddress(t *testing.T) {
	t.Parallel()
	const uid = "Other <other@example.org>"
	e, g, keyID, _, armored := newKeyEnv(t, uid)
	token := string(e.send(e.alice, "GET", "/api/v1/user/gpg_key_token", nil, 200).body)

	e.expect(e.do(req{method: "POST", path: "/api/v1/user/gpg_keys", token: e.alice, body: map[string]any{"armored_public_key": armored}}),
		404, "None of the emails attached to the GPG key could be found. It may still be added if you provide a valid signature for the token: "+token)
	e.expect(e.do(req{method: "POST", path: "/api/v1/user/gpg_keys", token: e.alice,
		body: map[string]any{"armored_public_key": armored, "armored_signature": g.sign(uid, "something else")}}),
		422, "The provided GPG key, signature and token do not match or token is out of date. Provide a valid signature for the token: "+token)
	assert.Empty(t, e.send(e.alice, "GET", "/api/v1/user/gpg_keys", nil, 200).list(t), "nothing stored")

	k := e.send(e.alice, "POST", "/api/v1/user/gpg_keys",
		map[string]any{"armored_public_key": armored, "armored_signature": g.sign(uid, token)}, 201).json(t)
	assert.Equal(t, keyID, k["key_id"])
	assert.Equal(t, true, k["verified"])
	assert.Equal(t, []any{}, k["emails"])
}

// TestGPGKeyBadInput: malformed armor, a key without identity, missing
// fields and unknown key ids get Forgejo's statuses and messages, and
// store nothing.
func TestGPGKeyBadInput(t *testing.T) {
	t.Parallel()
	const uid = "Alice <alice@example.com>"
	e, g, keyID, _, armored := newKeyEnv(t, uid)

	post := func(body map[string]any) resp {
		return e.do(req{method: "POST", path: "/api/v1/user/gpg_keys", token: e.alice, body: body})
	}
	for name, body := range map[string]string{
		"not armored":   "not a key",
		"no key inside": "-----BEGIN PGP PUBLIC KEY BLOCK-----\n\n-----END PGP PUBLIC KEY BLOCK-----\n",
		"truncated":     armored[:len(armored)/2],
		"no identity":   withoutIdentity(t, armored),
	} {
		r := post(map[string]any{"armored_public_key": body})
		require.Equal(t, 422, r.StatusCode, "%s: %s", name, r.body)
		assert.True(t, strings.HasPrefix(r.json(t)["message"].(string), "failed to parse gpg key "), "%s: %s", name, r.body)
	}
	e.expect(post(map[string]any{}), 422, "[ArmoredKey]: Required")
	e.expect(post(map[string]any{"armored_public_key": armored, "armored_signature": "not a signature"}), 422, "")
	assert.Empty(t, e.send(e.alice, "GET", "/api/v1/user/gpg_keys", nil, 200).list(t), "nothing stored")

	verify := func(body map[string]any) resp {
		return e.do(req{method: "POST", path: "/api/v1/user/gpg_key_verify", token: e.alice, body: body})
	}
	e.expect(verify(map[string]any{}), 422, "[KeyID]: Required")
	e.expect(verify(map[string]any{"key_id": "0000"}), 404, "The target couldn't be found.")
	e.expect(verify(map[string]any{"key_id": keyID, "armored_signature": "x"}), 404, "The target couldn't be found.")
	e.expect(verify(map[string]any{"key_id": strings.Repeat("F", 40)}), 404, "The target couldn't be found.")
	e.send(e.alice, "POST", "/api/v1/user/gpg_keys", map[string]any{"armored_public_key": armored}, 201)
	e.expect(verify(map[string]any{"key_id": keyID, "armored_signature": "x"}), 422, "")
	// The key id as Forgejo reads it: leading zeros dropped, any case.
	token := string(e.send(e.alice, "GET", "/api/v1/user/gpg_key_token", nil, 200).body)
	e.send(e.alice, "POST", "/api/v1/user/gpg_key_verify",
		map[string]any{"key_id": "00" + strings.ToLower(keyID), "armored_signature": g.sign(uid, token)}, 200)
	e.send(e.alice, "GET", "/api/v1/user/gpg_keys/abc", nil, 404)
}

// withoutIdentity is the primary key of armored alone, armored: a key
// with no user id.
func withoutIdentity(t *testing.T, armored string) string {
	t.Helper()
	list, err := openpgp.ReadArmoredKeyRing(strings.NewReader(armored))
	require.NoError(t, err)
	return armoredPublicKey(t, list[0].PrimaryKey.Serialize)
}

// TestGPGKeyAccess: every key operation needs a token (401 without), the
// user scope at the operation's level (403), and a user who may act;
// another user's keys are listed only for users the actor may see.
func TestGPGKeyAccess(t *testing.T) {
	t.Parallel()
	e := newGPGEnv(t, gpgkeys.SigningKeys{})
	readUser, readRepo := e.token("alice", "read:user"), e.token("alice", "read:repository")
	for _, c := range []struct{ method, path string }{
		{"GET", "/api/v1/user/gpg_keys"}, {"POST", "/api/v1/user/gpg_keys"}, {"GET", "/api/v1/user/gpg_keys/1"},
		{"DELETE", "/api/v1/user/gpg_keys/1"}, {"GET", "/api/v1/user/gpg_key_token"}, {"POST", "/api/v1/user/gpg_key_verify"},
		{"GET", "/api/v1/users/bob/gpg_keys"},
	} {
		e.expect(e.do(req{method: c.method, path: c.path, body: map[string]any{}}), 401, "token is required")
		e.expect(e.do(req{method: c.method, path: c.path, token: readRepo, body: map[string]any{}}), 403, "")
		if c.method != "GET" {
			e.expect(e.do(req{method: c.method, path: c.path, token: readUser, body: map[string]any{}}), 403,
				"token does not have at least one of required scope(s): [write:user]")
		} else {
			require.NotEqual(t, 403, e.do(req{method: c.method, path: c.path, token: readUser}).StatusCode, c.path)
		}
	}
	e.expect(e.do(req{method: "GET", path: "/api/v1/users/nobody/gpg_keys", token: e.bob}), 404, "user redirect does not exist [name: nobody]")
}

// TestSigningKeys: without signing keys the host answers as Forgejo does
// (an empty 200 for GPG, 404 for SSH); with them, the public halves of
// the keys gpg and ssh-keygen made, to anyone, and for each repository
// the actor may see.
func TestSigningKeys(t *testing.T) {
	t.Parallel()
	t.Run("none", func(t *testing.T) {
		t.Parallel()
		e := newGPGEnv(t, gpgkeys.SigningKeys{})
		e.send(e.alice, "POST", "/api/v1/user/repos", map[string]any{"name": "pub"}, 201)
		r := e.send("", "GET", "/api/v1/signing-key.gpg", nil, 200)
		assert.Empty(t, r.body)
		assert.Empty(t, e.send("", "GET", "/api/v1/repos/alice/pub/signing-key.gpg", nil, 200).body)
		e.expect(e.do(req{method: "GET", path: "/api/v1/signing-key.ssh"}), 404, "The target couldn't be found.")
	})
	t.Run("configured", func(t *testing.T) {
		t.Parallel()
		g := newGnuPG(t)
		const uid = "Hearth <signing@example.com>"
		keyID, _ := g.genKey(uid)
		fpr := g.field(uid, "fpr", 9)
		dir := t.TempDir()
		sshPath := filepath.Join(dir, "signing")
		out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "hearth", "-f", sshPath).CombinedOutput()
		if err != nil {
			t.Skipf("ssh-keygen: %v: %s", err, out)
		}
		sshPub, err := os.ReadFile(sshPath + ".pub")
		require.NoError(t, err)
		sshPriv, err := os.ReadFile(sshPath)
		require.NoError(t, err)
		signing, err := gpgkeys.ParseSigningKeys([]byte(g.exportSecret(uid)), sshPriv)
		require.NoError(t, err)
		e := newGPGEnv(t, signing)
		e.send(e.alice, "POST", "/api/v1/user/repos", map[string]any{"name": "pub"}, 201)
		e.send(e.alice, "POST", "/api/v1/user/repos", map[string]any{"name": "secret", "private": true}, 201)

		r := e.send("", "GET", "/api/v1/signing-key.gpg", nil, 200)
		assert.Equal(t, "text/plain;charset=utf-8", r.Header.Get("Content-Type"))
		assert.NotContains(t, string(r.body), "PRIVATE", "the public half only")
		list, err := openpgp.ReadArmoredKeyRing(bytes.NewReader(r.body))
		require.NoError(t, err, "%s", r.body)
		require.Len(t, list, 1)
		assert.Equal(t, keyID, list[0].PrimaryKey.KeyIdString())
		assert.Equal(t, strings.ToLower(fpr), fmt.Sprintf("%x", list[0].PrimaryKey.Fingerprint))
		assert.Nil(t, list[0].PrivateKey)
		// gpg itself reads it as the same key.
		g2 := newGnuPG(t)
		g2.run(string(r.body), "--import")
		assert.Equal(t, fpr, g2.field(uid, "fpr", 9))

		assert.Equal(t, string(r.body), string(e.send(e.bob, "GET", "/api/v1/repos/alice/pub/signing-key.gpg", nil, 200).body))
		assert.Equal(t, string(r.body), string(e.send(e.alice, "GET", "/api/v1/repos/alice/secret/signing-key.gpg", nil, 200).body))
		e.send(e.bob, "GET", "/api/v1/repos/alice/secret/signing-key.gpg", nil, 404)
		e.send("", "GET", "/api/v1/repos/alice/nothing/signing-key.gpg", nil, 404)
		e.send(e.token("bob", "read:user"), "GET", "/api/v1/repos/alice/pub/signing-key.gpg", nil, 403)

		ssh := e.send("", "GET", "/api/v1/signing-key.ssh", nil, 200)
		f := strings.Fields(string(sshPub))
		assert.Equal(t, f[0]+" "+f[1]+"\n", string(ssh.body), "ssh-keygen's public key, in authorized_keys form")
	})
	t.Run("bad", func(t *testing.T) {
		t.Parallel()
		_, err := gpgkeys.ParseSigningKeys([]byte("not a key"), nil)
		require.Error(t, err)
		_, err = gpgkeys.ParseSigningKeys(nil, []byte("not a key"))
		require.Error(t, err)
	})
}

// TestGPGKeyBlockOfTwoKeys: one armored block of two keys adds both; a
// key is verified by its own signature only, not by the other's, though
// both came in the same block.
func TestGPGKeyBlockOfTwoKeys(t *testing.T) {
	t.Parallel()
	g := newGnuPG(t)
	e := newGPGEnv(t, gpgkeys.SigningKeys{})
	const a, b = "Alice <alice@example.com>", "Alice Too <alice@example.com>"
	idA, _ := g.genKey(a)
	idB, _ := g.genKey(b)
	block := g.run("", "--armor", "--export", a, b)
	e.send(e.alice, "POST", "/api/v1/user/gpg_keys", map[string]any{"armored_public_key": block}, 201)
	r := e.send(e.alice, "GET", "/api/v1/user/gpg_keys", nil, 200)
	assert.Equal(t, "2", r.Header.Get("X-Total-Count"))
	token := string(e.send(e.alice, "GET", "/api/v1/user/gpg_key_token", nil, 200).body)
	e.expect(e.do(req{method: "POST", path: "/api/v1/user/gpg_key_verify", token: e.alice,
		body: map[string]any{"key_id": idA, "armored_signature": g.sign(b, token)}}), 422,
		"The provided GPG key, signature and token do not match or token is out of date. Provide a valid signature for the token: "+token)
	e.send(e.alice, "POST", "/api/v1/user/gpg_key_verify", map[string]any{"key_id": idB, "armored_signature": g.sign(b, token)}, 200)
	verified := map[string]bool{}
	for _, k := range e.send(e.alice, "GET", "/api/v1/user/gpg_keys", nil, 200).list(t) {
		verified[k["key_id"].(string)] = k["verified"].(bool)
	}
	assert.Equal(t, map[string]bool{idA: false, idB: true}, verified)
}
