package main

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestWarmReadsStartNoGitProcess reads branches, contents, raw and a
// commits page with stats of a SHA-1 and a SHA-256 repository through the
// real stack, then reads them again: the second round starts no git
// process (counted where gitstore starts every one). A push (here a commit
// through the contents API) is seen by the next read at once: refs are
// read per request, never cached.
func TestWarmReadsStartNoGitProcess(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	for _, format := range []string{"sha1", "sha256"} {
		t.Run(format, func(t *testing.T) {
			name := "warm-" + format
			s.seedRepo(t, name, format, 3)
			paths := []string{"/branches", "/contents/README.md", "/raw/README.md", "/commits?limit=10",
				"/branches/main", "/contents/dir0/file0.txt?ref=main"}
			read := func() map[string]string {
				out := map[string]string{}
				for _, p := range paths {
					out[p] = s.get(t, "/api/v1/repos/root/"+name+p)
				}
				return out
			}
			cold := read()
			before := s.git.Started()
			warm := read()
			if n := s.git.Started() - before; n != 0 {
				t.Errorf("warm reads started %d git processes, want 0", n)
			}
			for p := range cold {
				if cold[p] != warm[p] {
					t.Errorf("%s: warm read differs:\n%s\n%s", p, cold[p], warm[p])
				}
			}
			if s.git.CatFiles() == 0 || s.git.CatFiles() > 16 {
				t.Errorf("%d cat-file processes alive, want 1..16", s.git.CatFiles())
			}

			// A new commit moves main: the next reads show it.
			s.call(t, "PUT", "/api/v1/repos/root/"+name+"/contents/README.md", map[string]any{
				"content": "bmV3Cg==", "message": "rewrite readme", "sha": blobSHA(t, s, name)}, 200)
			if got := s.get(t, "/api/v1/repos/root/"+name+"/raw/README.md"); got != "new\n" {
				t.Errorf("raw after the commit = %q", got)
			}
			if got := s.get(t, "/api/v1/repos/root/"+name+"/commits?limit=10"); !strings.Contains(got, "rewrite readme") ||
				got == warm["/commits?limit=10"] {
				t.Errorf("commits after the commit do not show it: %.200s", got)
			}
			if got := s.get(t, "/api/v1/repos/root/"+name+"/branches"); got == warm["/branches"] {
				t.Error("branches after the commit are unchanged")
			}
		})
	}
}

// blobSHA is the blob id of README.md on main.
func blobSHA(t *testing.T, s *stack, repo string) string {
	t.Helper()
	return s.call(t, "GET", "/api/v1/repos/root/"+repo+"/contents/README.md", nil, 200)["sha"].(string)
}

// get reads path with the token and fails the test unless it is 200.
func (s *stack) get(tb testing.TB, path string) string {
	tb.Helper()
	req, err := http.NewRequest("GET", s.url+path, nil)
	if err != nil {
		tb.Fatal(err)
	}
	req.Header.Set("Authorization", "token "+s.token)
	res, err := s.client.Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil || res.StatusCode != 200 {
		tb.Fatal(fmt.Errorf("GET %s: %d %v: %s", path, res.StatusCode, err, body))
	}
	return string(body)
}
