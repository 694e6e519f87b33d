package httpapi

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestUserContentType(t *testing.T) {
	t.Parallel()
	png := "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"
	for _, tt := range []struct {
		name, head, ctype, disp string
	}{
		{"html", "<!DOCTYPE html><html><script>x</script>", "text/plain; charset=utf-8", "inline"},
		{"svg", `<svg xmlns="http://www.w3.org/2000/svg" onload="x()"/>`, "text/plain; charset=utf-8", "inline"},
		{"xml", `<?xml version="1.0"?><x/>`, "text/plain; charset=utf-8", "inline"},
		{"text", "hello\n", "text/plain; charset=utf-8", "inline"},
		{"empty", "", "text/plain; charset=utf-8", "inline"},
		{"utf-8 cut in a rune", strings.Repeat("a", 1023) + "\xc3", "text/plain; charset=utf-8", "inline"},
		{"png", png, "image/png", "inline"},
		{"pdf", "%PDF-1.7\n", "application/pdf", "inline"},
		{"binary", "\x00\x01\x02\x03", "application/octet-stream", "attachment"},
		{"latin-1", "caf\xe9 au lait", "application/octet-stream", "attachment"},
	} {
		ctype, disp := userContentType([]byte(tt.head))
		assert.Equal(t, tt.ctype, ctype, tt.name)
		assert.Equal(t, tt.disp, disp, tt.name)
	}
}
