package httpapi

// markupRoutes are Forgejo's rendering operations (the "Misc (public
// accessible)" group, each with reqToken): what each requires is declared
// by forge/markup (markup.Requirements). Nil without a markup service
// (501).
func (a *API) markupRoutes() []route {
	if a.cfg.Markup == nil {
		return nil
	}
	return []route{
		{Method: "POST", Path: "/markup", Op: "renderMarkup", h: a.renderMarkup},
		{Method: "POST", Path: "/markdown", Op: "renderMarkdown", h: a.renderMarkdown},
		{Method: "POST", Path: "/markdown/raw", Op: "renderMarkdownRaw", h: a.renderMarkdownRaw},
	}
}
