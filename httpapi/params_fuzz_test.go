package httpapi

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"
)

// FuzzQueryTime reads arbitrary `since`/`before` values: an accepted one
// is the zero time (no bound) or a time that prints as RFC 3339 and reads
// back as the same instant.
func FuzzQueryTime(f *testing.F) {
	for _, s := range []string{"", "2020-01-02T03:04:05Z", "2020-01-02T03:04:05+14:00", "2020-01-02T03:04:05.999999999-00:30",
		"0001-01-01T00:00:00Z", "9999-12-31T23:59:59Z", "2020-13-01T00:00:00Z", " 2020-01-02T03:04:05Z ", "2020-01-02T03%3A04%3A05Z", "yesterday", "%zz"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		r := httptest.NewRequest("GET", "/?since="+url.QueryEscape(v), nil)
		got, err := queryTime(r, "since")
		if err != nil || got.IsZero() {
			return
		}
		back, err := time.Parse(time.RFC3339Nano, got.Format(time.RFC3339Nano))
		if err != nil || !back.Equal(got) {
			t.Fatalf("queryTime(%q) = %v, which reads back as %v, %v", v, got, back, err)
		}
	})
}

// FuzzParseGitRequest reads arbitrary smart HTTP requests: an accepted one
// runs exactly one of git's two services, the one the path names (a POST)
// or every service parameter names (info/refs); anything else is a 4xx.
func FuzzParseGitRequest(f *testing.F) {
	for _, s := range [][3]string{{"GET", "/a/b.git/info/refs", "service=git-upload-pack"}, {"POST", "/a/b/git-receive-pack", ""},
		{"POST", "/a/b/git-upload-pack", "service=git-receive-pack"}, {"GET", "/a/b/info/refs", ""}, {"HEAD", "/a/b/info/refs", "service=x"},
		{"GET", "/a/b/info/refs", "service=git-upload-pack&service=git-receive-pack"}, {"PUT", "/a/b/git-upload-pack", ""}} {
		f.Add(s[0], s[1], s[2])
	}
	f.Fuzz(func(t *testing.T, method, path, rawQuery string) {
		q, _ := url.ParseQuery(rawQuery)
		gr, status, msg := parseGitRequest(method, path, q)
		if status != 0 {
			if status < 400 || status > 499 || msg == "" {
				t.Fatalf("parseGitRequest(%q, %q, %q): %d %q", method, path, rawQuery, status, msg)
			}
			return
		}
		if gr.service != "git-upload-pack" && gr.service != "git-receive-pack" {
			t.Fatalf("parseGitRequest(%q, %q, %q) runs %q", method, path, rawQuery, gr.service)
		}
		for _, v := range q["service"] {
			if v != gr.service {
				t.Fatalf("parseGitRequest(%q, %q, %q) runs %q against service=%q", method, path, rawQuery, gr.service, v)
			}
		}
		if gr.advertise != strings.HasSuffix(path, "/info/refs") || !gr.advertise && (method != http.MethodPost || !strings.HasSuffix(path, "/"+gr.service)) {
			t.Fatalf("parseGitRequest(%q, %q, %q) = %+v", method, path, rawQuery, gr)
		}
	})
}
