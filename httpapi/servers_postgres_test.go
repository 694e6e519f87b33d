package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/orgs"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/forge/site"
	"github.com/hearthforge/hearth/httpapi"
	"github.com/hearthforge/hearth/issues"
	"github.com/hearthforge/hearth/mirror"
	"github.com/hearthforge/hearth/quota"
	"github.com/hearthforge/hearth/storage/blob"
	"github.com/hearthforge/hearth/storage/dbtest"
	"github.com/hearthforge/hearth/storage/gitstore"
	"github.com/hearthforge/hearth/storage/postgres"
)

// pgServer is one Hearth server of a several-server deployment: its own
// connection pool on the shared PostgreSQL database, its own services, its
// own HTTP server on loopback; the git and blob directories are the
// deployment's, shared.
type pgServer struct {
	name   string
	url    string
	tokens map[string]string // user → access token, used instead of the password when set
	db     *postgres.DB
	auth   *auth.Service
	mirror *mirror.Ports
}

// newPGServer starts server name on the database at dsn, with git and
// blobs in the shared directories and mirror syncs going to git.
func newPGServer(t *testing.T, name, dsn, gitDir, blobDir string, git mirror.Git) *pgServer {
	t.Helper()
	ctx := context.Background()
	db, err := postgres.Open(ctx, dsn)
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	svc, err := auth.New(auth.Config{Store: db.Auth(), Password: auth.PasswordParams{Time: 1, MemoryKiB: 64, Threads: 1},
		SecretKey: testSecret})
	require.NoError(t, err)
	gs, err := gitstore.Open(gitDir)
	require.NoError(t, err)
	t.Cleanup(func() { gs.Close() })
	blobs, err := blob.OpenDir(blobDir)
	require.NoError(t, err)
	qc := quota.Config{Enabled: true}
	repoSvc, repoPorts, err := repos.NewWithPorts(repos.Config{Store: db.Repos(), Git: gs, Blobs: blobs, Quota: qc,
		IssueCounts: issues.NewRepoCounter(db.Issues()), PullMirrors: site.MirrorFields{Mirrors: mirror.NewPullMirrorReader(db.Mirrors())}})
	require.NoError(t, err)
	orgSvc, err := orgs.New(orgs.Config{Store: db.Orgs(), Repos: repoSvc, Blobs: blobs})
	require.NoError(t, err)
	issueSvc, err := issues.New(issues.Config{Store: db.Issues(), Repos: repoSvc, Orgs: orgSvc, Search: site.IssueRepos{Repos: repoSvc},
		Blobs: blobs, Quota: qc, Pulls: issues.PullConfig{Git: gs, Repos: repoSvc}})
	require.NoError(t, err)
	quotaSvc, err := quota.New(quota.ServiceConfig{Store: db.Quota(), Quota: qc, Orgs: orgSvc})
	require.NoError(t, err)
	// The server's log (a line per 5xx and per failed mirror load, with
	// the error) is shown when the test fails.
	logs := &lockedBuffer{}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("%s log:\n%s", name, logs.String())
		}
	})
	log := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	ms, mp, err := mirror.NewWithPorts(mirror.Config{Store: db.Mirrors(), Repos: syncedRepos{mirrorRepos{repoSvc}}, Git: git,
		Policy: mirror.Policy{Resolver: publicNames{}}, Secret: testSecret, Concurrency: 4, Poll: time.Hour, Logger: log})
	require.NoError(t, err)
	api, err := httpapi.New(httpapi.Config{Auth: svc, Repos: repoSvc, RepoPorts: repoPorts, Git: gs, Orgs: orgSvc, Issues: issueSvc, Quota: quotaSvc, Mirror: ms,
		Logger: log})
	require.NoError(t, err)
	srv := httptest.NewServer(checked(t, api))
	t.Cleanup(srv.Close)
	return &pgServer{name: name, url: srv.URL, db: db, auth: svc, mirror: mp, tokens: map[string]string{}}
}

// lockedBuffer is a bytes.Buffer safe for concurrent writers.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.b.Len() > 64<<10 {
		return len(p), nil // enough to see what failed
	}
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string { l.mu.Lock(); defer l.mu.Unlock(); return l.b.String() }

// call is one request as user, by token when s.tokens has one (API
// clients use tokens: concurrent password sign-ins of one account from one
// address are throttled), else by password; safe from any goroutine (it
// never touches t).
func (s *pgServer) call(method, path, user, pass, contentType string, body []byte) (int, []byte, error) {
	var r io.Reader
	if body != nil {
		r = bytes.NewReader(body)
	}
	hr, err := http.NewRequest(method, s.url+"/api/v1"+path, r)
	if err != nil {
		return 0, nil, err
	}
	if contentType != "" {
		hr.Header.Set("Content-Type", contentType)
	}
	if tok := s.tokens[user]; tok != "" {
		hr.Header.Set("Authorization", "token "+tok)
	} else {
		hr.SetBasicAuth(user, pass)
	}
	res, err := http.DefaultClient.Do(hr)
	if err != nil {
		return 0, nil, err
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	return res.StatusCode, data, err
}

func (s *pgServer) callJSON(method, path, user string, body any) (int, map[string]any, error) {
	var data []byte
	if body != nil {
		var err error
		if data, err = json.Marshal(body); err != nil {
			return 0, nil, err
		}
	}
	status, out, err := s.call(method, path, user, user+"-password", "application/json", data)
	if err != nil {
		return status, nil, err
	}
	var m map[string]any
	if len(out) > 0 && out[0] == '{' {
		if err := json.Unmarshal(out, &m); err != nil {
			return status, nil, fmt.Errorf("%s %s: %v: %s", method, path, err, out)
		}
	}
	if m == nil {
		m = map[string]any{"body": string(out)}
	}
	return status, m, nil
}

// TestTwoServersOnePostgres runs two Hearth servers (two httpapi stacks on
// loopback, each with its own storage/postgres DB) on one PostgreSQL
// database and one git directory, and checks what one server's single
// SQLite writer guaranteed: concurrent issue creations across both get
// distinct indexes; two administrators demoted at once leave one; quota
// counters equal a recount after concurrent writes; two mirror schedulers
// sync each due mirror once. It runs wherever pgtest finds PostgreSQL
// (HEARTH_TEST_DB does not matter), and is skipped where it finds none.
func TestTwoServersOnePostgres(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: two servers on PostgreSQL")
	}
	dsn := dbtest.PostgresDSN(t)
	ctx := context.Background()
	gitDir, blobDir := t.TempDir(), t.TempDir()
	git := newCountingGit()
	a := newPGServer(t, "server-a", dsn, gitDir, blobDir, git)
	b := newPGServer(t, "server-b", dsn, gitDir, blobDir, git)
	servers := []*pgServer{a, b}

	// Seed through server a: root (administrator), alice with alice/proj.
	no := false
	_, err := a.auth.EnsureAdmin(ctx, auth.CreateUserOptions{Name: "root", Email: "root@example.com", Password: "root-password",
		MustChangePassword: &no})
	require.NoError(t, err)
	root, err := a.auth.Authenticate(ctx, auth.Credentials{Basic: true, Username: "root", Password: "root-password"})
	require.NoError(t, err)
	for _, o := range []auth.CreateUserOptions{
		{Name: "alice", Email: "alice@example.com", Password: "alice-password", MustChangePassword: &no},
		{Name: "admin2", Email: "admin2@example.com", Password: "admin2-password", MustChangePassword: &no, Admin: true},
	} {
		_, err := a.auth.CreateUser(ctx, root, o)
		require.NoError(t, err)
	}
	status, body, err := a.callJSON("POST", "/users/alice/tokens", "alice",
		map[string]any{"name": "load", "scopes": []string{"write:issue", "write:repository", "write:user"}})
	require.NoError(t, err)
	require.Equal(t, http.StatusCreated, status, "%v", body)
	for _, s := range servers {
		s.tokens["alice"] = body["sha1"].(string)
	}
	status, body, err = a.callJSON("POST", "/user/repos", "alice", map[string]any{"name": "proj"})
	require.NoError(t, err)
	require.Equal(t, http.StatusCreated, status, "%v", body)

	// Everything below runs through both servers at once: each request
	// goes to servers[i%2], inFlight at a time.
	const inFlight = 64
	fanOut := func(n int, do func(i int, s *pgServer) error) []error {
		errs := make([]error, n)
		sem := make(chan struct{}, inFlight)
		var wg sync.WaitGroup
		for i := range n {
			wg.Add(1)
			sem <- struct{}{}
			go func() {
				defer wg.Done()
				defer func() { <-sem }()
				errs[i] = do(i, servers[i%2])
			}()
		}
		wg.Wait()
		return errs
	}

	t.Run("issue indexes", func(t *testing.T) {
		const n = 1000
		numbers := make([]int, n)
		errs := fanOut(n, func(i int, s *pgServer) error {
			status, body, err := s.callJSON("POST", "/repos/alice/proj/issues", "alice", map[string]any{"title": fmt.Sprintf("issue %d", i)})
			if err != nil {
				return err
			}
			if status != http.StatusCreated {
				return fmt.Errorf("%s: %d %v", s.name, status, body)
			}
			numbers[i] = int(body["number"].(float64))
			return nil
		})
		failed := 0
		for _, err := range errs {
			if err != nil {
				if failed < 5 {
					t.Error(err)
				}
				failed++
			}
		}
		require.Zero(t, failed, "of %d creations", n)
		sort.Ints(numbers)
		for i, got := range numbers {
			require.Equal(t, i+1, got, "the indexes are 1..%d, each once", n)
		}
	})

	t.Run("last admin", func(t *testing.T) {
		// root demotes admin2 on server a while admin2 demotes root on
		// server b: one of them wins, the other is refused as Forgejo
		// refuses demoting the last administrator (400) or, when the
		// refused one's sign-in already sees it demoted, 403.
		type result struct {
			status int
			body   map[string]any
			err    error
		}
		res := make([]result, 2)
		var wg sync.WaitGroup
		for i, p := range [][2]string{{"root", "admin2"}, {"admin2", "root"}} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				st, body, err := servers[i].callJSON("PATCH", "/admin/users/"+p[1], p[0], map[string]any{"admin": false})
				res[i] = result{st, body, err}
			}()
		}
		wg.Wait()
		ok := 0
		for _, r := range res {
			require.NoError(t, r.err)
			switch r.status {
			case http.StatusOK:
				ok++
			case http.StatusBadRequest, http.StatusForbidden:
			default:
				t.Errorf("status %d: %v", r.status, r.body)
			}
		}
		assert.Equal(t, 1, ok, "exactly one demotion succeeds: %+v", res)
		yes := true
		var admins int64
		require.NoError(t, b.db.Auth().View(ctx, func(tx auth.Tx) error {
			var err error
			admins, err = tx.CountUsers(ctx, auth.UserCount{Admin: &yes})
			return err
		}))
		assert.Equal(t, int64(1), admins, "one administrator is left")
	})

	t.Run("quota counters equal a recount", func(t *testing.T) {
		// Concurrent attachment uploads on one issue through both
		// servers, then concurrent deletions of every third one.
		const n = 60
		status, body, err := a.callJSON("POST", "/repos/alice/proj/issues", "alice", map[string]any{"title": "attachments"})
		require.NoError(t, err)
		require.Equal(t, http.StatusCreated, status, "%v", body)
		assets := fmt.Sprintf("/repos/alice/proj/issues/%v/assets", body["number"])
		ids := make([]int64, n)
		errs := fanOut(n, func(i int, s *pgServer) error {
			var buf bytes.Buffer
			mw := multipart.NewWriter(&buf)
			fw, err := mw.CreateFormFile("attachment", fmt.Sprintf("f%d.txt", i))
			if err != nil {
				return err
			}
			fw.Write(bytes.Repeat([]byte{'x'}, 100+i))
			mw.Close()
			status, out, err := s.call("POST", assets, "alice", "alice-password", mw.FormDataContentType(), buf.Bytes())
			if err != nil {
				return err
			}
			if status != http.StatusCreated {
				return fmt.Errorf("%s: upload %d: %d %s", s.name, i, status, out)
			}
			var m map[string]any
			if err := json.Unmarshal(out, &m); err != nil {
				return err
			}
			ids[i] = int64(m["id"].(float64))
			return nil
		})
		for _, err := range errs {
			require.NoError(t, err)
		}
		var want int64
		for i := range n {
			if i%3 != 0 {
				want += int64(100 + i)
			}
		}
		errs = fanOut(n, func(i int, s *pgServer) error {
			if i%3 != 0 {
				return nil
			}
			status, out, err := s.call("DELETE", fmt.Sprintf("%s/%d", assets, ids[i]), "alice", "alice-password", "", nil)
			if err != nil {
				return err
			}
			if status != http.StatusNoContent {
				return fmt.Errorf("%s: delete %d: %d %s", s.name, i, status, out)
			}
			return nil
		})
		for _, err := range errs {
			require.NoError(t, err)
		}
		var counted, recounted quota.Used
		require.NoError(t, a.db.Quota().View(ctx, func(tx quota.Tx) error {
			u, err := tx.UserByName(ctx, "alice")
			if err != nil {
				return err
			}
			if counted, err = tx.Usage(ctx, u.ID); err != nil {
				return err
			}
			recounted, err = tx.RecountUsage(ctx, u.ID)
			return err
		}))
		assert.Equal(t, want, counted.AttachmentsIssues, "the counter holds what remains")
		assert.Equal(t, recounted, counted, "the counters equal a recount")
	})

	t.Run("mirrors synced once", func(t *testing.T) {
		// 100 pull mirrors due now; one scheduler per server.
		const n = 100
		var owner *forge.User
		require.NoError(t, a.db.Auth().View(ctx, func(tx auth.Tx) error {
			var err error
			owner, err = tx.UserByName(ctx, "alice")
			return err
		}))
		now := time.Now()
		for i := range n {
			r := &forge.Repository{OwnerID: owner.ID, Name: fmt.Sprintf("mirror%d", i), DefaultBranch: "main", ObjectFormat: forge.SHA1,
				Topics: []string{}, Created: now, Updated: now}
			require.NoError(t, a.db.Repos().Update(ctx, func(tx repos.Tx) error { return tx.CreateRepo(ctx, r) }))
			m := &mirror.PullMirror{RepoID: r.ID, RemoteAddress: "https://example.com/x.git", Interval: 8 * time.Hour,
				NextUpdate: now.Add(-time.Minute)}
			require.NoError(t, a.db.Mirrors().Update(ctx, func(tx mirror.Tx) error { return tx.CreatePullMirror(ctx, m) }))
		}
		runCtx, cancel := context.WithCancel(ctx)
		defer cancel()
		done := make(chan error, len(servers))
		for _, s := range servers {
			sc := s.mirror.NewScheduler(s.name, nil)
			go func() { done <- sc.Run(runCtx) }()
		}
		deadline := time.After(time.Minute)
		for seen := 0; seen < n; seen++ {
			select {
			case <-git.started:
			case <-deadline:
				t.Fatalf("only %d of %d mirrors synced", seen, n)
			}
		}
		cancel()
		for range servers {
			require.NoError(t, <-done)
		}
		fetches, overlap := git.snapshot()
		assert.Len(t, fetches, n, "every mirror synced")
		for repo, c := range fetches {
			assert.Equal(t, 1, c, "repository %d synced once", repo)
		}
		assert.Zero(t, overlap, "no mirror synced by both servers at once")
	})
}

// countingGit is mirror.Git counting fetches per repository (and fetches
// of one repository that overlapped); it reaches no remote.
type countingGit struct {
	mu       sync.Mutex
	fetches  map[forge.ID]int
	inflight map[forge.ID]int
	overlap  int
	started  chan forge.ID
}

func newCountingGit() *countingGit {
	return &countingGit{fetches: map[forge.ID]int{}, inflight: map[forge.ID]int{}, started: make(chan forge.ID, 1000)}
}

func (g *countingGit) Clone(ctx context.Context, repo forge.ID, r mirror.Remote, o mirror.CloneOptions) (forge.ObjectFormat, error) {
	return "", forge.Errorf(forge.ErrInvalid, "countingGit: no clones")
}

func (g *countingGit) Fetch(ctx context.Context, repo forge.ID, r mirror.Remote, prune bool) ([]mirror.RefUpdate, error) {
	g.mu.Lock()
	g.fetches[repo]++
	g.inflight[repo]++
	if g.inflight[repo] > 1 {
		g.overlap++
	}
	g.mu.Unlock()
	defer func() { g.mu.Lock(); g.inflight[repo]--; g.mu.Unlock() }()
	select {
	case g.started <- repo:
	default:
	}
	return nil, nil
}

func (g *countingGit) Push(ctx context.Context, repo forge.ID, r mirror.Remote, branchFilter string) error {
	return forge.Errorf(forge.ErrInvalid, "countingGit: no pushes")
}

func (g *countingGit) snapshot() (map[forge.ID]int, int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	out := make(map[forge.ID]int, len(g.fetches))
	for k, v := range g.fetches {
		out[k] = v
	}
	return out, g.overlap
}

// syncedRepos is mirrorRepos whose Refresh does nothing: the mirrors of
// TestTwoServersOnePostgres have rows but no git directory.
type syncedRepos struct{ mirrorRepos }

func (syncedRepos) Refresh(ctx context.Context, id forge.ID, updates []mirror.RefUpdate) error {
	return nil
}

// publicNames resolves every name to a public address (no DNS in tests).
type publicNames struct{}

func (publicNames) LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error) {
	return []netip.Addr{netip.MustParseAddr("93.184.216.34")}, nil
}
