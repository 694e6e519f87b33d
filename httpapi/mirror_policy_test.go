package httpapi_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/mirror"
)

// TestMigrateSpecialAddressesRefused: the migration sources issue 24
// reached — the IPv4-compatible and NAT64 forms of loopback — and the
// other special-purpose addresses (carrier-grade NAT and its metadata
// address, 0.0.0.0/8, link-local metadata, the IPv4-mapped and 6to4
// forms of loopback) answer 422 `You can not import from disallowed
// hosts.` under the default policy, nothing created; with loopback allowed
// (forged -allow-local-migrations) the non-loopback ones still do.
func TestMigrateSpecialAddressesRefused(t *testing.T) {
	t.Parallel()
	logs := &syncBuffer{}
	for _, p := range []mirror.Policy{{}, {AllowLoopback: true}} {
		e, git := newMirrorEnv(t, p, logs)
		tok := e.token("root", "write:repository", "write:user")
		hosts := []string{"100.64.0.1", "100.100.100.200", "0.0.0.0", "0.1.2.3", "169.254.169.254", "198.18.0.1", "[64:ff9b::a9fe:a9fe]"}
		if !p.AllowLoopback {
			hosts = append(hosts, "[::127.0.0.1]", "[64:ff9b::7f00:1]", "[::ffff:127.0.0.1]", "[2002:7f00:1::1]", "127.0.0.1", "[::1]")
		}
		for _, h := range hosts {
			for _, m := range []bool{false, true} {
				r := e.do(req{method: "POST", path: "/api/v1/repos/migrate", token: tok, body: map[string]any{
					"clone_addr": "http://" + h + ":3000/o/r.git", "repo_name": "m", "mirror": m}})
				assert.Equal(t, http.StatusUnprocessableEntity, r.StatusCode, "%v %s: %s", p, h, r.body)
				assert.Contains(t, string(r.body), mirror.MsgBlocked, h)
			}
		}
		e.expect(e.do(req{method: "GET", path: "/api/v1/repos/root/m", token: tok}), http.StatusNotFound, "")
		assertNoGitDirs(t, git)
	}
}

// TestPullMirrorOriginalURL: a pull mirror's original_url is its remote
// address without the credentials it was created with (Forgejo's
// SanitizedOriginalURL), in the repository, the repository lists and
// search; a repository that is not a mirror has none.
func TestPullMirrorOriginalURL(t *testing.T) {
	t.Parallel()
	const secret = "rootpassword"
	up := newEnv(t)
	upTok := up.token("root", "write:repository", "write:user")
	up.expect(up.do(req{method: "POST", path: "/api/v1/user/repos", token: upTok,
		body: map[string]any{"name": "src", "auto_init": true}}), http.StatusCreated, "")
	down, _ := newMirrorEnv(t, mirror.Policy{AllowLoopback: true}, &syncBuffer{})
	tok := down.token("root", "write:repository", "write:user", "read:user")
	remote := up.srv.URL + "/root/src.git"
	down.expect(down.do(req{method: "POST", path: "/api/v1/repos/migrate", token: tok, body: map[string]any{
		"clone_addr": remote, "repo_name": "m", "mirror": true, "auth_username": "root", "auth_password": secret}}), http.StatusCreated, "")
	down.expect(down.do(req{method: "POST", path: "/api/v1/user/repos", token: tok, body: map[string]any{"name": "plain"}}), http.StatusCreated, "")

	got := down.do(req{method: "GET", path: "/api/v1/repos/root/m", token: tok}).json(t)
	assert.Equal(t, remote, got["original_url"])
	assert.Equal(t, true, got["mirror"])
	u, _ := url.Parse(got["original_url"].(string))
	assert.Nil(t, u.User)
	assert.Equal(t, "", down.do(req{method: "GET", path: "/api/v1/repos/root/plain", token: tok}).json(t)["original_url"])
	for _, path := range []string{"/api/v1/user/repos", "/api/v1/users/root/repos"} {
		r := down.do(req{method: "GET", path: path, token: tok})
		down.expect(r, http.StatusOK, "")
		for _, repo := range r.list(t) {
			want := ""
			if repo["name"] == "m" {
				want = remote
			}
			assert.Equal(t, want, repo["original_url"], "%s %v", path, repo["name"])
		}
		assert.False(t, strings.Contains(string(r.body), secret), path)
	}
}

// TestMirrorSyncUnderLeaseQueued: POST mirror-sync on a mirror another
// server holds (here one that died mid-sync) answers 200 as Forgejo's
// queued sync, and the sync is not dropped nor shown as done: the mirror
// is due now (a scheduler runs it when the lease ends) and its
// mirror_updated is unchanged.
func TestMirrorSyncUnderLeaseQueued(t *testing.T) {
	t.Parallel()
	up := newEnv(t)
	upTok := up.token("root", "write:repository", "write:user")
	up.expect(up.do(req{method: "POST", path: "/api/v1/user/repos", token: upTok,
		body: map[string]any{"name": "src", "auto_init": true}}), http.StatusCreated, "")
	down, _, db := newMirrorEnvDB(t, mirror.Policy{AllowLoopback: true}, &syncBuffer{})
	tok := down.token("root", "write:repository", "write:user")
	down.expect(down.do(req{method: "POST", path: "/api/v1/repos/migrate", token: tok, body: map[string]any{
		"clone_addr": up.srv.URL + "/root/src.git", "repo_name": "m", "mirror": true}}), http.StatusCreated, "")
	before := down.do(req{method: "GET", path: "/api/v1/repos/root/m", token: tok}).json(t)
	id := forge.ID(before["id"].(float64))
	now := time.Now() // the mirror service of this env runs on the system clock
	var pm *mirror.PullMirror
	require.NoError(t, db.Mirrors().Update(context.Background(), func(tx mirror.Tx) error {
		var err error
		if pm, err = tx.PullMirrorByRepo(context.Background(), id); err != nil {
			return err
		}
		ok, err := tx.ClaimLease(context.Background(), mirror.Lease{Key: pm.Key(), Holder: "server-dead", Expires: now.Add(time.Hour)}, now)
		require.True(t, ok)
		return err
	}))
	require.True(t, pm.NextUpdate.After(now))
	down.expect(down.do(req{method: "POST", path: "/api/v1/repos/root/m/mirror-sync", token: tok}), http.StatusOK, "")
	after := down.do(req{method: "GET", path: "/api/v1/repos/root/m", token: tok}).json(t)
	assert.Equal(t, before["mirror_updated"], after["mirror_updated"], "a skipped sync does not look done")
	require.NoError(t, db.Mirrors().View(context.Background(), func(tx mirror.Tx) error {
		got, err := tx.PullMirrorByID(context.Background(), pm.ID)
		if err == nil {
			assert.False(t, got.NextUpdate.After(time.Now()), "the sync asked for is queued: due %v", got.NextUpdate)
		}
		return err
	}))
}
