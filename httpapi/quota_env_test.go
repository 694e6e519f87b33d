package httpapi_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge/orgs"
	"github.com/hearthforge/hearth/forge/packages"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/forge/site"
	"github.com/hearthforge/hearth/httpapi"
	"github.com/hearthforge/hearth/issues"
	"github.com/hearthforge/hearth/quota"
	"github.com/hearthforge/hearth/storage/dbtest"
)

// quotaEnv is the issue environment with organisations and quota wired:
// alice owns alice/proj, bob writes to it, eve is a stranger; root is the
// site administrator. Every response is checked against the OpenAPI
// document, except the 413 quota refusals, whose body is checked by
// checkQuotaBody (the document describes it wrongly, as headers).
type quotaEnv struct {
	*issueEnv
	db        quotaBackend
	quota     *quota.Service
	blobDir   string
	gitDir    string
	quotaBody []string // 413 bodies that failed their shape, reported at the end
}

// quotaBackend is the storage a quotaEnv runs on: a dbtest database or a
// memstore.
type quotaBackend interface {
	Auth() auth.Store
	Repos() repos.Store
	Orgs() orgs.Store
	Issues() issues.Store
	Packages() packages.Store
	Quota() quota.Store
}

func newQuotaEnv(t *testing.T, cfg quota.Config) *quotaEnv {
	t.Helper()
	// A database file: the pull-request service reads repositories inside
	// its issue transactions (see newPullEnv).
	return newQuotaEnvOn(t, cfg, dbtest.Open(t, filepath.Join(t.TempDir(), "hearth.db")))
}

// newQuotaEnvOn is newQuotaEnv on db, with the generic package registry.
func newQuotaEnvOn(t *testing.T, cfg quota.Config, db quotaBackend) *quotaEnv {
	t.Helper()
	b := newBaseOn(t, db, testSecret)
	clock, svc, git, blobs, gitDir, blobDir := b.clock, b.auth, b.git, b.blobs, b.gitDir, b.blobDir
	repoSvc, repoPorts, err := repos.NewWithPorts(repos.Config{Store: db.Repos(), Git: git, Blobs: blobs, Clock: clock, Quota: cfg})
	require.NoError(t, err)
	orgSvc, err := orgs.New(orgs.Config{Store: db.Orgs(), Clock: clock, Repos: repoSvc, Blobs: blobs})
	require.NoError(t, err)
	issueSvc, err := issues.New(issues.Config{Store: db.Issues(), Repos: repoSvc, Orgs: orgSvc, Search: site.IssueRepos{Repos: repoSvc},
		Clock: clock, Blobs: blobs, Quota: cfg, Pulls: issues.PullConfig{Git: git, Repos: repoSvc}})
	require.NoError(t, err)
	quotaSvc, err := quota.New(quota.ServiceConfig{Store: db.Quota(), Quota: cfg, Orgs: orgSvc})
	require.NoError(t, err)
	pkgSvc, err := packages.New(packages.Config{Store: db.Packages(), Blobs: blobs, Orgs: orgSvc, Repos: repoSvc, Quota: cfg, Clock: clock})
	require.NoError(t, err)
	api, err := httpapi.New(httpapi.Config{Auth: svc, Repos: repoSvc, RepoPorts: repoPorts, Git: git, Orgs: orgSvc, Issues: issueSvc, Quota: quotaSvc,
		Packages: pkgSvc})
	require.NoError(t, err)
	e := &quotaEnv{db: db, quota: quotaSvc, blobDir: blobDir, gitDir: gitDir}
	mux := http.NewServeMux()
	mux.Handle("/", api)
	srv := httptest.NewServer(e.quotaChecked(t, mux))
	t.Cleanup(srv.Close)
	t.Cleanup(func() {
		for _, b := range e.quotaBody {
			t.Errorf("413 body not Forgejo's quota body: %s", b)
		}
	})
	e.issueEnv = issueUsers(&env{t: t, srv: srv, auth: svc, clock: clock, repos: repoSvc, api: api}, issueSvc, "/api/v1/repos/alice/proj")
	e.createProj()
	return e
}

// quotaChecked checks every response against the OpenAPI document, as
// checked does, except: 413 answers, which must be Forgejo's quota body;
// the answers of a disabled quota API (Forgejo registers no route: 404);
// and the 204 of adminRemoveRuleFromQuotaGroup (the document says 201,
// Forgejo answers 204).
func (e *quotaEnv) quotaChecked(t *testing.T, h http.Handler) http.Handler {
	t.Helper()
	c, err := loadContract()
	require.NoError(t, err)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		res := rec.Result()
		body, _ := io.ReadAll(res.Body)
		switch {
		case res.StatusCode == http.StatusRequestEntityTooLarge:
			if !isQuotaBody(body) {
				e.quotaBody = append(e.quotaBody, string(body))
			}
		case !e.quota.Enabled() && res.StatusCode == http.StatusNotFound && strings.Contains(r.URL.Path, "/quota"):
		case r.Method == "DELETE" && res.StatusCode == http.StatusNoContent && strings.HasPrefix(r.URL.Path, "/api/v1/admin/quota/groups/") &&
			strings.Contains(r.URL.Path, "/rules/"):
		case strings.HasPrefix(r.URL.Path, "/api/v1/"):
			if err := c.check(r, res.StatusCode, res.Header, body); err != nil {
				t.Errorf("contract: %v", err)
			}
		}
		for k, v := range res.Header {
			w.Header()[k] = v
		}
		w.WriteHeader(res.StatusCode)
		w.Write(bytes.Clone(body))
	})
}

// isQuotaBody reports whether b is exactly {"message":"quota
// exceeded","user_id":N,"username":S}.
func isQuotaBody(b []byte) bool {
	var m map[string]any
	if json.Unmarshal(b, &m) != nil || len(m) != 3 || m["message"] != "quota exceeded" {
		return false
	}
	_, idOK := m["user_id"].(float64)
	_, nameOK := m["username"].(string)
	return idOK && nameOK
}

// pushMainAndSide pushes, with the git client as alice, main (README.md)
// and side (side.txt on top of it) to alice/proj; it returns the work tree,
// on side, and the push URL.
func (e *quotaEnv) pushMainAndSide(t *testing.T) (*gitWork, string) {
	t.Helper()
	url := e.gitURL("alice", "alice-password", "alice", "proj")
	g := newGitWork(t)
	g.run("init", "-q", ".")
	g.commit("README.md", "hello\n")
	g.run("push", "-q", url, "main")
	g.run("checkout", "-q", "-b", "side")
	g.commit("side.txt", "side\n")
	g.run("push", "-q", url, "side")
	return g, url
}

// expectQuota asserts a 413 naming owner.
func (e *quotaEnv) expectQuota(r resp, owner string) {
	e.t.Helper()
	require.Equal(e.t, http.StatusRequestEntityTooLarge, r.StatusCode, "body: %s", r.body)
	m := r.json(e.t)
	assert.Equal(e.t, "quota exceeded", m["message"])
	assert.Equal(e.t, owner, m["username"])
}

// admin runs an admin quota request as root.
func (e *quotaEnv) admin(method, path string, body any, want int) resp {
	e.t.Helper()
	return e.send(e.root, method, "/api/v1/admin/quota"+path, body, want)
}

// limit gives owner one group "g-<owner>" with one rule of limit on
// subjects.
func (e *quotaEnv) limit(owner string, limit int64, subjects ...string) {
	e.t.Helper()
	g := "g-" + owner
	e.admin("POST", "/groups", map[string]any{"name": g, "rules": []map[string]any{{"name": "r-" + owner, "limit": limit, "subjects": subjects}}}, 201)
	e.send(e.root, "POST", "/api/v1/admin/users/"+owner+"/quota/groups", map[string]any{"groups": []string{g}}, 204)
}

// used returns owner's usage as the admin view shows it.
func (e *quotaEnv) used(owner string) map[string]any {
	e.t.Helper()
	return e.send(e.root, "GET", "/api/v1/admin/users/"+owner+"/quota", nil, 200).json(e.t)["used"].(map[string]any)
}

// files counts the files below dir.
func files(t *testing.T, dir string) int {
	t.Helper()
	n := 0
	require.NoError(t, filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() && !strings.HasPrefix(fi.Name(), ".") {
			n++
		}
		return err
	}))
	return n
}
