package httpapi

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/httpapi/wire"
	"github.com/hearthforge/hearth/mirror"
)

// migrateRepo is POST /repos/migrate (Forgejo's repo.Migrate, git data
// only: issues, labels, releases… of other services are not imported).
// The owner, its quota and the actor's right to create there are checked
// first (repos.Service.AuthorizeMigrate: 422 unknown owner, 413, 403), then
// the source by package mirror, before anything is created (address,
// credentials, address policy after DNS resolution, interval, switches:
// 422, or 403 for a disabled pull-mirror creation); then the
// repository is created with the clone as its git directory, and for a
// mirror the pull mirror recorded. A failed migration leaves no row and no
// directory. 201 with the repository.
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
	owner := deref(opt.RepoOwner)
	// Forgejo's order: the owner, its quota (413) and the right to create
	// there (403) before the clone address (422).
	if err := a.cfg.Repos.AuthorizeMigrate(ctx, c.actor, owner, deref(opt.Private)); err != nil {
		c.migrateError(err)
		return
	}
	m, err := a.cfg.Mirror.CheckMigration(ctx, c.actor, mirror.MigrateOptions{
		CloneAddr: opt.CloneAddr, AuthUsername: deref(opt.AuthUsername), AuthPassword: deref(opt.AuthPassword),
		AuthToken: deref(opt.AuthToken), Mirror: deref(opt.Mirror), MirrorInterval: deref(opt.MirrorInterval),
		LFS: deref(opt.LFS), LFSEndpoint: deref(opt.LFSEndpoint),
	})
	if err != nil {
		c.migrateError(err)
		return
	}
	git := a.cfg.MirrorGit
	if git == nil {
		c.serverError(errors.New("migrate: no mirror git layer configured"))
		return
	}
	o := repos.CreateOptions{
		Name: opt.RepoName, Description: deref(opt.Description), Private: deref(opt.Private),
		Populate: func(ctx context.Context, id forge.ID) (forge.ObjectFormat, error) {
			if err := git.Clone(ctx, id, m.Remote, mirror.CloneOptions{Mirror: m.Mirror}); err != nil {
				return "", err
			}
			return "", nil
		},
		// Forgejo's Migrate checks size:repos:all of repo_owner (or the
		// doer), an administrator migrating for another owner included.
		OwnerQuota: true,
	}
	var v *repos.View
	if owner != "" && !(c.actor.User != nil && strings.EqualFold(owner, c.actor.User.Name)) && a.isOrg(ctx, c, owner) {
		v, err = a.cfg.Repos.CreateInOrg(ctx, c.actor, owner, o)
	} else {
		v, err = a.cfg.Repos.Create(ctx, c.actor, owner, o)
	}
	if err != nil {
		c.migrateError(err)
		return
	}
	if m.Mirror {
		if _, err := a.cfg.Mirror.RecordPullMirror(ctx, v.Repo.ID, m); err != nil {
			// Nothing half-made: the repository goes with the failure.
			if derr := a.cfg.Repos.Delete(context.WithoutCancel(ctx), c.actor, v.Owner.Name, v.Repo.Name); derr != nil {
				a.logError("migrate: removing a repository after a failed mirror record", "repo", v.Repo.ID, "err", derr)
			}
			c.migrateError(err)
			return
		}
	}
	c.writeRepo(http.StatusCreated, v)
}

// isOrg reports whether name is an organisation the actor can see.
func (a *API) isOrg(ctx context.Context, c *call, name string) bool {
	if a.cfg.Orgs == nil {
		return false
	}
	_, err := a.cfg.Orgs.Get(ctx, c.actor, name)
	return err == nil
}

// migrateError is Forgejo's handleMigrateError / handleRemoteAddrError:
// address and policy refusals 422 with their messages, git failures 422
// `Migration failed: …` (or `Authentication failed: …`), the name taken
// 409.
func (c *call) migrateError(err error) {
	switch {
	case errors.Is(err, mirror.ErrAddrURL), errors.Is(err, mirror.ErrAddrCredentials),
		errors.Is(err, mirror.ErrAddrProtocol), errors.Is(err, mirror.ErrAddrBlocked),
		errors.Is(err, mirror.ErrAddrLocalPath):
		c.errorStatus(http.StatusUnprocessableEntity, err.Error())
	case errors.Is(err, forge.ErrConflict):
		c.errorStatus(http.StatusConflict, err.Error())
	case errors.Is(err, forge.ErrInvalid) && isGitFailure(err):
		msg := mirror.SanitizeMessage(err.Error())
		if strings.Contains(msg, "uthentication failed") || strings.Contains(msg, "could not read Username") {
			c.errorStatus(http.StatusUnprocessableEntity, "Authentication failed: "+msg)
			return
		}
		c.errorStatus(http.StatusUnprocessableEntity, "Migration failed: "+msg)
	default:
		c.repoError(err)
	}
}

// isGitFailure tells the git layer's transfer errors from validation
// errors of the services.
func isGitFailure(err error) bool {
	msg := err.Error()
	for _, p := range []string{"clone:", "fetch:", "the remote", "authentication failed", "push:"} {
		if strings.HasPrefix(msg, p) {
			return true
		}
	}
	return false
}

// logError logs through the configured logger, if any.
func (a *API) logError(msg string, args ...any) {
	if a.log != nil {
		a.log.Error(msg, args...)
	}
}
