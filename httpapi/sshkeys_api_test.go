package httpapi_test

import (
	"crypto/ed25519"
	"crypto/rand"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/crypto/ssh"

	"github.com/hearthforge/hearth/forge/sshkeys"
	"github.com/hearthforge/hearth/httpapi"
)

// newKeysEnv is an API with repositories and the key service (forge/sshkeys)
// on SQLite, every answer checked against the OpenAPI document; alice and
// bob are users.
func newKeysEnv(t *testing.T) *env {
	t.Helper()
	b := newBase(t, ":memory:", testSecret)
	repoSvc, _ := b.repoService(t)
	keys, err := sshkeys.New(sshkeys.Config{Store: b.db.SSHKeys(), Repos: repoSvc, Clock: b.clock})
	require.NoError(t, err)
	e := b.serve(t, httpapi.Config{Auth: b.auth, Repos: repoSvc, Git: b.git, SSHKeys: keys})
	e.createUser("alice")
	e.createUser("bob")
	return e
}

// pubKey is a new ed25519 public key in authorized_keys form.
func pubKey(t *testing.T) string {
	t.Helper()
	pub, _, err := ed25519.GenerateKey(rand.Reader)
	require.NoError(t, err)
	k, err := ssh.NewPublicKey(pub)
	require.NoError(t, err)
	return strings.TrimSpace(string(ssh.MarshalAuthorizedKey(k))) + " someone@host"
}

func basic(name string) (string, string) { return name, name + "-password" }

// TestUserKeysAPI covers /user/keys, /users/{username}/keys and the
// administrator's /admin/users/{username}/keys: success, who may not, bad
// input and duplicates, with Forgejo's statuses and messages.
func TestUserKeysAPI(t *testing.T) {
	t.Parallel()
	e := newKeysEnv(t)
	as := func(name string, r req) resp {
		r.user, r.pass = basic(name)
		if name == "root" {
			r.pass = "rootpassword"
		}
		return e.do(r)
	}
	key := pubKey(t)
	r := as("alice", req{method: "POST", path: "/api/v1/user/keys", body: map[string]any{"title": "laptop", "key": key}})
	e.expect(r, http.StatusCreated, "")
	created := r.json(t)
	id := int64(created["id"].(float64))
	sid := strconv.FormatInt(id, 10)
	assert.Equal(t, "laptop", created["title"])
	assert.Equal(t, strings.Join(strings.Fields(key)[:2], " "), created["key"])
	assert.Equal(t, "user", created["key_type"])
	assert.Equal(t, false, created["read_only"])
	assert.Equal(t, "alice", created["user"].(map[string]any)["login"])
	assert.True(t, strings.HasSuffix(created["url"].(string), "/api/v1/user/keys/"+sid), created["url"])
	// The fingerprint is what ssh-keygen -lf prints.
	if _, err := exec.LookPath("ssh-keygen"); err == nil {
		path := filepath.Join(t.TempDir(), "k.pub")
		require.NoError(t, os.WriteFile(path, []byte(key+"\n"), 0o600))
		out, err := exec.Command("ssh-keygen", "-lf", path).Output()
		require.NoError(t, err)
		assert.Equal(t, strings.Fields(string(out))[1], created["fingerprint"])
	}
	fp := created["fingerprint"].(string)

	// Reads: the owner's list, anyone's view of a key (without the private
	// information), the user's public list, a lookup by fingerprint.
	r = as("alice", req{method: "GET", path: "/api/v1/user/keys"})
	e.expect(r, http.StatusOK, "")
	assert.Len(t, r.list(t), 1)
	assert.Equal(t, "1", r.Header.Get("X-Total-Count"))
	r = as("bob", req{method: "GET", path: "/api/v1/user/keys/" + sid})
	e.expect(r, http.StatusOK, "")
	assert.NotContains(t, r.json(t), "key_type", "another's key shows no private information")
	r = e.do(req{method: "GET", path: "/api/v1/users/alice/keys"})
	e.expect(r, http.StatusOK, "")
	require.Len(t, r.list(t), 1)
	assert.Equal(t, fp, r.list(t)[0]["fingerprint"])
	r = as("bob", req{method: "GET", path: "/api/v1/user/keys?fingerprint=" + url.QueryEscape(fp)})
	e.expect(r, http.StatusOK, "")
	assert.Len(t, r.list(t), 1, "GET /user/keys?fingerprint looks among every user's keys, as Forgejo")
	r = as("bob", req{method: "GET", path: "/api/v1/users/bob/keys?fingerprint=" + url.QueryEscape(fp)})
	e.expect(r, http.StatusOK, "")
	assert.Empty(t, r.list(t), "…and /users/{username}/keys among the user's")
	e.expect(e.do(req{method: "GET", path: "/api/v1/users/nobody/keys"}), http.StatusNotFound, "GetUserByName")
	e.expect(as("alice", req{method: "GET", path: "/api/v1/user/keys/999999"}), http.StatusNotFound, "")
	e.expect(as("alice", req{method: "GET", path: "/api/v1/user/keys/abc"}), http.StatusNotFound, "")
	e.expect(e.do(req{method: "GET", path: "/api/v1/user/keys"}), http.StatusUnauthorized, "")

	// Duplicates and bad input: 422 with Forgejo's messages, nothing stored.
	e.expect(as("bob", req{method: "POST", path: "/api/v1/user/keys", body: map[string]any{"title": "mine", "key": key}}),
		http.StatusUnprocessableEntity, "Key content has been used as non-deploy key")
	e.expect(as("alice", req{method: "POST", path: "/api/v1/user/keys", body: map[string]any{"title": "laptop", "key": pubKey(t)}}),
		http.StatusUnprocessableEntity, "Key title has been used")
	e.expect(as("alice", req{method: "POST", path: "/api/v1/user/keys", body: map[string]any{"title": "x", "key": "ssh-ed25519 nope"}}),
		http.StatusUnprocessableEntity, "Invalid key content: ssh: no key found; last parsing error for ignored line: ssh: short read")
	e.expect(as("alice", req{method: "POST", path: "/api/v1/user/keys", body: map[string]any{"key": pubKey(t)}}),
		http.StatusUnprocessableEntity, "[Title]: Required")
	e.expect(as("alice", req{method: "POST", path: "/api/v1/user/keys", body: map[string]any{"title": "x"}}),
		http.StatusUnprocessableEntity, "[Key]: Required")
	e.expect(as("alice", req{method: "POST", path: "/api/v1/user/keys", body: `{"title":`}), http.StatusUnprocessableEntity, "")
	readTok := e.token("alice", "read:user")
	e.expect(e.do(req{method: "POST", path: "/api/v1/user/keys", token: readTok, body: map[string]any{"title": "t", "key": pubKey(t)}}),
		http.StatusForbidden, "token does not have at least one of required scope(s): [write:user]")
	r = as("alice", req{method: "GET", path: "/api/v1/user/keys"})
	assert.Equal(t, "1", r.Header.Get("X-Total-Count"), "no refused key was stored")

	// Deletes: only one's own key (403), unknown ids 404.
	e.expect(as("bob", req{method: "DELETE", path: "/api/v1/user/keys/" + sid}), http.StatusForbidden, "You do not have access to this key")
	e.expect(as("alice", req{method: "DELETE", path: "/api/v1/user/keys/999999"}), http.StatusNotFound, "")

	// The administrator's routes: a key for a user, removed only as that
	// user's; site administrators only.
	r = as("root", req{method: "POST", path: "/api/v1/admin/users/bob/keys", body: map[string]any{"title": "given", "key": pubKey(t)}})
	e.expect(r, http.StatusCreated, "")
	bobKey := strconv.FormatInt(int64(r.json(t)["id"].(float64)), 10)
	assert.Equal(t, "bob", r.json(t)["user"].(map[string]any)["login"])
	e.expect(as("alice", req{method: "POST", path: "/api/v1/admin/users/bob/keys", body: map[string]any{"title": "evil", "key": pubKey(t)}}),
		http.StatusForbidden, "")
	e.expect(as("root", req{method: "POST", path: "/api/v1/admin/users/nobody/keys", body: map[string]any{"title": "x", "key": pubKey(t)}}),
		http.StatusNotFound, "GetUserByName")
	e.expect(as("root", req{method: "DELETE", path: "/api/v1/admin/users/bob/keys/" + sid}), http.StatusForbidden, "You do not have access to this key")
	e.expect(as("alice", req{method: "DELETE", path: "/api/v1/admin/users/bob/keys/" + bobKey}), http.StatusForbidden, "")
	e.expect(as("root", req{method: "DELETE", path: "/api/v1/admin/users/bob/keys/" + bobKey}), http.StatusNoContent, "")
	e.expect(as("bob", req{method: "GET", path: "/api/v1/user/keys/" + bobKey}), http.StatusNotFound, "")

	e.expect(as("alice", req{method: "DELETE", path: "/api/v1/user/keys/" + sid}), http.StatusNoContent, "")
	e.expect(as("alice", req{method: "GET", path: "/api/v1/user/keys/" + sid}), http.StatusNotFound, "")
	// The content is free again.
	e.expect(as("bob", req{method: "POST", path: "/api/v1/user/keys", body: map[string]any{"title": "mine", "key": key}}), http.StatusCreated, "")
}

// TestDeployKeysAPI covers /repos/{owner}/{repo}/keys: repository
// administrators only, read-only or read-write, one key on several
// repositories but never a user's key, Forgejo's duplicate messages.
func TestDeployKeysAPI(t *testing.T) {
	t.Parallel()
	e := newKeysEnv(t)
	as := func(name string, r req) resp {
		r.user, r.pass = basic(name)
		return e.do(r)
	}
	for _, name := range []string{"r", "s"} {
		e.expect(as("alice", req{method: "POST", path: "/api/v1/user/repos", body: map[string]any{"name": name}}), http.StatusCreated, "")
	}
	e.expect(as("alice", req{method: "POST", path: "/api/v1/user/repos", body: map[string]any{"name": "secret", "private": true}}), http.StatusCreated, "")
	key := pubKey(t)
	r := as("alice", req{method: "POST", path: "/api/v1/repos/alice/r/keys", body: map[string]any{"title": "ci", "key": key, "read_only": true}})
	e.expect(r, http.StatusCreated, "")
	d := r.json(t)
	id := strconv.FormatInt(int64(d["id"].(float64)), 10)
	assert.Equal(t, true, d["read_only"])
	assert.Equal(t, "ci", d["title"])
	assert.NotZero(t, d["key_id"])
	assert.True(t, strings.HasSuffix(d["url"].(string), "/api/v1/repos/alice/r/keys/"+id))

	assert.NotContains(t, d, "repository", "the creation answer has no repository, as Forgejo's")
	r = as("alice", req{method: "GET", path: "/api/v1/repos/alice/r/keys"})
	e.expect(r, http.StatusOK, "")
	require.Len(t, r.list(t), 1)
	assert.Equal(t, "1", r.Header.Get("X-Total-Count"))
	shown := r.list(t)[0]["repository"].(map[string]any)
	assert.Equal(t, "alice/r", shown["full_name"], "the owner sees the repository")
	assert.Equal(t, map[string]any{"admin": false, "push": false, "pull": true}, shown["permissions"], "with the key's access")
	r = as("alice", req{method: "GET", path: "/api/v1/repos/alice/r/keys?fingerprint=SHA256:none"})
	e.expect(r, http.StatusOK, "")
	assert.Empty(t, r.list(t))
	r = as("alice", req{method: "GET", path: "/api/v1/repos/alice/r/keys?key_id=" + strconv.FormatInt(int64(d["key_id"].(float64)), 10) +
		"&fingerprint=" + url.QueryEscape(d["fingerprint"].(string))})
	assert.Len(t, r.list(t), 1)
	e.expect(as("alice", req{method: "GET", path: "/api/v1/repos/alice/r/keys/" + id}), http.StatusOK, "")
	e.expect(as("alice", req{method: "GET", path: "/api/v1/repos/alice/s/keys/" + id}), http.StatusNotFound, "")
	e.expect(as("alice", req{method: "GET", path: "/api/v1/repos/alice/r/keys/999999"}), http.StatusNotFound, "")

	// The same content on another repository, read-write: one key.
	r = as("alice", req{method: "POST", path: "/api/v1/repos/alice/s/keys", body: map[string]any{"title": "ci", "key": key}})
	e.expect(r, http.StatusCreated, "")
	assert.Equal(t, false, r.json(t)["read_only"])
	assert.Equal(t, d["key_id"], r.json(t)["key_id"])

	// Who may not: another user (403 on a public repository, 404 on a
	// private one), anonymous (401).
	e.expect(as("bob", req{method: "GET", path: "/api/v1/repos/alice/r/keys"}), http.StatusForbidden,
		"user should be an owner or a collaborator with admin write of a repository")
	e.expect(as("bob", req{method: "POST", path: "/api/v1/repos/alice/r/keys", body: map[string]any{"title": "x", "key": pubKey(t)}}),
		http.StatusForbidden, "user should be an owner or a collaborator with admin write of a repository")
	e.expect(as("bob", req{method: "GET", path: "/api/v1/repos/alice/secret/keys"}), http.StatusNotFound, "")
	e.expect(as("bob", req{method: "DELETE", path: "/api/v1/repos/alice/r/keys/" + id}), http.StatusForbidden, "")
	e.expect(e.do(req{method: "GET", path: "/api/v1/repos/alice/r/keys"}), http.StatusUnauthorized, "")
	e.expect(as("alice", req{method: "GET", path: "/api/v1/repos/alice/missing/keys"}), http.StatusNotFound, "")

	// Duplicates and bad input.
	e.expect(as("alice", req{method: "POST", path: "/api/v1/repos/alice/r/keys", body: map[string]any{"title": "again", "key": key}}),
		http.StatusUnprocessableEntity, "This key has already been added to this repository")
	e.expect(as("alice", req{method: "POST", path: "/api/v1/repos/alice/r/keys", body: map[string]any{"title": "ci", "key": pubKey(t)}}),
		http.StatusUnprocessableEntity, "A key with the same name already exists")
	userKey := pubKey(t)
	e.expect(as("bob", req{method: "POST", path: "/api/v1/user/keys", body: map[string]any{"title": "b", "key": userKey}}), http.StatusCreated, "")
	e.expect(as("alice", req{method: "POST", path: "/api/v1/repos/alice/r/keys", body: map[string]any{"title": "u", "key": userKey}}),
		http.StatusUnprocessableEntity, "Key content has been used as non-deploy key")
	e.expect(as("bob", req{method: "POST", path: "/api/v1/user/keys", body: map[string]any{"title": "d", "key": key}}),
		http.StatusUnprocessableEntity, "Key content has been used as non-deploy key")
	e.expect(as("alice", req{method: "POST", path: "/api/v1/repos/alice/r/keys", body: map[string]any{"title": "bad", "key": "ssh-rsa AAAA"}}),
		http.StatusUnprocessableEntity, "")
	r = as("alice", req{method: "GET", path: "/api/v1/repos/alice/r/keys"})
	assert.Equal(t, "1", r.Header.Get("X-Total-Count"), "no refused key was stored")

	// Deletes: another repository's key is refused, an unknown id is no
	// error (as Forgejo), the key goes.
	e.expect(as("alice", req{method: "DELETE", path: "/api/v1/repos/alice/s/keys/" + id}), http.StatusForbidden, "You do not have access to this key")
	e.expect(as("alice", req{method: "DELETE", path: "/api/v1/repos/alice/r/keys/999999"}), http.StatusNoContent, "")
	e.expect(as("alice", req{method: "DELETE", path: "/api/v1/repos/alice/r/keys/" + id}), http.StatusNoContent, "")
	e.expect(as("alice", req{method: "GET", path: "/api/v1/repos/alice/r/keys/" + id}), http.StatusNotFound, "")
	r = as("alice", req{method: "GET", path: "/api/v1/repos/alice/s/keys"})
	assert.Len(t, r.list(t), 1, "the other repository keeps the key")
}
