package httpapi

import (
	"net/http"

	"github.com/hearthforge/hearth/httpapi/wire"
)

// getVersion answers `15.0.3+hearth-<version>`: the Forgejo API level first,
// so clients that gate features on semver (the Gitea SDK) enable them all,
// and Hearth's own version as build metadata.
func (a *API) getVersion(c *call) {
	c.json(http.StatusOK, wire.ServerVersion{Version: ForgejoVersion + "+hearth-" + Version})
}

// getAPISettings answers Forgejo's default GeneralAPISettings.
func (a *API) getAPISettings(c *call) {
	c.json(http.StatusOK, wire.GeneralAPISettings{
		DefaultPagingNum:       30,
		MaxResponseItems:       50,
		DefaultGitTreesPerPage: 1000,
		DefaultMaxBlobSize:     10 * 1024 * 1024,
	})
}
