package httpapi

import "net/http"

// getLanguages is GET /repos/{owner}/{repo}/languages: bytes per language.
func (a *API) getLanguages(c *call) {
	langs, err := a.cfg.Repos.Languages(c.r.Context(), c.actor, c.owner(), c.repo())
	c.jsonOr(http.StatusOK, langs, err, with(c.repoError))
}
