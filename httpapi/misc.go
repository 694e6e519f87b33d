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

// getRepoSettings is GET /settings/repository: what this Hearth serves, in
// Forgejo's GeneralRepoSettings. Git over HTTP is on when the handler has a
// GitServer; Hearth has no LFS, migrations, mirrors or time tracking yet,
// so those read as disabled; forks and stars are served.
func (a *API) getRepoSettings(c *call) {
	c.json(http.StatusOK, wire.GeneralRepoSettings{
		HTTPGitDisabled:      a.cfg.Git == nil,
		LFSDisabled:          true,
		MigrationsDisabled:   true,
		MirrorsDisabled:      true,
		TimeTrackingDisabled: true,
	})
}

// getUISettings is GET /settings/ui: Forgejo's defaults ([ui] DEFAULT_THEME,
// REACTIONS and CUSTOM_EMOJIS), which clients use to offer reactions.
func (a *API) getUISettings(c *call) {
	c.json(http.StatusOK, wire.GeneralUISettings{
		DefaultTheme:     "forgejo-auto",
		AllowedReactions: []string{"+1", "-1", "laugh", "hooray", "confused", "heart", "rocket", "eyes"},
		CustomEmojis:     []string{"git", "gitea", "codeberg", "gitlab", "github", "gogs", "forgejo"},
	})
}
