package markup_test

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/hearthforge/hearth/forge/markup"
	"golang.org/x/net/html"
)

// dangerous returns what a sanitised rendering never holds, "" when
// none: a script, style, iframe or object element, an event handler
// attribute, a javascript:, vbscript: or data: URL.
func dangerous(out string) string {
	z := html.NewTokenizer(strings.NewReader(out))
	for {
		switch z.Next() {
		case html.ErrorToken:
			return ""
		case html.StartTagToken, html.SelfClosingTagToken:
			tok := z.Token()
			switch tok.Data {
			case "script", "style", "iframe", "object", "embed", "form":
				return tok.String()
			}
			for _, a := range tok.Attr {
				v := strings.ToLower(strings.TrimSpace(a.Val))
				if strings.HasPrefix(a.Key, "on") || a.Key == "style" || badURL.MatchString(v) {
					return tok.String()
				}
			}
		}
	}
}

var badURL = regexp.MustCompile(`^(javascript|vbscript|data):`)

// FuzzRender: any text in any mode renders without panicking, and the
// result holds nothing dangerous.
func FuzzRender(f *testing.F) {
	for _, seed := range []string{
		"# t\n[[a|b]] @r-lyeh #1 o/r#2 :+1: 65f1bf27bc3bf70f64657658635e66094edbcb4d",
		`<img src=x onerror=alert(1)>`, `<a href="javascript:alert(1)">x</a>`, "[x](javascript:alert(1))",
		"<scr<script>ipt>alert(1)</script>", "| a |\n|-|\n| <svg onload=alert(1)> |", "- [ ] <details open ontoggle=alert(1)>",
		"[[javascript:alert(1)|x]]", "[[x|javascript:alert(1)]]", "[[<img src=x onerror=alert(1)>.png]]",
	} {
		f.Add(seed, "gfm")
		f.Add(seed, "comment")
		f.Add(seed, "markdown")
	}
	s := markup.New(markup.Config{AppURL: appURL, Mentions: mentions{"r-lyeh": true}})
	f.Fuzz(func(t *testing.T, text, mode string) {
		out, err := s.Render(context.Background(), signedIn, markup.Options{Mode: mode, Text: text, Context: repo, Wiki: true})
		if err != nil {
			return
		}
		if d := dangerous(out); d != "" {
			t.Fatalf("rendering %q (%s) holds %s: %s", text, mode, d, out)
		}
	})
}
