package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSecretsNeverInLogs runs forged with its logging on and uses every
// kind of secret a client hands it: the administrator's and a user's
// passwords (right and wrong, through basic auth), access tokens (header,
// query, basic auth, git over HTTP, bogus ones), credentials of migrations
// and pull and push mirrors (in the body, and refused inside the URL),
// webhook secrets and authorization headers, and Actions secrets of a
// repository and an organisation. Then it greps all of forged's output and
// every answer for each of them.
func TestSecretsNeverInLogs(t *testing.T) {
	t.Parallel()
	// Each secret is distinctive text no log line could hold by chance.
	secret := func(kind string) string { return "S3cr3t-" + kind + "-q7Zx9" }
	secrets := map[string]string{}
	use := func(kind string) string { s := secret(kind); secrets[kind] = s; return s }

	adminPass := use("admin-password")
	s := start(t, t.TempDir(), map[string]string{"FORGED_ADMIN_USER": "boss", "FORGED_ADMIN_PASSWORD": adminPass},
		"-allow-local-migrations", "-webhook-allowed-hosts", "loopback", "-rate-limit", "-1")
	var answers strings.Builder
	do := func(c call, want ...int) reply {
		t.Helper()
		r := s.do(t, c)
		answers.Write(r.raw)
		answers.WriteString(fmt.Sprint(r.header))
		if len(want) > 0 {
			require.Contains(t, want, r.status, "%s %s: %s", c.method, c.path, r.raw)
		}
		return r
	}
	tok := do(call{method: "POST", path: "/api/v1/users/boss/tokens", user: "boss", pass: adminPass,
		body: map[string]any{"name": "all", "scopes": []string{"all"}}}, 201).body["sha1"].(string)
	secrets["token"] = tok
	auth := map[string]string{"Authorization": "token " + tok}

	// Passwords: a new user's, a wrong one, a password change.
	userPass := use("user-password")
	do(call{method: "POST", path: "/api/v1/admin/users", header: auth,
		body: map[string]any{"username": "ann", "email": "ann@example.com", "password": userPass, "must_change_password": false}}, 201)
	do(call{method: "GET", path: "/api/v1/user", user: "ann", pass: userPass}, 200)
	do(call{method: "GET", path: "/api/v1/user", user: "ann", pass: use("wrong-password")}, 401)
	do(call{method: "GET", path: "/api/v1/user", user: "nobody", pass: use("unknown-user-password")}, 401)
	do(call{method: "PATCH", path: "/api/v1/admin/users/ann", header: auth,
		body: map[string]any{"login_name": "ann", "source_id": 0, "password": use("changed-password")}}, 200)
	annTok := do(call{method: "POST", path: "/api/v1/users/ann/tokens", user: "ann", pass: secrets["changed-password"],
		body: map[string]any{"name": "t", "scopes": []string{"read:user"}}}, 201).body["sha1"].(string)
	secrets["ann-token"] = annTok

	// Tokens: query forms, basic auth with a token, bogus ones.
	do(call{method: "GET", path: "/api/v1/user?token=" + annTok}, 200)
	do(call{method: "GET", path: "/api/v1/user?access_token=" + annTok}, 200)
	do(call{method: "GET", path: "/api/v1/user", user: "ann", pass: annTok}, 200)
	do(call{method: "GET", path: "/api/v1/user", header: map[string]string{"Authorization": "token " + use("bogus-token")}}, 401)
	do(call{method: "GET", path: "/api/v1/user?token=" + use("bogus-query-token")}, 401)
	do(call{method: "DELETE", path: "/api/v1/users/ann/tokens/t", user: "ann", pass: secrets["changed-password"]}, 204)
	do(call{method: "GET", path: "/api/v1/user", header: map[string]string{"Authorization": "token " + annTok}}, 401)

	// Git over HTTP with the token in the URL (and a wrong password).
	do(call{method: "POST", path: "/api/v1/user/repos", header: auth, body: map[string]any{"name": "src", "auto_init": true, "private": true}}, 201)
	host := strings.TrimPrefix(s.url, "http://")
	work := t.TempDir()
	mustGit(t, work, "clone", "-q", "http://boss:"+tok+"@"+host+"/boss/src.git", "c")
	_, err := gitCLI(t, work, "clone", "-q", "http://boss:"+use("git-wrong-password")+"@"+host+"/boss/src.git", "d")
	require.Error(t, err)

	// Migrations and mirrors: credentials in the body; refused inside the URL.
	do(call{method: "POST", path: "/api/v1/repos/migrate", header: auth, body: map[string]any{
		"clone_addr": "http://boss:" + use("url-password") + "@" + host + "/boss/src.git", "repo_name": "m0", "service": "git"}}, 422)
	do(call{method: "POST", path: "/api/v1/repos/migrate", header: auth, body: map[string]any{
		"clone_addr": s.url + "/boss/src.git", "repo_name": "m1", "service": "git", "mirror": true,
		"auth_username": "boss", "auth_password": use("migrate-wrong-password")}})
	do(call{method: "POST", path: "/api/v1/repos/migrate", header: auth, body: map[string]any{
		"clone_addr": s.url + "/boss/src.git", "repo_name": "m2", "service": "git", "mirror": true,
		"auth_username": "boss", "auth_token": tok}}, 201)
	do(call{method: "POST", path: "/api/v1/repos/boss/m2/mirror-sync", header: auth}, 200)
	do(call{method: "POST", path: "/api/v1/user/repos", header: auth, body: map[string]any{"name": "target"}}, 201)
	pushPass := use("push-mirror-password")
	do(call{method: "POST", path: "/api/v1/repos/boss/src/push_mirrors", header: auth, body: map[string]any{
		"remote_address": s.url + "/boss/target.git", "remote_username": "boss", "remote_password": pushPass, "interval": "0"}}, 200, 201)
	do(call{method: "POST", path: "/api/v1/repos/boss/src/push_mirrors", header: auth, body: map[string]any{
		"remote_address": "http://boss:" + use("push-url-password") + "@" + host + "/boss/target.git", "interval": "0"}}, 400, 422)
	do(call{method: "POST", path: "/api/v1/repos/boss/src/push_mirrors-sync", header: auth}, 200, 400) // 400: the remote refused the password
	// The sync ran in the request: its failure is recorded.
	r := do(call{method: "GET", path: "/api/v1/repos/boss/src/push_mirrors", header: auth}, 200)
	require.Contains(t, string(r.raw), `"last_error":"authentication failed`, "the push with the wrong password failed")

	// Webhooks: secret and authorization header, delivered to a receiver
	// that fails.
	got := make(chan http.Header, 4)
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got <- r.Header
		http.Error(w, "receiver down", http.StatusInternalServerError)
	}))
	defer recv.Close()
	h := do(call{method: "POST", path: "/api/v1/repos/boss/src/hooks", header: auth, body: map[string]any{
		"type": "gitea", "active": true, "events": []string{"push"}, "authorization_header": "Bearer " + use("hook-authorization"),
		"config": map[string]string{"url": recv.URL + "/hook?" + url.Values{"k": {"v"}}.Encode(), "content_type": "json", "secret": use("hook-secret")}}}, 201)
	do(call{method: "POST", path: fmt.Sprintf("/api/v1/repos/boss/src/hooks/%v/tests", h.body["id"]), header: auth}, 204)
	select {
	case hdr := <-got:
		assert.Equal(t, "Bearer "+secrets["hook-authorization"], hdr.Get("Authorization"), "the receiver gets it")
	case <-time.After(2 * time.Minute):
		t.Fatal("the test delivery never arrived")
	}

	// Actions secrets of a repository and an organisation.
	do(call{method: "PATCH", path: "/api/v1/repos/boss/src", header: auth, body: map[string]any{"has_actions": true}}, 200)
	do(call{method: "PUT", path: "/api/v1/repos/boss/src/actions/secrets/DEPLOY_KEY", header: auth,
		body: map[string]any{"data": use("actions-repo-secret")}}, 201, 204)
	do(call{method: "POST", path: "/api/v1/orgs", header: auth, body: map[string]any{"username": "acme"}}, 201)
	do(call{method: "PUT", path: "/api/v1/orgs/acme/actions/secrets/ORG_KEY", header: auth,
		body: map[string]any{"data": use("actions-org-secret")}}, 201, 204)

	require.NoError(t, s.stop())
	logs, out := s.logs.String(), s.stdout.String()
	require.NotEmpty(t, logs, "logging is on")
	// Answers may hold, by Forgejo's design, a token when it is created,
	// the caller's own wrong token in "access token does not exist [sha:
	// …]", and a webhook's authorization header to those who administer
	// the hook; nothing else.
	answered := map[string]bool{"token": true, "ann-token": true, "bogus-token": true, "bogus-query-token": true, "hook-authorization": true}
	for kind, v := range secrets {
		assert.False(t, strings.Contains(logs, v), "%s in the log", kind)
		assert.False(t, strings.Contains(out, v), "%s on stdout", kind)
		if !answered[kind] {
			assert.False(t, strings.Contains(answers.String(), v), "%s in an answer", kind)
		}
	}
	if t.Failed() || testing.Verbose() {
		t.Logf("log:\n%s", logs)
	}
	t.Logf("%d secrets checked against %d bytes of log and %d of answers", len(secrets), len(logs), answers.Len())
}
