package httpapi_test

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/hearthforge/hearth/httpapi"
)

// TestUploadTruncated is the defect FuzzAttachmentUpload found: a
// multipart upload whose body ends inside the file part (a cut
// connection, a malformed request) answered 500; it is a 400 now, for
// issue attachments and release assets alike, and nothing is stored.
func TestUploadTruncated(t *testing.T) {
	t.Parallel()
	s := newFuzzServer(t)
	body := "--b\r\nContent-Disposition: form-data; name=\"attachment\"; filename=\"a.txt\"\r\n\r\nhello, and then noth"
	for _, path := range []string{"/api/v1/repos/alice/proj/issues/1/assets", fmt.Sprintf("/api/v1/repos/alice/proj/releases/%d/assets", s.release)} {
		status, data := s.do(t, "POST", path, "multipart/form-data; boundary=b", []byte(body))
		if status != http.StatusBadRequest || !strings.Contains(string(data), "reading the upload") {
			t.Errorf("POST %s: %d %s, want 400", path, status, data)
		}
		status, data = s.do(t, "GET", path, "", nil)
		if status != http.StatusOK || strings.TrimSpace(string(data)) != "[]" {
			t.Errorf("GET %s: %d %s, want no attachment", path, status, data)
		}
	}
}

// TestUploadLimit refuses an issue attachment over Config.MaxUploadBytes
// with 413 (release assets had the limit already), and takes one at the
// limit.
func TestUploadLimit(t *testing.T) {
	t.Parallel()
	s := newFuzzServer(t, func(c *httpapi.Config) { c.MaxUploadBytes = 10 })
	up := func(content string) (int, []byte) {
		body := "--b\r\nContent-Disposition: form-data; name=\"attachment\"; filename=\"a.txt\"\r\n\r\n" + content + "\r\n--b--\r\n"
		return s.do(t, "POST", "/api/v1/repos/alice/proj/issues/1/assets", "multipart/form-data; boundary=b", []byte(body))
	}
	if status, data := up("0123456789"); status != http.StatusCreated {
		t.Errorf("10 bytes: %d %s, want 201", status, data)
	}
	if status, data := up("0123456789x"); status != http.StatusRequestEntityTooLarge || !strings.Contains(string(data), "limit is 10 bytes") {
		t.Errorf("11 bytes: %d %s, want 413", status, data)
	}
}

// TestServerLimits runs the API behind an http.Server with
// ServerLimits applied: headers over MaxHeaderBytes get 431, a client that
// does not finish its headers within ReadHeaderTimeout is cut off, and the
// zero value applies the defaults.
func TestServerLimits(t *testing.T) {
	t.Parallel()
	var zero http.Server
	httpapi.ServerLimits{}.Apply(&zero)
	if zero.MaxHeaderBytes != httpapi.DefaultServerLimits.MaxHeaderBytes || zero.ReadHeaderTimeout != httpapi.DefaultServerLimits.ReadHeaderTimeout ||
		zero.IdleTimeout != httpapi.DefaultServerLimits.IdleTimeout {
		t.Fatalf("zero ServerLimits applied %d, %v, %v", zero.MaxHeaderBytes, zero.ReadHeaderTimeout, zero.IdleTimeout)
	}
	api := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) })
	srv := httptest.NewUnstartedServer(api)
	httpapi.ServerLimits{MaxHeaderBytes: 4 << 10, ReadHeaderTimeout: 200 * time.Millisecond}.Apply(srv.Config)
	srv.Start()
	t.Cleanup(srv.Close)
	for _, n := range []int{1 << 10, 64 << 10} {
		r, _ := http.NewRequest("GET", srv.URL+"/api/v1/version", nil)
		r.Header.Set("X-Big", strings.Repeat("x", n))
		res, err := http.DefaultClient.Do(r)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if want := map[bool]int{true: http.StatusNoContent, false: http.StatusRequestHeaderFieldsTooLarge}[n < 4<<10]; res.StatusCode != want {
			t.Errorf("a %d-byte header: %d, want %d", n, res.StatusCode, want)
		}
	}
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	start := time.Now()
	io.WriteString(conn, "GET /api/v1/version HTTP/1.1\r\nHost: x\r\n") // never finished
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	io.ReadAll(conn) // returns when the server closes the connection
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("a client stalling in its headers kept the connection %v", d)
	}
}
