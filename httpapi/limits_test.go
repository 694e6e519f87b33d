package httpapi_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

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
