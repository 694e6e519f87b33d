package markup_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/markup"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Forgejo's routers/api/v1/misc/markup_test.go set-up.
const (
	appURL    = "http://localhost:3000/"
	repo      = "gogits/gogs"
	appSubURL = appURL + repo + "/"
)

// mentions knows the users Forgejo's test knows (r-lyeh).
type mentions map[string]bool

func (m mentions) Mentionable(_ context.Context, _ forge.Actor, name string) bool { return m[name] }

var signedIn = forge.Actor{User: &forge.User{ID: 1, Name: "u", IsActive: true}}

func renderer() *markup.Renderer {
	return markup.New(markup.Config{AppURL: appURL, Mentions: mentions{"r-lyeh": true}})
}

// TestRenderAsForgejo: the inputs and outputs of Forgejo's TestAPI_RenderGFM
// and TestAPI_RenderSimple, in every mode they are rendered in there.
func TestRenderAsForgejo(t *testing.T) {
	common := []struct{ in, out string }{
		{"Wiki! Enjoy :)\n- [[Links, Language bindings, Engine bindings|Links]]\n- [[Tips]]\n- Bezier widget (by @r-lyeh) https://github.com/ocornut/imgui/issues/786",
			"<p>Wiki! Enjoy :)</p>\n<ul>\n<li><a href=\"" + appSubURL + "wiki/Links\" rel=\"nofollow\">Links, Language bindings, Engine bindings</a></li>\n<li><a href=\"" + appSubURL + "wiki/Tips\" rel=\"nofollow\">Tips</a></li>\n<li>Bezier widget (by <a href=\"" + appURL + "r-lyeh\" rel=\"nofollow\">@r-lyeh</a>) <a href=\"https://github.com/ocornut/imgui/issues/786\" rel=\"nofollow\">https://github.com/ocornut/imgui/issues/786</a></li>\n</ul>\n"},
		{"[[Guardfile-DSL / Configuring-Guard|Guardfile-DSL---Configuring-Guard]]",
			"<p><a href=\"" + appSubURL + "wiki/Guardfile-DSL---Configuring-Guard\" rel=\"nofollow\">Guardfile-DSL / Configuring-Guard</a></p>\n"},
		{"[[Name|Link]]", "<p><a href=\"" + appSubURL + "wiki/Link\" rel=\"nofollow\">Name</a></p>\n"},
		{"", ""},
	}
	document := []struct{ in, out string }{
		{"## What is Wine Staging?\n**Wine Staging** on website [wine-staging.com](http://wine-staging.com).\n\n## Quick Links\nHere are some links to the most important topics. You can find the full list of pages at the sidebar.\n\n[[Configuration]]\n[[images/icon-bug.png]]\n",
			"<h2 id=\"user-content-what-is-wine-staging\">What is Wine Staging?</h2>\n<p><strong>Wine Staging</strong> on website <a href=\"http://wine-staging.com\" rel=\"nofollow\">wine-staging.com</a>.</p>\n<h2 id=\"user-content-quick-links\">Quick Links</h2>\n<p>Here are some links to the most important topics. You can find the full list of pages at the sidebar.</p>\n<p><a href=\"" + appSubURL + "wiki/Configuration\" rel=\"nofollow\">Configuration</a>\n<a href=\"" + appSubURL + "wiki/raw/images/icon-bug.png\" rel=\"nofollow\"><img src=\"" + appSubURL + "wiki/raw/images/icon-bug.png\" title=\"icon-bug.png\" alt=\"images/icon-bug.png\"/></a></p>\n"},
	}
	s, ctx := renderer(), context.Background()
	render := func(mode, file, text string) string {
		t.Helper()
		out, err := s.Render(ctx, signedIn, markup.Options{Mode: mode, Text: text, Context: repo, Wiki: true, FilePath: file})
		require.NoError(t, err)
		return out
	}
	for _, c := range common {
		for _, mode := range []string{"gfm", "comment"} {
			assert.Equal(t, c.out, render(mode, "", c.in), "%s: %q", mode, c.in)
		}
		assert.Equal(t, c.out, render("file", "path/test.md", c.in), "file: %q", c.in)
	}
	for _, c := range document {
		assert.Equal(t, c.out, render("gfm", "", c.in))
		assert.Equal(t, c.out, render("file", "path/test.md", c.in))
	}
	// TestAPI_RenderSimple and TestAPI_RenderRaw: raw Markdown keeps the
	// special syntax as text.
	simple := []struct{ in, out string }{
		{"[[Guardfile-DSL / Configuring-Guard|Guardfile-DSL---Configuring-Guard]]", "<p>[[Guardfile-DSL / Configuring-Guard|Guardfile-DSL---Configuring-Guard]]</p>\n"},
		{"[[Name|Link]]", "<p>[[Name|Link]]</p>\n"},
		{"", ""},
	}
	for _, c := range simple {
		assert.Equal(t, c.out, render("markdown", "", c.in))
		raw, err := s.RenderRaw(ctx, signedIn, c.in)
		require.NoError(t, err)
		assert.Equal(t, c.out, raw)
	}
}

// TestRenderRefusals: Forgejo's messages for an unknown mode and an
// extension with no renderer; an anonymous caller is refused (reqToken).
func TestRenderRefusals(t *testing.T) {
	s, ctx := renderer(), context.Background()
	_, err := s.Render(ctx, signedIn, markup.Options{Mode: "file", FilePath: "path/test.unknown", Text: "## Test"})
	require.ErrorIs(t, err, forge.ErrInvalid)
	assert.Equal(t, "Unsupported render extension: .unknown", err.Error())
	_, err = s.Render(ctx, signedIn, markup.Options{Mode: "unknown", Text: "## Test"})
	require.ErrorIs(t, err, forge.ErrInvalid)
	assert.Equal(t, "Unknown mode: unknown", err.Error())
	_, err = s.Render(ctx, forge.Anonymous, markup.Options{Mode: "gfm", Text: "x"})
	assert.True(t, errors.Is(err, forge.ErrUnauthenticated), "%v", err)
	inactive := forge.Actor{User: &forge.User{ID: 2, Name: "i"}}
	_, err = s.Render(ctx, inactive, markup.Options{Mode: "gfm", Text: "x"})
	assert.ErrorIs(t, err, forge.ErrForbidden)
	small := markup.New(markup.Config{AppURL: appURL, MaxInput: 10})
	_, err = small.Render(ctx, signedIn, markup.Options{Mode: "gfm", Text: strings.Repeat("a", 11)})
	assert.ErrorIs(t, err, forge.ErrInvalid)
}

// TestRenderFeatures: what the issue names (references, mentions, emoji,
// tables, task lists, sanitised HTML), each against the HTML a reader of
// Forgejo's renderer expects.
func TestRenderFeatures(t *testing.T) {
	s, ctx := renderer(), context.Background()
	sha := "65f1bf27bc3bf70f64657658635e66094edbcb4d"
	cases := []struct{ name, mode, in, want string }{
		{"issue in a comment", "comment", "see #12.", `<p>see <a href="` + appSubURL + `issues/12" class="ref-issue" rel="nofollow">#12</a>.</p>` + "\n"},
		{"bare issue in a document stays text", "gfm", "see #12", "<p>see #12</p>\n"},
		{"cross-repository issue", "gfm", "fixes org/proj#3", `<p>fixes <a href="` + appURL + `org/proj/issues/3" class="ref-issue" rel="nofollow">org/proj#3</a></p>` + "\n"},
		{"no issue inside a word", "comment", "a#1", "<p>a#1</p>\n"},
		{"commit id", "gfm", "in " + sha, `<p>in <a href="` + appSubURL + `commit/` + sha + `" class="commit" rel="nofollow"><code class="nohighlight">65f1bf27bc</code></a></p>` + "\n"},
		{"unknown user stays text", "gfm", "hi @nobody", "<p>hi @nobody</p>\n"},
		{"an e-mail is no mention", "gfm", "mail r-lyeh@example.com", `<p>mail <a href="mailto:r-lyeh@example.com" rel="nofollow">r-lyeh@example.com</a></p>` + "\n"},
		{"emoji", "gfm", "yes :+1:", `<p>yes <span class="emoji" aria-label="thumbs up">👍</span></p>` + "\n"},
		{"unknown emoji stays text", "gfm", ":nope_nope:", "<p>:nope_nope:</p>\n"},
		{"no processing in code", "comment", "`#1 @r-lyeh :+1:`", "<p><code>#1 @r-lyeh :+1:</code></p>\n"},
		{"table", "gfm", "| a | b |\n|:-|-:|\n| 1 | 2 |", "<table>\n<thead>\n<tr>\n<th align=\"left\">a</th>\n<th align=\"right\">b</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n<td align=\"left\">1</td>\n<td align=\"right\">2</td>\n</tr>\n</tbody>\n</table>\n"},
		{"task list", "gfm", "- [x] done\n- [ ] todo", "<ul>\n<li><input checked=\"\" disabled=\"\" type=\"checkbox\"> done</li>\n<li><input disabled=\"\" type=\"checkbox\"> todo</li>\n</ul>\n"},
		{"strikethrough", "gfm", "~~gone~~", "<p><del>gone</del></p>\n"},
		{"script removed", "gfm", "<script>alert(1)</script>ok", "ok"},
		{"event handler removed", "gfm", `<img src="x.png" onerror="alert(1)">`, `<img src="x.png">`},
		{"javascript link removed", "markdown", "[x](javascript:alert(1))", "<p>x</p>\n"},
		{"heading ids repeat", "gfm", "# A\n# A", "<h1 id=\"user-content-a\">A</h1>\n<h1 id=\"user-content-a-1\">A</h1>\n"},
		{"absolute context", "comment", "#5", `<p><a href="https://x.example/o/r/issues/5" class="ref-issue" rel="nofollow">#5</a></p>` + "\n"},
	}
	for _, c := range cases {
		ctxt := repo
		if c.name == "absolute context" {
			ctxt = "https://x.example/o/r/"
		}
		out, err := s.Render(ctx, signedIn, markup.Options{Mode: c.mode, Text: c.in, Context: ctxt})
		require.NoError(t, err, c.name)
		assert.Equal(t, c.want, out, c.name)
	}
}
