package httpapi

import "net/http"

// serverVersion is Forgejo's ServerVersion.
type serverVersion struct {
	Version string `json:"version"`
}

// getVersion answers `15.0.3+hearth-<version>`: the Forgejo API level first,
// so clients that gate features on semver (the Gitea SDK) enable them all,
// and Hearth's own version as build metadata.
func (a *API) getVersion(c *call) {
	c.json(http.StatusOK, serverVersion{Version: ForgejoVersion + "+hearth-" + Version})
}

// generalAPISettings is Forgejo's GeneralAPISettings.
type generalAPISettings struct {
	DefaultPagingNum       int   `json:"default_paging_num"`
	MaxResponseItems       int   `json:"max_response_items"`
	DefaultGitTreesPerPage int   `json:"default_git_trees_per_page"`
	DefaultMaxBlobSize     int64 `json:"default_max_blob_size"`
}

func (a *API) getAPISettings(c *call) {
	c.json(http.StatusOK, generalAPISettings{
		DefaultPagingNum:       30,
		MaxResponseItems:       50,
		DefaultGitTreesPerPage: 1000,
		DefaultMaxBlobSize:     10 * 1024 * 1024,
	})
}
