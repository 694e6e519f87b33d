package main

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"math/rand"
	"mime/multipart"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/quota"
	"github.com/hearthforge/hearth/storage/blob"
	"github.com/hearthforge/hearth/storage/sqlite"
)

// crashProc is forged running as a child process.
type crashProc struct {
	cmd  *exec.Cmd
	url  string
	done chan struct{}
}

var listenRE = regexp.MustCompile(`"forged listening" addr=(http://[0-9.:]+)`)

func startChild(t *testing.T, bin, data string) *crashProc {
	t.Helper()
	// Quotas on: every write is charged to its owner's counters, which
	// the end of TestCrashSafety compares with a recount.
	cmd := exec.Command(bin, "-addr", "127.0.0.1:0", "-data", data, "-rate-limit", "-1", "-quota")
	cmd.Env = append(os.Environ(), "FORGED_ADMIN_USER=boss", "FORGED_ADMIN_PASSWORD=boss-password")
	stderr, err := cmd.StderrPipe()
	require.NoError(t, err)
	cmd.Stdout = io.Discard
	require.NoError(t, cmd.Start())
	p := &crashProc{cmd: cmd, done: make(chan struct{})}
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		sc.Buffer(make([]byte, 1<<16), 1<<20)
		var sent bool
		for sc.Scan() {
			if m := listenRE.FindStringSubmatch(sc.Text()); m != nil && !sent {
				addr <- m[1]
				sent = true
			}
		}
		io.Copy(io.Discard, stderr)
		cmd.Wait()
		close(p.done)
	}()
	select {
	case p.url = <-addr:
	case <-p.done:
		t.Fatal("forged exited before listening")
	case <-time.After(2 * time.Minute):
		cmd.Process.Kill()
		t.Fatal("forged did not listen within 2m")
	}
	t.Cleanup(func() { p.cmd.Process.Kill(); <-p.done })
	return p
}

func (p *crashProc) kill() {
	p.cmd.Process.Signal(syscall.SIGKILL)
	<-p.done
}

// acked records every write that got a 2xx (or, for a push, exit 0).
type acked struct {
	mu       sync.Mutex
	repos    []string
	files    map[string]string // repo/path -> content
	branches map[string]string // repo/branch -> sha
	issues   []string          // repo#n
	comments map[string]string // repo#n/comment id -> body
	attach   map[string]string // repo#n/attachment id -> uuid
	n        int
}

func (a *acked) add(f func()) { a.mu.Lock(); f(); a.n++; a.mu.Unlock() }

type crashClient struct {
	url, token string
	hc         *http.Client
}

// send returns status and decoded JSON; a transport error (the server is
// dead) returns status 0.
func (c *crashClient) send(method, path, ctype string, body []byte) (int, map[string]any) {
	r, _ := http.NewRequest(method, c.url+path, bytes.NewReader(body))
	r.Header.Set("Authorization", "token "+c.token)
	if ctype != "" {
		r.Header.Set("Content-Type", ctype)
	}
	res, err := c.hc.Do(r)
	if err != nil {
		return 0, nil
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		return 0, nil // cut off mid-answer: not acknowledged
	}
	var m map[string]any
	json.Unmarshal(raw, &m)
	return res.StatusCode, m
}

func (c *crashClient) json(method, path string, v any) (int, map[string]any) {
	b, _ := json.Marshal(v)
	return c.send(method, path, "application/json", b)
}

// TestCrashSafety runs forged as a child process, writes to it from several
// clients at once (repositories, contents API commits, git pushes, issues,
// comments, attachments), SIGKILLs it at seeded random moments and restarts
// it on the same data directory: the database passes integrity_check, every
// acknowledged write is there, no repository row lacks its git directory
// (or the reverse) and no attachment row lacks its blob. After the last
// kill, with the server stopped, every owner's quota counters equal a
// recount and one blob sweep (grace 0) leaves no blob without its row.
// CRASH_SEED
// replays a run's random moments (the writes' interleaving still varies).
func TestCrashSafety(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "forged")
	build := exec.Command("go", "build", "-o", bin, ".")
	out, err := build.CombinedOutput()
	require.NoError(t, err, "%s", out)
	data := filepath.Join(tmp, "data")

	seed := time.Now().UnixNano()
	if s := os.Getenv("CRASH_SEED"); s != "" {
		fmt.Sscan(s, &seed)
	}
	t.Logf("seed %d (CRASH_SEED to replay)", seed)
	rng := rand.New(rand.NewSource(seed))

	p := startChild(t, bin, data)
	hc := &http.Client{Timeout: 20 * time.Second}
	boot := &crashClient{url: p.url, hc: hc}
	req, _ := http.NewRequest("POST", p.url+"/api/v1/users/boss/tokens",
		strings.NewReader(`{"name":"crash","scopes":["write:repository","write:issue","write:user"]}`))
	req.Header.Set("Content-Type", "application/json")
	req.SetBasicAuth("boss", "boss-password")
	res, err := hc.Do(req)
	require.NoError(t, err)
	var tok map[string]any
	require.NoError(t, json.NewDecoder(res.Body).Decode(&tok))
	res.Body.Close()
	require.Equal(t, 201, res.StatusCode, "%v", tok)
	boot.token = tok["sha1"].(string)

	const workers = 4
	a := &acked{files: map[string]string{}, branches: map[string]string{}, comments: map[string]string{}, attach: map[string]string{}}
	works := make([]string, workers)
	for w := range workers {
		name := fmt.Sprintf("push-%d", w)
		st, m := boot.json("POST", "/api/v1/user/repos", map[string]any{"name": name})
		require.Equal(t, 201, st, "%v", m)
		a.repos = append(a.repos, name)
		works[w] = t.TempDir()
		mustGit(t, works[w], "init", "-q", ".")
	}

	rounds := 8
	if testing.Short() {
		rounds = 2
	}
	deadline := time.Now().Add(45 * time.Second)
	for round := 0; round < rounds && time.Now().Before(deadline); round++ {
		c := &crashClient{url: p.url, token: boot.token, hc: hc}
		seeds := make([]int64, workers)
		for w := range seeds {
			seeds[w] = rng.Int63()
		}
		var wg sync.WaitGroup
		for w := range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				crashWorker(t, c, a, round, w, works[w], rand.New(rand.NewSource(seeds[w])))
			}()
		}
		time.Sleep(time.Duration(300+rng.Intn(1500)) * time.Millisecond) // the random moment of the kill
		p.kill()
		wg.Wait()
		checkIntegrity(t, filepath.Join(data, "hearth.db"))
		p = startChild(t, bin, data)
		c.url = p.url
		verifyAcked(t, c, a)
		checkNoHalfWrites(t, data, false)
		t.Logf("round %d: %d acknowledged writes verified", round, a.n)
	}
	p.kill()
	checkQuotaCounters(t, data)
	sweepOrphans(t, data)
	checkNoHalfWrites(t, data, true)
	t.Logf("acknowledged and verified: %d repositories, %d contents commits, %d pushes, %d issues, %d comments, %d attachments",
		len(a.repos), len(a.files), len(a.branches), len(a.issues), len(a.comments), len(a.attach))
	assert.Greater(t, a.n, 0, "no write was acknowledged: the test checked nothing")
}

func crashWorker(t *testing.T, c *crashClient, a *acked, round, w int, work string, rng *rand.Rand) {
	var repo string
	var issue float64
	for i := 0; ; i++ {
		if repo == "" || rng.Intn(6) == 0 {
			name := fmt.Sprintf("r%d-%d-%d", round, w, i)
			st, _ := c.json("POST", "/api/v1/user/repos", map[string]any{"name": name, "auto_init": true})
			if st == 0 {
				return
			}
			if st == 201 {
				a.add(func() { a.repos = append(a.repos, name) })
				repo, issue = name, 0
			}
			continue
		}
		switch op := rng.Intn(5); {
		case op == 0: // contents API commit
			path := fmt.Sprintf("f%d.txt", i)
			content := fmt.Sprintf("round %d worker %d op %d", round, w, i)
			st, _ := c.json("POST", "/api/v1/repos/boss/"+repo+"/contents/"+path,
				map[string]any{"content": base64.StdEncoding.EncodeToString([]byte(content)), "message": "add " + path})
			if st == 0 {
				return
			}
			if st == 201 {
				a.add(func() { a.files[repo+"/"+path] = content })
			}
		case op == 1: // git push of a new branch
			branch := fmt.Sprintf("b%d-%d", round, i)
			if _, err := gitCLI(t, work, "commit", "-q", "--allow-empty", "-m", branch); err != nil {
				t.Errorf("commit: %v", err)
				return
			}
			sha := strings.TrimSpace(mustGit(t, work, "rev-parse", "HEAD"))
			remote := "http://boss:" + c.token + "@" + strings.TrimPrefix(c.url, "http://") + fmt.Sprintf("/boss/push-%d.git", w)
			if _, err := gitCLI(t, work, "push", "-q", remote, "HEAD:refs/heads/"+branch); err != nil {
				if st, _ := c.send("GET", "/api/v1/version", "", nil); st == 0 {
					return
				}
				continue
			}
			a.add(func() { a.branches[fmt.Sprintf("push-%d/%s", w, branch)] = sha })
		case op == 2 || issue == 0: // issue
			st, m := c.json("POST", "/api/v1/repos/boss/"+repo+"/issues", map[string]any{"title": fmt.Sprintf("issue %d", i)})
			if st == 0 {
				return
			}
			if st == 201 {
				issue = m["number"].(float64)
				a.add(func() { a.issues = append(a.issues, fmt.Sprintf("%s#%v", repo, issue)) })
			}
		case op == 3: // comment
			body := fmt.Sprintf("comment %d-%d-%d", round, w, i)
			st, m := c.json("POST", fmt.Sprintf("/api/v1/repos/boss/%s/issues/%v/comments", repo, issue), map[string]any{"body": body})
			if st == 0 {
				return
			}
			if st == 201 {
				a.add(func() { a.comments[fmt.Sprintf("%s#%v/%v", repo, issue, m["id"])] = body })
			}
		default: // attachment
			var buf bytes.Buffer
			mw := multipart.NewWriter(&buf)
			fw, _ := mw.CreateFormFile("attachment", fmt.Sprintf("a%d.txt", i))
			fw.Write(bytes.Repeat([]byte{byte('a' + i%26)}, 1000+rng.Intn(50000)))
			mw.Close()
			st, m := c.send("POST", fmt.Sprintf("/api/v1/repos/boss/%s/issues/%v/assets", repo, issue), mw.FormDataContentType(), buf.Bytes())
			if st == 0 {
				return
			}
			if st == 201 {
				a.add(func() { a.attach[fmt.Sprintf("%s#%v/%v", repo, issue, m["id"])] = m["uuid"].(string) })
			}
		}
	}
}

// checkIntegrity opens the database read-only right after the kill.
func checkIntegrity(t *testing.T, path string) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	require.NoError(t, err)
	defer db.Close()
	var res string
	require.NoError(t, db.QueryRow("PRAGMA integrity_check").Scan(&res))
	require.Equal(t, "ok", res)
	var fk int
	rows, err := db.Query("PRAGMA foreign_key_check")
	require.NoError(t, err)
	for rows.Next() {
		fk++
	}
	rows.Close()
	assert.Zero(t, fk, "foreign key violations")
}

func verifyAcked(t *testing.T, c *crashClient, a *acked) {
	t.Helper()
	a.mu.Lock()
	defer a.mu.Unlock()
	get := func(path string) (int, map[string]any) { return c.send("GET", "/api/v1"+path, "", nil) }
	for _, r := range a.repos {
		st, m := get("/repos/boss/" + r)
		assert.Equal(t, 200, st, "acknowledged repository %s: %v", r, m)
	}
	for k, content := range a.files {
		repo, path, _ := strings.Cut(k, "/")
		st, m := get("/repos/boss/" + repo + "/contents/" + path)
		if assert.Equal(t, 200, st, "acknowledged file %s: %v", k, m) {
			got, _ := base64.StdEncoding.DecodeString(m["content"].(string))
			assert.Equal(t, content, string(got), k)
		}
	}
	for k, sha := range a.branches {
		repo, branch, _ := strings.Cut(k, "/")
		st, m := get("/repos/boss/" + repo + "/branches/" + branch)
		if assert.Equal(t, 200, st, "acknowledged push %s: %v", k, m) {
			assert.Equal(t, sha, m["commit"].(map[string]any)["id"], k)
		}
	}
	for _, k := range a.issues {
		repo, n, _ := strings.Cut(k, "#")
		st, m := get("/repos/boss/" + repo + "/issues/" + n)
		assert.Equal(t, 200, st, "acknowledged issue %s: %v", k, m)
	}
	for k, body := range a.comments {
		repo, rest, _ := strings.Cut(k, "#")
		_, id, _ := strings.Cut(rest, "/")
		st, m := get("/repos/boss/" + repo + "/issues/comments/" + id)
		if assert.Equal(t, 200, st, "acknowledged comment %s: %v", k, m) {
			assert.Equal(t, body, m["body"], k)
		}
	}
	for k, uuid := range a.attach {
		repo, rest, _ := strings.Cut(k, "#")
		n, id, _ := strings.Cut(rest, "/")
		st, m := get("/repos/boss/" + repo + "/issues/" + n + "/assets/" + id)
		if assert.Equal(t, 200, st, "acknowledged attachment %s: %v", k, m) {
			assert.Equal(t, uuid, m["uuid"], k)
		}
	}
}

// checkNoHalfWrites compares the database with the git and blob
// directories after the restart (forged's Recover has run); swept: after
// the final sweep, when no orphan blob may remain.
func checkNoHalfWrites(t *testing.T, data string, swept bool) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(data, "hearth.db")+"?mode=ro")
	require.NoError(t, err)
	defer db.Close()
	set := func(q string) map[string]bool {
		rows, err := db.Query(q)
		require.NoError(t, err)
		defer rows.Close()
		out := map[string]bool{}
		for rows.Next() {
			var s string
			require.NoError(t, rows.Scan(&s))
			out[s] = true
		}
		require.NoError(t, rows.Err())
		return out
	}
	repoRows := set("SELECT CAST(id AS TEXT) || '.git' FROM repository")
	gitDirs := map[string]bool{}
	entries, err := os.ReadDir(filepath.Join(data, "git"))
	require.NoError(t, err)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".git") {
			gitDirs[e.Name()] = true
		}
	}
	for r := range repoRows {
		assert.True(t, gitDirs[r], "repository row %s has no git directory", r)
	}
	for d := range gitDirs {
		assert.True(t, repoRows[d], "git directory %s has no repository row", d)
	}
	attRows := set("SELECT uuid FROM issue_attachment UNION SELECT uuid FROM attachment")
	blobs := map[string]bool{}
	require.NoError(t, filepath.WalkDir(filepath.Join(data, "blobs"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			blobs[d.Name()] = true
		}
		return err
	}))
	for u := range attRows {
		assert.True(t, blobs[u], "attachment row %s has no blob", u)
	}
	// A kill between an upload's blob write and its transaction leaves a
	// blob no row names (or a temporary upload file): invisible, and
	// removed by the sweeper once older than its grace period. Between
	// rounds they are counted; after the final sweep, failed.
	leaked := 0
	for b := range blobs {
		if !attRows[b] {
			leaked++
		}
	}
	if !swept {
		if leaked > 0 {
			t.Logf("%d blobs without an attachment row (an upload killed between blob and row; the sweeper's grace period spares them)", leaked)
		}
		return
	}
	assert.Zero(t, leaked, "blobs without a row after the final sweep")
}

// checkQuotaCounters compares every owner's quota counters with a recount
// of the rows, on the database of the stopped server.
func checkQuotaCounters(t *testing.T, data string) {
	t.Helper()
	ctx := context.Background()
	db, err := sqlite.Open(ctx, filepath.Join(data, "hearth.db"))
	require.NoError(t, err)
	defer db.Close()
	raw, err := sql.Open("sqlite", "file:"+filepath.Join(data, "hearth.db")+"?mode=ro")
	require.NoError(t, err)
	defer raw.Close()
	rows, err := raw.Query("SELECT id FROM users")
	require.NoError(t, err)
	var owners []forge.ID
	for rows.Next() {
		var id forge.ID
		require.NoError(t, rows.Scan(&id))
		owners = append(owners, id)
	}
	require.NoError(t, rows.Err())
	rows.Close()
	for _, id := range owners {
		d, err := quota.RecountOwner(ctx, db.Quota(), id)
		require.NoError(t, err)
		assert.True(t, d.None(), "owner %d: quota counters %+v, recount %+v", id, d.Counted, d.Actual)
		if id == 1 {
			t.Logf("owner %d: quota counters equal the recount: %+v", id, d.Actual)
		}
	}
}

// sweepOrphans runs one blob sweep with grace 0 on the stopped server's
// data: nothing writes, so every blob without a row is an orphan.
func sweepOrphans(t *testing.T, data string) {
	t.Helper()
	ctx := context.Background()
	db, err := sqlite.Open(ctx, filepath.Join(data, "hearth.db"))
	require.NoError(t, err)
	defer db.Close()
	blobs, err := blob.OpenDir(filepath.Join(data, "blobs"))
	require.NoError(t, err)
	// A kill between blob and row is a matter of luck: plant one such
	// orphan so that the sweep is seen to delete.
	_, err = blobs.Put(ctx, "planted-orphan", strings.NewReader("no row names me"), 0)
	require.NoError(t, err)
	res, err := (&blob.Sweeper{Blobs: blobs, Refs: db.BlobRefs()}).Sweep(ctx, 0)
	require.NoError(t, err)
	assert.GreaterOrEqual(t, res.Deleted, 1, "the planted orphan is swept")
	t.Logf("final sweep: %d blobs, %d referenced, %d orphans and %d stale uploads deleted", res.Blobs, res.Referenced, res.Deleted, res.Uploads)
}
