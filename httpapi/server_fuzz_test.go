package httpapi_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/forge/site"
	"github.com/hearthforge/hearth/httpapi"
	"github.com/hearthforge/hearth/issues"
	"github.com/hearthforge/hearth/storage/blob"
	"github.com/hearthforge/hearth/storage/gitstore"
	"github.com/hearthforge/hearth/storage/memstore"
	"github.com/hearthforge/hearth/storage/sqlite"
)

// fuzzServer is a real API server on loopback over real services (SQLite
// in memory, git and blob directories) for the fuzz targets: alice owns
// alice/proj, which has issue #1 with a comment and a label; token is
// alice's token with every scope.
type fuzzServer struct {
	url, token string
	comment    int64
	label      int64
	release    int64
}

func newFuzzServer(tb testing.TB, mutate ...func(*httpapi.Config)) *fuzzServer {
	tb.Helper()
	ctx := context.Background()
	must := func(err error) {
		tb.Helper()
		if err != nil {
			tb.Fatal(err)
		}
	}
	// SQLite, but memstore while fuzzing: the fuzzer instruments every
	// package, and the transpiled SQLite then runs some hundred times
	// slower (seeds and regressions in plain `go test` use SQLite).
	var db fuzzStores
	if f := flag.Lookup("test.fuzz"); f != nil && f.Value.String() != "" {
		db = memstore.New()
	} else {
		sdb, err := sqlite.Open(ctx, ":memory:")
		must(err)
		tb.Cleanup(func() { sdb.Close() })
		db = sdb
	}
	clock := forgetest.NewClock()
	svc, err := auth.New(auth.Config{Store: db.Auth(), Clock: clock, Password: auth.PasswordParams{Time: 1, MemoryKiB: 64, Threads: 1},
		SecretKey: []byte("httpapi-test-secret")})
	must(err)
	no := false
	_, err = svc.EnsureAdmin(ctx, auth.CreateUserOptions{Name: "root", Email: "root@example.com", Password: "rootpassword", MustChangePassword: &no})
	must(err)
	git, err := gitstore.Open(tb.TempDir())
	must(err)
	tb.Cleanup(func() { git.Close() })
	blobs, err := blob.OpenDir(tb.TempDir())
	must(err)
	repoSvc, err := repos.New(repos.Config{Store: db.Repos(), Git: git, Blobs: blobs, Clock: clock})
	must(err)
	issueSvc, err := issues.New(issues.Config{Store: db.Issues(), Repos: repoSvc, Orgs: fakeOrgs{svc}, Search: site.IssueRepos{Repos: repoSvc},
		Clock: clock, Blobs: blobs, MaxAttachmentSize: 1 << 20})
	must(err)
	cfg := httpapi.Config{Auth: svc, Repos: repoSvc, Git: git, Issues: issueSvc}
	for _, m := range mutate {
		m(&cfg)
	}
	api, err := httpapi.New(cfg)
	must(err)
	srv := httptest.NewServer(api)
	tb.Cleanup(srv.Close)
	s := &fuzzServer{url: srv.URL}
	call := func(method, path, user, body string, want int) map[string]any {
		tb.Helper()
		r, _ := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		if user != "" {
			r.SetBasicAuth(user, user+"password")
		} else {
			r.Header.Set("Authorization", "token "+s.token)
		}
		res, err := http.DefaultClient.Do(r)
		must(err)
		defer res.Body.Close()
		data, _ := io.ReadAll(res.Body)
		if res.StatusCode != want {
			tb.Fatalf("%s %s: %d %s", method, path, res.StatusCode, data)
		}
		var m map[string]any
		json.Unmarshal(data, &m)
		return m
	}
	call("POST", "/api/v1/admin/users", "root", `{"username":"alice","email":"alice@example.com","password":"alicepassword","must_change_password":false}`, 201)
	s.token = call("POST", "/api/v1/users/alice/tokens", "alice", `{"name":"fuzz","scopes":["all"]}`, 201)["sha1"].(string)
	call("POST", "/api/v1/user/repos", "", `{"name":"proj","auto_init":true}`, 201)
	call("POST", "/api/v1/repos/alice/proj/issues", "", `{"title":"first","body":"about #1 @alice"}`, 201)
	s.comment = int64(call("POST", "/api/v1/repos/alice/proj/issues/1/comments", "", `{"body":"a comment"}`, 201)["id"].(float64))
	s.label = int64(call("POST", "/api/v1/repos/alice/proj/labels", "", `{"name":"bug","color":"#ff0000"}`, 201)["id"].(float64))
	s.release = int64(call("POST", "/api/v1/repos/alice/proj/releases", "", `{"tag_name":"v1","name":"one"}`, 201)["id"].(float64))
	return s
}

// fuzzStores are the stores of the fuzz server (storage/sqlite and
// storage/memstore both provide them).
type fuzzStores interface {
	Auth() auth.Store
	Repos() repos.Store
	Issues() issues.Store
}

// do sends one request as alice and returns the status and body.
func (s *fuzzServer) do(t *testing.T, method, path, contentType string, body []byte) (int, []byte) {
	t.Helper()
	r, err := http.NewRequest(method, s.url+path, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	r.Header.Set("Content-Type", contentType)
	r.Header.Set("Authorization", "token "+s.token)
	res, err := http.DefaultClient.Do(r)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	return res.StatusCode, data
}

// checkAnswer fails on a 5xx, and on an error status whose body is not
// Forgejo's JSON error shape.
func checkAnswer(t *testing.T, what string, status int, body []byte) {
	t.Helper()
	if status >= 500 {
		t.Fatalf("%s: %d %s", what, status, body)
	}
	if status >= 400 && len(body) > 0 {
		var e struct {
			Message *string `json:"message"`
		}
		if err := json.Unmarshal(body, &e); err != nil || e.Message == nil {
			t.Fatalf("%s: %d with body %q", what, status, body)
		}
	}
}

// fuzzWriteRoutes are the write routes FuzzWriteRoutes sends bodies to;
// %s in a path takes the fuzzed path segment.
var fuzzWriteRoutes = []struct{ method, path string }{
	{"POST", "/repos/alice/proj/issues"},
	{"PATCH", "/repos/alice/proj/issues/1"},
	{"POST", "/repos/alice/proj/issues/1/comments"},
	{"PATCH", "/repos/alice/proj/issues/comments/{comment}"},
	{"POST", "/repos/alice/proj/labels"},
	{"PATCH", "/repos/alice/proj/labels/{label}"},
	{"PUT", "/repos/alice/proj/issues/1/labels"},
	{"POST", "/repos/alice/proj/issues/1/labels"},
	{"POST", "/repos/alice/proj/milestones"},
	{"POST", "/repos/alice/proj/issues/1/deadline"},
	{"POST", "/repos/alice/proj/issues/1/times"},
	{"PATCH", "/repos/alice/proj"},
	{"POST", "/repos/alice/proj/branches"},
	{"POST", "/repos/alice/proj/tags"},
	{"POST", "/repos/alice/proj/branch_protections"},
	{"POST", "/repos/alice/proj/contents"},
	{"POST", "/repos/alice/proj/contents/%s"},
	{"PUT", "/repos/alice/proj/contents/%s"},
	{"POST", "/repos/alice/proj/releases"},
	{"POST", "/repos/alice/proj/statuses/%s"},
	{"POST", "/user/repos"},
	{"POST", "/repos/alice/proj/issues/1/reactions"},
	{"GET", "/repos/alice/proj/contents/%s"},
	{"GET", "/repos/alice/proj/raw/%s"},
	{"GET", "/repos/alice/proj/branches/%s"},
	{"GET", "/repos/alice/proj/git/commits/%s"},
	{"GET", "/repos/alice/proj/issues?q=%s&labels=%s&since=%s"},
}

// FuzzWriteRoutes sends arbitrary JSON bodies, with an arbitrary path
// segment (a file path, branch, commit or query value), to a sample of
// routes of a real server over loopback, as the repository owner with
// every scope: no answer is a 5xx, and every error is Forgejo's JSON shape.
func FuzzWriteRoutes(f *testing.F) {
	seeds := [][2]string{
		{`{}`, "a.txt"},
		{`{"title":"t","body":"see #1 and alice/proj#1 @alice","labels":[1],"due_date":"2030-01-01T00:00:00Z"}`, "main"},
		{`{"name":"x","color":"00aabb","exclusive":true,"description":"d"}`, "docs/../x"},
		{`{"labels":["bug",1]}`, "..%2f..%2fetc"},
		{`{"new_branch_name":"b1","old_branch_name":"main","tag_name":"v1","target":"main","rule_name":"m*"}`, "refs/heads/main"},
		{`{"files":[{"operation":"create","path":"x/y","content":"aGk="}],"message":"m","content":"aGk=","branch":"main"}`, "f.txt"},
		{`{"state":"success","context":"ci","target_url":"http://x"}`, "HEAD"},
		{`{"time":3600,"created":"2020-01-01T00:00:00Z","content":"+1","due_date":null}`, "main...main"},
		{`{"name":"r","private":true,"default_branch":"nope","has_issues":false}`, "\x00"},
		{`{"body":null,"title":"","state":"closed","milestone":99,"assignees":["nobody"]}`, ".git/config"},
		{`{"mirror_interval":"1h","external_tracker":{"external_tracker_url":"http://x","external_tracker_format":"http://x/{index}"},"external_wiki":{"external_wiki_url":"ftp://x"},"default_branch":"a\nb"}`, "x"},
	}
	// Each route once, with the seeds in turn (few seeds keep the
	// baseline short; the fuzzer recombines them).
	for i := range fuzzWriteRoutes {
		f.Add(uint8(i), []byte(seeds[i%len(seeds)][0]), seeds[i%len(seeds)][1])
	}
	for j, sd := range seeds {
		f.Add(uint8(j*7), []byte(sd[0]), sd[1])
	}
	s := newFuzzServer(f)
	f.Fuzz(func(t *testing.T, route uint8, body []byte, seg string) {
		rt := fuzzWriteRoutes[int(route)%len(fuzzWriteRoutes)]
		p := strings.NewReplacer("{comment}", fmt.Sprint(s.comment), "{label}", fmt.Sprint(s.label)).Replace(rt.path)
		esc := url.PathEscape(seg)
		if strings.Contains(p, "?") {
			esc = url.QueryEscape(seg)
		}
		p = strings.ReplaceAll(p, "%s", esc)
		if rt.method == "GET" {
			body = nil
		}
		status, data := s.do(t, rt.method, "/api/v1"+p, "application/json", body)
		checkAnswer(t, rt.method+" "+p, status, data)
	})
}

// FuzzAttachmentUpload sends arbitrary multipart bodies to the attachment
// upload of an issue or of a release: no answer is a 5xx, every error is Forgejo's JSON
// shape, and an upload that succeeds stored exactly the bytes of the
// request's `attachment` part.
func FuzzAttachmentUpload(f *testing.F) {
	part := func(fields map[string]string, name, content string) []byte {
		var b bytes.Buffer
		mw := multipart.NewWriter(&b)
		mw.SetBoundary("fuzzboundary")
		for k, v := range fields {
			mw.WriteField(k, v)
		}
		if name != "-" {
			w, _ := mw.CreateFormFile("attachment", name)
			w.Write([]byte(content))
		}
		mw.Close()
		return b.Bytes()
	}
	ct := "multipart/form-data; boundary=fuzzboundary"
	f.Add(ct, part(nil, "a.txt", "hello"), "")
	f.Add(ct, part(map[string]string{"name": "b.txt", "updated_at": "2020-01-01T00:00:00Z"}, "a.txt", "hi"), "")
	f.Add(ct, part(map[string]string{"updated_at": "yesterday"}, "a.txt", "x"), "")
	f.Add(ct, part(nil, "-", ""), "")
	f.Add(ct, part(nil, "../../etc/passwd", "\x00\x01"), "x.exe")
	f.Add(ct, part(nil, "", "<html><script>alert(1)</script>"), "")
	f.Add("multipart/form-data", []byte("--x\r\n\r\n"), "")
	f.Add("multipart/form-data; boundary=\"", []byte("--\"\r\n"), "")
	f.Add("application/json", []byte(`{}`), "n")
	f.Add(ct, []byte("--fuzzboundary\r\nContent-Disposition: form-data; name=\"attachment\"; filename=\"a\"\r\n\r\ntruncated"), "")
	s := newFuzzServer(f)
	f.Fuzz(func(t *testing.T, contentType string, body []byte, name string) {
		if !sendableHeader(contentType) {
			t.Skip("net/http's client refuses to send this Content-Type")
		}
		path := "/api/v1/repos/alice/proj/issues/1/assets"
		if len(body)%2 == 1 {
			path = fmt.Sprintf("/api/v1/repos/alice/proj/releases/%d/assets", s.release)
		}
		if name != "" {
			path += "?name=" + url.QueryEscape(name)
		}
		status, data := s.do(t, "POST", path, contentType, body)
		checkAnswer(t, "upload", status, data)
		if status != http.StatusCreated {
			return
		}
		var at struct {
			Size int64  `json:"size"`
			Name string `json:"name"`
		}
		if err := json.Unmarshal(data, &at); err != nil {
			t.Fatalf("201 with %q (%v)", data, err)
		}
		mt, params, _ := mime.ParseMediaType(contentType)
		if mt != "multipart/form-data" {
			if !strings.Contains(path, "releases") || at.Size != int64(len(body)) {
				t.Fatalf("201 for a %q body of %d bytes, stored %d", contentType, len(body), at.Size)
			}
			return
		}
		mr := multipart.NewReader(bytes.NewReader(body), params["boundary"])
		for {
			p, err := mr.NextPart()
			if err != nil {
				t.Fatalf("201 for a body without an attachment part: %v", err)
			}
			if p.FormName() == "attachment" {
				want, _ := io.ReadAll(p)
				if int64(len(want)) != at.Size {
					t.Fatalf("stored %d bytes, the part holds %d", at.Size, len(want))
				}
				return
			}
		}
	})
}

// FuzzAuthorization sends arbitrary Authorization, Sudo and OTP headers
// to a real server: no answer is a 5xx, errors are Forgejo's JSON shape,
// and /user answers 200 only to a header carrying a real credential
// (alice's token, or alice's or root's password).
func FuzzAuthorization(f *testing.F) {
	basic := func(u, p string) string { return "Basic " + base64.StdEncoding.EncodeToString([]byte(u+":"+p)) }
	for _, s := range [][3]string{{"token TOKEN", "", ""}, {"Bearer TOKEN", "root", ""}, {basic("alice", "alicepassword"), "", "123456"},
		{basic("root", "rootpassword"), "alice", ""}, {basic("alice", "wrong"), "", ""}, {"Basic !!!", "", ""}, {"token", "", ""},
		{"token a b", "", ""}, {basic("", ""), "", ""}, {"Basic " + base64.StdEncoding.EncodeToString([]byte("nocolon")), "", ""}, {"", "ghost", "x"}} {
		f.Add(s[0], s[1], s[2])
	}
	s := newFuzzServer(f)
	f.Fuzz(func(t *testing.T, authorization, sudo, otp string) {
		authorization = strings.ReplaceAll(authorization, "TOKEN", s.token)
		for _, path := range []string{"/api/v1/user", "/api/v1/repos/alice/proj"} {
			r, err := http.NewRequest("GET", s.url+path, nil)
			if err != nil {
				t.Fatal(err)
			}
			for k, v := range map[string]string{"Authorization": authorization, "Sudo": sudo, "X-Forgejo-OTP": otp} {
				if v != "" && sendableHeader(v) {
					r.Header.Set(k, v)
				}
			}
			res, err := http.DefaultClient.Do(r)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(res.Body)
			res.Body.Close()
			checkAnswer(t, path, res.StatusCode, body)
			if path == "/api/v1/user" && res.StatusCode == http.StatusOK {
				auth := r.Header.Get("Authorization")
				creds := strings.Contains(auth, s.token)
				if f := strings.Fields(auth); len(f) == 2 && strings.EqualFold(f[0], "basic") {
					raw, _ := base64.StdEncoding.DecodeString(f[1])
					creds = creds || strings.HasSuffix(string(raw), ":alicepassword") || strings.HasSuffix(string(raw), ":rootpassword")
				}
				if !creds {
					t.Fatalf("/user answered 200 to Authorization %q: %s", auth, body)
				}
			}
		}
	})
}

// sendableHeader reports whether net/http's client sends v as a header
// value (its check, httpguts.ValidHeaderFieldValue: no control byte but
// the tab). A value it refuses never reaches the server, so a fuzz input
// holding one tests nothing.
func sendableHeader(v string) bool {
	for i := 0; i < len(v); i++ {
		if c := v[i]; (c < ' ' && c != '\t') || c == 0x7f {
			return false
		}
	}
	return true
}
