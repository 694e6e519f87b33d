package httpapi

import (
	"errors"
	"net/http"
	"strings"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/httpapi/wire"
	"github.com/hearthforge/hearth/mirror"
)

// migrateRepo is POST /repos/migrate (Forgejo's repo.Migrate, git data
// only): mirror.Service.Migrate checks the owner, its quota and the
// actor's right to create there (422 unknown owner, 413, 403), then the
// source (address, credentials, address policy after DNS resolution,
// interval, switches: 422, or 403 for a disabled pull-mirror creation),
// creates the repository with the clone as its git directory and, for a
// mirror, records the pull mirror; a failed migration leaves nothing.
// 201 with the repository.
func (a *API) migrateRepo(c *call) {
	var opt wire.MigrateRepoOptions
	if !c.decode(&opt) {
		return
	}
	switch {
	case strings.TrimSpace(opt.CloneAddr) == "":
		c.errorStatus(http.StatusUnprocessableEntity, "[CloneAddr]: Required")
		return
	case opt.RepoName == "":
		c.errorStatus(http.StatusUnprocessableEntity, "[RepoName]: Required")
		return
	}
	ctx := c.r.Context()
	r, err := a.cfg.Mirror.Migrate(ctx, c.actor, mirror.MigrateOptions{
		CloneAddr: opt.CloneAddr, AuthUsername: deref(opt.AuthUsername), AuthPassword: deref(opt.AuthPassword),
		AuthToken: deref(opt.AuthToken), Mirror: deref(opt.Mirror), MirrorInterval: deref(opt.MirrorInterval),
		LFS: deref(opt.LFS), LFSEndpoint: deref(opt.LFSEndpoint),
		RepoOwner: deref(opt.RepoOwner), RepoName: opt.RepoName, Description: deref(opt.Description), Private: deref(opt.Private),
	})
	if err != nil {
		c.migrateError(err)
		return
	}
	v, err := a.cfg.Repos.Get(ctx, c.actor, r.OwnerName, r.Name)
	if err != nil {
		c.repoError(err)
		return
	}
	c.writeRepo(http.StatusCreated, v)
}

// migrateError is Forgejo's handleMigrateError / handleRemoteAddrError:
// address and policy refusals 422 with their messages, failed transfers
// 422 `Migration failed: …` (`Authentication failed: …` when the remote
// refused the credentials: mirror.ErrTransferAuth), the name taken 409.
func (c *call) migrateError(err error) {
	switch {
	case errors.Is(err, mirror.ErrAddrURL), errors.Is(err, mirror.ErrAddrCredentials),
		errors.Is(err, mirror.ErrAddrProtocol), errors.Is(err, mirror.ErrAddrBlocked),
		errors.Is(err, mirror.ErrAddrLocalPath):
		c.errorStatus(http.StatusUnprocessableEntity, err.Error())
	case errors.Is(err, forge.ErrConflict):
		c.errorStatus(http.StatusConflict, err.Error())
	case errors.Is(err, mirror.ErrTransferAuth):
		c.errorStatus(http.StatusUnprocessableEntity, "Authentication failed: "+mirror.SanitizeMessage(err.Error()))
	case errors.Is(err, mirror.ErrTransfer):
		c.errorStatus(http.StatusUnprocessableEntity, "Migration failed: "+mirror.SanitizeMessage(err.Error()))
	default:
		c.repoError(err)
	}
}
