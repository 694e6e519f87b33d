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
// Forgejo's GeneralRepoSettings, read from the Config: git over HTTP with
// a GitServer, LFS with an LFS service, migrations with a mirror service,
// mirrors with a mirror service that is enabled
// ([mirror] ENABLED), time tracking with the issue service (which serves
// times and stopwatches), forks and stars with the repository service.
func (a *API) getRepoSettings(c *call) {
	c.json(http.StatusOK, wire.GeneralRepoSettings{
		HTTPGitDisabled:      a.cfg.Git == nil,
		LFSDisabled:          a.cfg.LFS == nil,
		MigrationsDisabled:   a.cfg.Mirror == nil || a.cfg.Repos == nil,
		MirrorsDisabled:      a.cfg.Mirror == nil || !a.cfg.Mirror.Enabled() || a.cfg.Repos == nil,
		TimeTrackingDisabled: a.cfg.Issues == nil,
		ForksDisabled:        a.cfg.Repos == nil,
		StarsDisabled:        a.cfg.Repos == nil,
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

// getAttachmentSettings is GET /settings/attachment: what this server
// applies to issue and comment attachments: enabled while the issue
// service stores them (Config.AttachmentsDisabled), the upload limit
// (Config.MaxUploadBytes, in MiB as Forgejo's [attachment] MAX_SIZE, rounded
// up), every type allowed (`*/*`: Hearth checks none) and Forgejo's
// MAX_FILES default (5; the API uploads one file per request).
func (a *API) getAttachmentSettings(c *call) {
	const mib = 1 << 20
	c.json(http.StatusOK, wire.GeneralAttachmentSettings{
		Enabled:      a.cfg.Issues != nil && !a.cfg.AttachmentsDisabled,
		AllowedTypes: "*/*",
		MaxFiles:     5,
		MaxSize:      (a.maxUploadBytes() + mib - 1) / mib,
	})
}
