package issues

import (
	"strconv"
	"strings"
)

// The references (`#N`, `owner/name#N`) and mentions (`@name`,
// `@org/team`) of a text, found by hand-written scanners that read the
// text once: each position is looked at a bounded number of times, so the
// cost is linear in the text's length whatever it holds. They find what
// Forgejo's modules/references patterns find (those regular expressions
// are the scanners' reference implementation in the tests:
// FuzzTextScanners, TestTextScanMatchesPatterns).
//
// A body is bounded by the request (httpapi.Config.MaxBodyBytes, 1 MiB by
// default), but what a body makes the server do is bounded here: only the
// first Config.MaxTextRefs distinct references and Config.MaxTextMentions
// distinct mentions of a text are acted on. Forgejo has no such cap (its
// createCrossReferences and mention resolution act on every one); a forge
// open to anyone must have one, or one comment costs a query per
// reference (an issue looked up, a comment written) and per mention (an
// account and its permission looked up).
const (
	// DefaultMaxTextRefs is Config.MaxTextRefs when zero: how many
	// distinct issue references of one text (an issue's title and body, a
	// comment's body) are acted on, the first ones in the order of the
	// text.
	DefaultMaxTextRefs = 100
	// DefaultMaxTextMentions is Config.MaxTextMentions when zero: how
	// many distinct mentions (users and teams together) of one text are
	// acted on, the first ones in the order of the text.
	DefaultMaxTextMentions = 50
)

// blankCode returns text with its code blanked (each byte a space):
// fenced blocks (from "```" to the next "```", across lines) and inline
// code spans ("`" to the next "`" on the same line), leftmost first, a
// fence preferred to a span where both start; as the regular expression
// "(?s)```.*?```|`[^`\n]*`" replaces, in one pass.
func blankCode(text string) string {
	if strings.IndexByte(text, '`') < 0 {
		return text
	}
	b := []byte(text)
	// fence is the first "```" at or after fenceFrom (len(text): none);
	// the positions asked for only grow, so the text is searched once.
	fence, fenceFrom := -1, -1
	closing := func(from int) int {
		if fenceFrom < 0 || (fence < from && fence < len(text)) {
			fenceFrom = from
			if i := strings.Index(text[from:], "```"); i >= 0 {
				fence = from + i
			} else {
				fence = len(text)
			}
		}
		return fence
	}
	for p := 0; p < len(text); {
		i := strings.IndexByte(text[p:], '`')
		if i < 0 {
			break
		}
		p += i
		end := -1
		if strings.HasPrefix(text[p:], "```") {
			if c := closing(p + 3); c < len(text) {
				end = c + 3
			}
		}
		if end < 0 {
			if q := strings.IndexAny(text[p+1:], "`\n"); q >= 0 && text[p+1+q] == '`' {
				end = p + 1 + q + 1
			}
		}
		if end < 0 {
			p++
			continue
		}
		for j := p; j < end; j++ {
			b[j] = ' '
		}
		p = end
	}
	return string(b)
}

// isSpace is the regular expressions' \s: ASCII white space but \v.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// isWord is \w: an ASCII letter, digit or underscore.
func isWord(c byte) bool {
	return isDigit(c) || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_'
}

// startsToken reports whether a reference or a mention may start at p:
// at the start of the text or after a space or an opening bracket.
func startsToken(text string, p int) bool {
	return p == 0 || isSpace(text[p-1]) || text[p-1] == '(' || text[p-1] == '['
}

// endsRef reports whether a reference may end before q: at the end, a
// space, a closing bracket, or one of `:;,.?!` followed by a space or the
// end.
func endsRef(text string, q int) bool {
	if q == len(text) {
		return true
	}
	switch c := text[q]; {
	case isSpace(c), c == ')', c == ']':
		return true
	case strings.IndexByte(":;,.?!", c) >= 0:
		return q+1 == len(text) || isSpace(text[q+1])
	}
	return false
}

// endsMention reports whether a mention may end before q: at the end, a
// space, an apostrophe, a closing bracket, or one of `:,;.?!` followed by
// a space or the end.
func endsMention(text string, q int) bool {
	if q < len(text) && text[q] == '\'' {
		return true
	}
	return endsRef(text, q)
}

// isRepoChar is a character of an owner or repository name in a
// reference: an ASCII letter or digit, `-`, `_` or `.`.
func isRepoChar(c byte) bool {
	return isDigit(c) || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '-' || c == '_' || c == '.'
}

// span returns the end of the run of bytes from p that ok accepts.
func span(text string, p int, ok func(byte) bool) int {
	for p < len(text) && ok(text[p]) {
		p++
	}
	return p
}

// scanRefs calls found with each reference of text (code blanked), in
// order, until found returns false. A reference starts where startsToken
// allows: `#N` or `owner/name#N` (or `!N`), N a positive int64, ending
// where endsRef allows.
func scanRefs(text string, found func(IssueRef) bool) {
	for p := 0; p < len(text); p++ {
		if !startsToken(text, p) {
			continue
		}
		var ref IssueRef
		var digits int
		switch c := text[p]; {
		case c == '#':
			digits = p + 1
		case isRepoChar(c):
			o := span(text, p, isRepoChar)
			if o == len(text) || text[o] != '/' {
				continue
			}
			r := span(text, o+1, isRepoChar)
			if r == o+1 || r == len(text) || (text[r] != '#' && text[r] != '!') {
				continue
			}
			ref.Owner, ref.Repo, digits = text[p:o], text[o+1:r], r+1
		default:
			continue
		}
		end := span(text, digits, isDigit)
		if end == digits || !endsRef(text, end) {
			continue
		}
		n, err := strconv.ParseInt(text[digits:end], 10, 64)
		if err != nil || n <= 0 {
			continue
		}
		ref.Index = n
		if !found(ref) {
			return
		}
	}
}

// parseRefs returns the first max distinct references of text (max < 0:
// all; owner and repository compared ignoring case; `#N` and
// `owner/name#N` are distinct here), leaving out those inside code.
func parseRefs(text string, max int) []IssueRef {
	var out []IssueRef
	if max == 0 {
		return out
	}
	seen := map[IssueRef]bool{}
	scanRefs(blankCode(text), func(ref IssueRef) bool {
		k := IssueRef{Owner: strings.ToLower(ref.Owner), Repo: strings.ToLower(ref.Repo), Index: ref.Index}
		if !seen[k] {
			seen[k] = true
			out = append(out, ref)
		}
		return max < 0 || len(out) < max
	})
	return out
}

// isMentionChar is a character of a mentioned name after its first: \w,
// `-` or `.`.
func isMentionChar(c byte) bool { return isWord(c) || c == '-' || c == '.' }

// mentionName returns the end of the name that starts at p (its first
// character `[-\w]`, the next ones `[-.\w]`) as the lazy `[-.\w]*?`
// followed by a mention's end takes it, or -1 when no end follows: the
// name without a last `.` that a space or the end follows, else the
// whole run if endsMention allows. A name can end only there: inside
// the run the only character that may end a mention is `.`, and only
// before a space or the end.
func mentionName(text string, p int) int {
	if p >= len(text) || !(isWord(text[p]) || text[p] == '-') {
		return -1
	}
	e := span(text, p+1, isMentionChar)
	if e-1 > p && text[e-1] == '.' && (e == len(text) || isSpace(text[e])) {
		return e - 1
	}
	if endsMention(text, e) {
		return e
	}
	return -1
}

// scanMentionSpans calls found with each mention of text (code blanked),
// in order, as the name without its `@` ("name" or "org/team"), until
// found returns false. A mention starts where startsToken allows; a user
// is preferred to a team where both could be read.
func scanMentionSpans(text string, found func(name string) bool) {
	for p := 0; p < len(text); p++ {
		if text[p] != '@' || !startsToken(text, p) {
			continue
		}
		name := ""
		if e := mentionName(text, p+1); e >= 0 {
			name = text[p+1 : e]
		} else if o := span(text, p+2, isMentionChar); p+1 < len(text) && (isWord(text[p+1]) || text[p+1] == '-') &&
			o < len(text) && text[o] == '/' {
			if e := mentionName(text, o+1); e >= 0 {
				name = text[p+1 : e]
			}
		}
		if name != "" && !found(name) {
			return
		}
	}
}
