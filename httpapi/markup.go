package httpapi

import (
	"io"
	"net/http"

	"github.com/hearthforge/hearth/forge/markup"
	"github.com/hearthforge/hearth/httpapi/wire"
)

// renderMarkup is POST /markup: MarkupOption rendered in its mode (gfm,
// comment, markdown, file), answered as text/html. An unknown mode or a
// file extension with no renderer is 422 with Forgejo's message, in the
// document's APIValidationError shape (Forgejo writes the message as
// plain text there, unlike its document: see the README).
func (a *API) renderMarkup(c *call) {
	var o wire.MarkupOption
	if !c.decode(&o) {
		return
	}
	a.writeRendered(c, markup.Options{Mode: valueOf(o.Mode), Text: valueOf(o.Text), Context: valueOf(o.Context),
		FilePath: valueOf(o.FilePath), Wiki: valueOf(o.Wiki)})
}

// renderMarkdown is POST /markdown: MarkdownOption rendered as gfm or
// comment when its mode says so, as raw Markdown otherwise (Forgejo's
// misc.Markdown).
func (a *API) renderMarkdown(c *call) {
	var o wire.MarkdownOption
	if !c.decode(&o) {
		return
	}
	mode := markup.ModeMarkdown
	if m := valueOf(o.Mode); m == markup.ModeComment || m == markup.ModeGFM {
		mode = m
	}
	a.writeRendered(c, markup.Options{Mode: mode, Text: valueOf(o.Text), Context: valueOf(o.Context), Wiki: valueOf(o.Wiki)})
}

// renderMarkdownRaw is POST /markdown/raw: the request body (text/plain,
// at most Config.MaxBodyBytes: 413 past it) rendered as raw Markdown.
func (a *API) renderMarkdownRaw(c *call) {
	body, ok := c.readBody()
	if !ok {
		return
	}
	a.writeRendered(c, markup.Options{Mode: markup.ModeMarkdown, Text: string(body)})
}

// writeRendered renders opt for the caller and answers the HTML.
func (a *API) writeRendered(c *call, opt markup.Options) {
	opt.AppURL = c.rootURL()
	out, err := a.cfg.Markup.Render(c.r.Context(), c.actor, opt)
	if err != nil {
		c.writeError(err)
		return
	}
	c.w.Header().Set("Content-Type", "text/html; charset=utf-8")
	c.w.WriteHeader(http.StatusOK)
	c.wrote = true
	_, _ = io.WriteString(c.w, out)
}
