package httpapi

import (
	"net/http"
	"net/url"

	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/httpapi/wire"
)

// licenseImplementation is the text Forgejo adds to every licence (for
// GitHub's API's sake).
const licenseImplementation = "Create a text file (typically named LICENSE or LICENSE.txt) in the root of your source code and copy the text of the license into the file"

// listGitignoreTemplates is GET /gitignore/templates (Forgejo's
// misc.ListGitignoresTemplates): the template names, sorted. Public.
func (a *API) listGitignoreTemplates(c *call) {
	c.json(http.StatusOK, repos.Gitignores())
}

// getGitignoreTemplate is GET /gitignore/templates/{name}: the template's
// name and text; Forgejo's ctx.NotFound() for an unknown name.
func (a *API) getGitignoreTemplate(c *call) {
	name := c.pathValue("name")
	text, ok := repos.GitignoreTemplate(name)
	if !ok {
		c.notFound()
		return
	}
	c.json(http.StatusOK, wire.GitignoreTemplateInfo{Name: name, Source: string(text)})
}

// licenseURL is Forgejo's `<AppURL>api/v1/licenses/<name>`.
func (c *call) licenseURL(name string) string {
	return c.rootURL() + "api/v1/licenses/" + url.PathEscape(name)
}

// listLicenseTemplates is GET /licenses (Forgejo's
// misc.ListLicenseTemplates): key, name and URL of every licence, the
// preferred ones first (repos.LicenseList). Public.
func (a *API) listLicenseTemplates(c *call) {
	names := repos.LicenseList()
	out := make([]wire.LicensesTemplateListEntry, len(names))
	for i, n := range names {
		out[i] = wire.LicensesTemplateListEntry{Key: n, Name: n, URL: c.licenseURL(n)}
	}
	c.json(http.StatusOK, out)
}

// getLicenseTemplate is GET /licenses/{name}: the licence text with its
// placeholders unfilled; Forgejo's ctx.NotFound() for an unknown name.
func (a *API) getLicenseTemplate(c *call) {
	name := c.pathValue("name")
	text, ok := repos.LicenseTemplate(name)
	if !ok {
		c.notFound()
		return
	}
	c.json(http.StatusOK, wire.LicenseTemplateInfo{Key: name, Name: name, URL: c.licenseURL(name),
		Body: string(text), Implementation: licenseImplementation})
}
