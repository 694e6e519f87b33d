package markup

import (
	"bytes"
	"net/url"
	"path"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/yuin/goldmark-emoji/definition"
	"golang.org/x/net/html"
)

// links is Forgejo's post-processing of rendered Markdown
// (modules/markup/html.go's processors), applied to the text outside
// links, code and pre-formatted blocks:
//   - `[[Page]]` and `[[Name|Page]]`: a link to the wiki page (an image
//     when Page names one: the wiki's raw file);
//   - `@name`: a link to the profile when mentionable says so;
//   - `owner/repo#N`: a link to that repository's issue N; `#N` too, to
//     the context's, in comment mode;
//   - a full commit id (40 or 64 hex digits): a link to the commit, when
//     a context repository is given;
//   - `:shortcode:`: the emoji.
type links struct {
	base        string // the context's URL, no trailing slash
	app         string // the AppURL, with its trailing slash
	wiki        bool
	comment     bool
	mentionable func(name string) bool
}

// special finds the candidates in a text; each is checked (boundary,
// existence) before it is replaced. Go's regexp is linear in the text.
var special = regexp.MustCompile(`\[\[([^\[\]\n]+)\]\]` +
	`|@([0-9A-Za-z](?:[0-9A-Za-z_.-]*[0-9A-Za-z_])?)` +
	`|([0-9A-Za-z_.-]+/[0-9A-Za-z_.-]+)?#([0-9]+)\b` +
	`|\b([0-9a-f]{64}|[0-9a-f]{40})\b` +
	`|:([a-z0-9_+-]+):`)

// skipped are the elements whose text is left as it is.
var skipped = map[string]bool{"a": true, "code": true, "pre": true, "script": true, "style": true}

// process returns src (rendered HTML) with its text post-processed.
func (l *links) process(src []byte) []byte {
	var out bytes.Buffer
	out.Grow(len(src))
	z := html.NewTokenizer(bytes.NewReader(src))
	depth := 0 // inside skipped elements
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			return out.Bytes()
		case html.StartTagToken:
			if name, _ := z.TagName(); skipped[string(name)] {
				depth++
			}
		case html.EndTagToken:
			if name, _ := z.TagName(); skipped[string(name)] && depth > 0 {
				depth--
			}
		case html.TextToken:
			if depth == 0 {
				l.text(&out, html.UnescapeString(string(z.Raw())))
				continue
			}
		}
		out.Write(z.Raw())
	}
}

// text writes s, escaped, with its references replaced by links.
func (l *links) text(out *bytes.Buffer, s string) {
	last := 0
	for _, m := range special.FindAllStringSubmatchIndex(s, -1) {
		repl, ok := l.replace(s, m)
		if !ok {
			continue
		}
		out.WriteString(html.EscapeString(s[last:m[0]]))
		out.WriteString(repl)
		last = m[1]
	}
	out.WriteString(html.EscapeString(s[last:]))
}

// group is the text of m's group i ("" when it did not take part).
func group(s string, m []int, i int) string {
	if m[2*i] < 0 {
		return ""
	}
	return s[m[2*i]:m[2*i+1]]
}

// replace is the HTML of the candidate m of s, false when it stays text.
func (l *links) replace(s string, m []int) (string, bool) {
	switch {
	case m[2] >= 0:
		return l.wikiLink(group(s, m, 1)), true
	case m[4] >= 0:
		name := group(s, m, 2)
		if !boundaryBefore(s, m[0]) || l.mentionable == nil || !l.mentionable(name) {
			return "", false
		}
		return anchor(l.app+url.PathEscape(name), "", "@"+name), true
	case m[8] >= 0:
		if !boundaryBefore(s, m[0]) {
			return "", false
		}
		repo, n := group(s, m, 3), group(s, m, 4)
		if repo == "" {
			if !l.comment || l.base+"/" == l.app {
				return "", false
			}
			return anchor(l.base+"/issues/"+n, "ref-issue", "#"+n), true
		}
		return anchor(l.app+repo+"/issues/"+n, "ref-issue", repo+"#"+n), true
	case m[10] >= 0:
		if l.base+"/" == l.app {
			return "", false
		}
		sha := group(s, m, 5)
		return `<a href="` + html.EscapeString(l.base+"/commit/"+sha) + `" class="commit"><code class="nohighlight">` + sha[:10] + `</code></a>`, true
	case m[12] >= 0:
		e, ok := emojis.Get(group(s, m, 6))
		if !ok {
			return "", false
		}
		return `<span class="emoji" aria-label="` + html.EscapeString(e.Name) + `">` + string(e.Unicode) + `</span>`, true
	}
	return "", false
}

// emojis are GitHub's shortcodes (gemoji), as Forgejo's.
var emojis = definition.Github()

// boundaryBefore reports whether the candidate at i starts a word: the
// text's start, a space or an opening bracket before it.
func boundaryBefore(s string, i int) bool {
	if i == 0 {
		return true
	}
	r, _ := utf8.DecodeLastRuneInString(s[:i])
	return unicode.IsSpace(r) || strings.ContainsRune("([{'\"", r)
}

// imageExtensions are the wiki links shown as images.
var imageExtensions = map[string]bool{".png": true, ".jpg": true, ".jpeg": true, ".gif": true, ".webp": true, ".svg": true, ".avif": true}

// wikiLink is `[[Name|Page]]` (or `[[Page]]`) as a link to the wiki page,
// or an image of the wiki's raw file when Page names one; an absolute URL
// as Page is linked as it is.
func (l *links) wikiLink(inner string) string {
	name, page := inner, inner
	if i := strings.IndexByte(inner, '|'); i >= 0 {
		name, page = strings.TrimSpace(inner[:i]), strings.TrimSpace(inner[i+1:])
	}
	if strings.HasPrefix(page, "http://") || strings.HasPrefix(page, "https://") {
		return anchor(page, "", name)
	}
	if imageExtensions[strings.ToLower(path.Ext(page))] {
		src := html.EscapeString(l.base + "/wiki/raw/" + escapePath(page))
		return `<a href="` + src + `"><img src="` + src + `" title="` + html.EscapeString(path.Base(page)) +
			`" alt="` + html.EscapeString(name) + `"/></a>`
	}
	return anchor(l.base+"/wiki/"+url.PathEscape(strings.ReplaceAll(page, " ", "-")), "", name)
}

// escapePath escapes each segment of p.
func escapePath(p string) string {
	parts := strings.Split(p, "/")
	for i, s := range parts {
		parts[i] = url.PathEscape(s)
	}
	return strings.Join(parts, "/")
}

// anchor is an <a> to href with class (none when "") and text.
func anchor(href, class, text string) string {
	a := `<a href="` + html.EscapeString(href) + `"`
	if class != "" {
		a += ` class="` + class + `"`
	}
	return a + `>` + html.EscapeString(text) + `</a>`
}
