package hooks

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestEscapeMarkdown: discord commit lines escape markdown as Forgejo's
// escapeMarkdown (the cases of its discord_test.go).
func TestEscapeMarkdown(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"# Heading level 1":      `\# Heading level 1`,
		"### Heading level 3":    `\#\#\# Heading level 3`,
		"**bold text**":          `\*\*bold text\*\*`,
		"*italic text*":          `\*italic text\*`,
		"_italic text_":          `\_italic text\_`,
		"~~strikethrough~~":      `\~\~strikethrough\~\~`,
		"1. item\n22. item":      "1\\. item\n22\\. item",
		"- Unordered\n + plus":   "\\- Unordered\n \\+ plus",
		"* Bullet":               `\* Bullet`,
		"| a | b |":              `\| a \| b \|`,
		"[link](https://x.org/)": `\[link\]\(https://x.org/\)`,
		"![alt](x.png)":          `\!\[alt\]\(x.png\)`,
		"`code` <b>":             "\\`code\\` \\<b\\>",
		"plain text":             "plain text",
	} {
		assert.Equal(t, want, escapeMarkdown(in), in)
	}
}

// TestSanitizeHTML: telegram messages keep Telegram's tags, links get
// rel="nofollow" and keep only web hrefs, other tags go and text is
// escaped, as Forgejo's markup.Sanitize leaves them.
func TestSanitizeHTML(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		`<a href="https://x.org/a?b=1&amp;c=2">x</a>`: `<a href="https://x.org/a?b=1&amp;c=2" rel="nofollow">x</a>`,
		`<a href="javascript:alert(1)">x</a>`:         `<a>x</a>`,
		`<script>alert(1)</script> & "q"`:             `alert(1) &amp; &#34;q&#34;`,
		`<b>bold</b> <img src=x onerror=y>`:           `<b>bold</b> `,
		`a < b > c`:                                   `a &lt; b &gt; c`,
		`New wiki page &#34;x&#34;`:                   `New wiki page &#34;x&#34;`,
		`<A HREF='/rel'>r</A>`:                        `<a href="/rel" rel="nofollow">r</a>`,
	} {
		assert.Equal(t, want, sanitizeHTML(in), in)
	}
}

// TestDiscordLimits: titles are cut at 256 runes and descriptions at
// 2000, as Forgejo's discord createPayload.
func TestDiscordLimits(t *testing.T) {
	t.Parallel()
	m := discordConverter{}.message(&PayloadUser{UserName: "u", HTMLURL: "https://f/u"},
		strings.Repeat("é", 300), strings.Repeat("x", 5000), "", 0)
	assert.Equal(t, 256, len([]rune(m.Embeds[0].Title)))
	assert.True(t, strings.HasSuffix(m.Embeds[0].Title, "..."))
	assert.Equal(t, 2000, len([]rune(m.Embeds[0].Description)))
	assert.Equal(t, "https://f/u", m.Embeds[0].Author.URL)
}

// TestRefURL: Forgejo's git.RefURL, including short names taken as
// branches.
func TestRefURL(t *testing.T) {
	t.Parallel()
	const r = "https://f/o/r"
	for ref, want := range map[string]string{
		"refs/heads/feat/x": r + "/src/branch/feat/x",
		"refs/tags/v 1":     r + "/src/tag/v%201",
		"dev":               r + "/src/branch/dev",
		"2020558fe2e34debb818a514715839cabd25e778": r + "/src/commit/2020558fe2e34debb818a514715839cabd25e778",
	} {
		assert.Equal(t, want, refURL(r, ref), ref)
	}
}
