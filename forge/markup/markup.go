// Package markup renders Markdown to HTML as Forgejo's /markdown and
// /markup operations do (modules/markup, routers/common/markup.go):
// goldmark with GitHub's extensions (tables, strikethrough, task lists,
// definition lists, footnotes, autolinks), heading ids prefixed with
// `user-content-`, then, outside "markdown" (raw) mode, Forgejo's
// post-processing of the text (wiki links `[[Name|Page]]`, @mentions of
// existing users, issue references, full commit ids, emoji shortcodes),
// and always a sanitiser (bluemonday) that drops scripts, event handlers
// and unknown attributes and adds rel="nofollow" to links.
package markup

import (
	"bytes"
	"context"
	"path"
	"strings"

	"github.com/hearthforge/hearth/forge"
)

// Modes of Options.Mode, as Forgejo's MarkupOption names them.
const (
	// ModeMarkdown renders raw Markdown: no references, mentions or wiki
	// links (Forgejo's RenderRaw).
	ModeMarkdown = "markdown"
	// ModeGFM renders a document: wiki links, mentions, cross-repository
	// issue references, commit ids, emoji.
	ModeGFM = "gfm"
	// ModeComment renders an issue comment: ModeGFM, and bare `#N`
	// references to the context repository's issues.
	ModeComment = "comment"
	// ModeFile renders a file by its FilePath's extension (Markdown only).
	ModeFile = "file"
)

// DefaultMaxInput is Config.MaxInput's default: the largest text rendered
// (bytes); Forgejo's renderer stops writing at three times its
// MAX_DISPLAY_FILE_SIZE (8 MiB).
const DefaultMaxInput = 8 << 20

// Options is what to render (Forgejo's MarkupOption and MarkdownOption).
type Options struct {
	Mode string
	Text string
	// Context is the URL prefix links are made from: a repository's path
	// ("owner/repo", joined to Config.AppURL) or an absolute http(s) URL.
	Context string
	// FilePath names the file in ModeFile; its extension picks the renderer.
	FilePath string
	// Wiki renders a wiki page: wiki links are the page's siblings.
	Wiki bool
	// AppURL overrides Config.AppURL for this rendering (a server that
	// learns its URL from each request).
	AppURL string
}

// Mentions tells whether name is a user or organisation actor may
// mention (its @name is then linked to its profile).
type Mentions interface {
	Mentionable(ctx context.Context, actor forge.Actor, name string) bool
}

// Config configures a Renderer.
type Config struct {
	// AppURL is the server's root URL ("http://host:3000/").
	AppURL string
	// Mentions resolves @names; nil links none.
	Mentions Mentions
	// MaxInput is the largest Text rendered, in bytes (0:
	// DefaultMaxInput); a longer one is forge.ErrInvalid.
	MaxInput int
}

// Renderer renders markup for signed-in actors (it keeps no state: a pure function of its Config and the text, with the actor checked as every domain call).
type Renderer struct {
	cfg Config
}

// New returns a Renderer.
func New(cfg Config) *Renderer {
	if cfg.MaxInput <= 0 {
		cfg.MaxInput = DefaultMaxInput
	}
	if !strings.HasSuffix(cfg.AppURL, "/") {
		cfg.AppURL += "/"
	}
	return &Renderer{cfg: cfg}
}

// markdownExtensions are the file extensions ModeFile renders as Markdown
// (Forgejo's [markdown] FILE_EXTENSIONS default).
var markdownExtensions = map[string]bool{".md": true, ".markdown": true, ".mdown": true, ".mkd": true, ".livemd": true}

// Render renders opt as Forgejo's POST /markup (and /markdown, whose
// handler maps modes other than gfm and comment to ModeMarkdown first).
// The actor must be signed in and may act (Requirements: Forgejo's
// reqToken). An empty text renders as empty. Errors: an unknown mode is
// forge.ErrInvalid `Unknown mode: <mode>`; in ModeFile an extension with
// no renderer is forge.ErrInvalid `Unsupported render extension: <ext>`;
// a text over Config.MaxInput is forge.ErrInvalid.
func (s *Renderer) Render(ctx context.Context, actor forge.Actor, opt Options) (string, error) {
	if err := requirements["renderMarkup"].Check(actor); err != nil {
		return "", err
	}
	if opt.Text == "" {
		return "", nil
	}
	if len(opt.Text) > s.cfg.MaxInput {
		return "", forge.Errorf(forge.ErrInvalid, "the text is larger than %d bytes", s.cfg.MaxInput)
	}
	switch opt.Mode {
	case ModeMarkdown:
		return s.render(ctx, actor, opt.Text, nil)
	case ModeComment, ModeGFM:
	case ModeFile:
		if ext := strings.ToLower(path.Ext(opt.FilePath)); !markdownExtensions[ext] {
			return "", forge.Errorf(forge.ErrInvalid, "Unsupported render extension: %s", ext)
		}
	default:
		return "", forge.Errorf(forge.ErrInvalid, "Unknown mode: %s", opt.Mode)
	}
	app := s.cfg.AppURL
	if opt.AppURL != "" {
		app = strings.TrimSuffix(opt.AppURL, "/") + "/"
	}
	return s.render(ctx, actor, opt.Text, &links{base: base(app, opt.Context), app: app,
		wiki: opt.Wiki, comment: opt.Mode == ModeComment})
}

// RenderRaw renders text as raw Markdown (Forgejo's POST /markdown/raw):
// Render in ModeMarkdown.
func (s *Renderer) RenderRaw(ctx context.Context, actor forge.Actor, text string) (string, error) {
	return s.Render(ctx, actor, Options{Mode: ModeMarkdown, Text: text})
}

// base is Forgejo's URL prefix: an absolute http(s) URL as given, any
// other context joined to app.
func base(app, context string) string {
	if strings.HasPrefix(context, "http://") || strings.HasPrefix(context, "https://") {
		return strings.TrimSuffix(context, "/")
	}
	return strings.TrimSuffix(app+strings.Trim(context, "/"), "/")
}

// render converts text, post-processes it with l (nil: raw), and
// sanitises the result.
func (s *Renderer) render(ctx context.Context, actor forge.Actor, text string, l *links) (string, error) {
	var html bytes.Buffer
	if err := converter.Convert([]byte(normalizeEOL(text)), &html); err != nil {
		return "", forge.Errorf(forge.ErrInvalid, "the text cannot be rendered")
	}
	out := html.Bytes()
	if l != nil {
		if s.cfg.Mentions != nil {
			l.mentionable = func(name string) bool { return s.cfg.Mentions.Mentionable(ctx, actor, name) }
		}
		out = l.process(out)
	}
	return sanitizer.Sanitize(string(out)), nil
}

// normalizeEOL turns CRLF and lone CR line ends into LF, as Forgejo does
// before rendering.
func normalizeEOL(s string) string {
	if !strings.Contains(s, "\r") {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
}
