package markup

import (
	"regexp"

	"github.com/microcosm-cc/bluemonday"
)

// sanitizer is Forgejo's markup sanitiser in substance
// (modules/markup/sanitizer_default.go): bluemonday's user-generated
// content policy (no scripts, styles, event handlers or javascript:
// URLs; rel="nofollow" on links), plus the classes and attributes the
// renderer itself writes (task-list checkboxes, emoji, references,
// commit links, code languages, table alignment, footnotes) and
// `user-content-` ids.
var sanitizer = func() *bluemonday.Policy {
	p := bluemonday.UGCPolicy()
	p.AllowAttrs("type").Matching(regexp.MustCompile(`^checkbox$`)).OnElements("input")
	p.AllowAttrs("checked", "disabled").OnElements("input")
	p.AllowAttrs("class").Matching(regexp.MustCompile(`^(ref-issue|commit)$`)).OnElements("a")
	p.AllowAttrs("class").Matching(regexp.MustCompile(`^emoji$`)).OnElements("span")
	p.AllowAttrs("aria-label").OnElements("span")
	p.AllowAttrs("class").Matching(regexp.MustCompile(`^(nohighlight|language-[\w+#.-]+)$`)).OnElements("code")
	p.AllowAttrs("class").Matching(regexp.MustCompile(`^task-list-item$`)).OnElements("li")
	p.AllowAttrs("align").Matching(regexp.MustCompile(`^(left|center|right)$`)).OnElements("th", "td")
	p.AllowAttrs("id").Matching(regexp.MustCompile(`^(user-content-[\w:.-]+|fn:?\d+|fnref:?\d+(:\d+)?)$`)).Globally()
	p.AllowAttrs("class").Matching(regexp.MustCompile(`^footnote(s|-ref|-backref)?$`)).Globally()
	p.AllowAttrs("role").Matching(regexp.MustCompile(`^doc-(noteref|backlink|endnotes)$`)).Globally()
	return p
}()
