package httpapi

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"
)

// userContentCSP is the Content-Security-Policy of every file served from a
// repository: nothing it holds may run or load anything on the API's origin.
const userContentCSP = "default-src 'none'; sandbox"

// userContentType decides, from the first bytes of a file, how it is
// served, as Forgejo's ServeContentByReader does: images (but SVG), audio,
// video and PDF with their own type inline; any text (HTML, XML and SVG
// included) as `text/plain; charset=utf-8` inline; everything else as
// `application/octet-stream` attachment. No markup is ever served with an
// active type.
func userContentType(head []byte) (ctype, disposition string) {
	sniff := http.DetectContentType(head)
	base, _, _ := strings.Cut(sniff, ";")
	switch {
	case strings.HasPrefix(base, "image/"), strings.HasPrefix(base, "audio/"), strings.HasPrefix(base, "video/"), base == "application/pdf":
		return base, "inline"
	case isText(head):
		return "text/plain; charset=utf-8", "inline"
	}
	return "application/octet-stream", "attachment"
}

// isText reports whether head (possibly cut inside a rune) is UTF-8 text.
func isText(head []byte) bool {
	if bytes.IndexByte(head, 0) >= 0 {
		return false
	}
	for i := 0; i < utf8.UTFMax && len(head) > 0 && !utf8.Valid(head); i++ {
		head = head[:len(head)-1]
	}
	return utf8.Valid(head)
}

// serveUserContent streams r (size bytes of the file name) with the
// headers of userContentType, the sandboxing CSP and nosniff; it never reads
// more than 1 KiB ahead.
func serveUserContent(w http.ResponseWriter, r io.Reader, name string, size int64) error {
	br := bufio.NewReaderSize(r, 1024)
	head, _ := br.Peek(1024)
	ctype, disp := userContentType(head)
	h := w.Header()
	h.Set("Content-Type", ctype)
	h.Set("Content-Security-Policy", userContentCSP)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Length", strconv.FormatInt(size, 10))
	quoted := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\r", "", "\n", "").Replace(name)
	h.Set("Content-Disposition", fmt.Sprintf(`%s; filename="%s"; filename*=UTF-8''%s`, disp, quoted, url.PathEscape(name)))
	h.Set("Access-Control-Expose-Headers", "Content-Disposition")
	w.WriteHeader(http.StatusOK)
	_, err := io.Copy(w, br)
	return err
}
