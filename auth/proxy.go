package auth

import (
	"context"
	"errors"
	"strings"

	"github.com/hearthforge/hearth/forge"
)

// ProxyIdentity is what a trusted reverse proxy asserts about the user.
type ProxyIdentity struct {
	Name     string
	Email    string
	FullName string
}

// AuthenticateProxy signs in the user a reverse proxy names, as Forgejo's
// reverse-proxy authentication. An unknown user is created when
// autoRegister is true (active, no password, must_change_password false);
// otherwise the request stays anonymous, as in Forgejo. The caller is
// responsible for trusting the proxy. As Authenticate, it yields only an
// actor that may act: an inactive, login-prohibited or must-change-password
// account is a *forge.AccountStateError.
func (s *Service) AuthenticateProxy(ctx context.Context, id ProxyIdentity, autoRegister bool) (forge.Actor, error) {
	if id.Name == "" {
		return forge.Anonymous, nil
	}
	var u *forge.User
	err := s.store.View(ctx, func(tx Tx) error {
		var err error
		u, err = tx.UserByName(ctx, id.Name)
		return err
	})
	switch {
	case err == nil && u.IsOrganization():
		// Organisations never sign in: the name answers as an unknown
		// one that cannot be registered (it is taken).
		return forge.Anonymous, nil
	case err == nil:
	case !errors.Is(err, forge.ErrNotFound):
		return forge.Anonymous, err
	case !autoRegister:
		return forge.Anonymous, nil
	default:
		email := id.Email
		if email == "" {
			email = strings.ToLower(id.Name) + "@noreply.localhost"
		}
		now := s.clock.Now()
		u = &forge.User{Name: id.Name, Email: email, FullName: id.FullName, Visibility: forge.VisibilityPublic,
			IsActive: true, MaxRepoCreation: -1, AllowCreateOrganization: true, Created: now, Updated: now}
		if err := ValidateUsername(u.Name); err != nil {
			return forge.Anonymous, forge.Errorf(forge.ErrUnauthenticated, "reverse proxy user: %s", err)
		}
		err = s.store.Update(ctx, func(tx Tx) error {
			if err := checkFree(ctx, tx, 0, u.Name, u.Email); err != nil {
				return err
			}
			return tx.CreateUser(ctx, u, "")
		})
		if err != nil {
			return forge.Anonymous, err
		}
		s.log.InfoContext(ctx, "user registered by reverse proxy", "user", u.Name)
	}
	a := forge.Actor{User: u, Method: forge.AuthReverseProxy}
	if err := a.CheckState(); err != nil {
		return forge.Anonymous, err
	}
	return a, nil
}

// Sudo returns the actor acting as the user called name, as Forgejo's
// `sudo` parameter. Only site administrators whose credential is not
// public-only may (forge.ErrForbidden `Only administrators allowed to
// sudo.`), as in Forgejo's sudo(): no scope is required, but a public-only
// token never has administrator powers; the administrator's own account
// must be able to act (its *forge.AccountStateError). An unknown user is
// forge.ErrNotFound. The user acted as must be able to act: an inactive,
// login-prohibited or must-change-password account is refused here, for
// every route, with its *forge.AccountStateError (Forgejo lets an
// administrator act as such an account; routes that check no state, GET
// /user among them, then answered for it). The new actor keeps the
// administrator's credential and scope (scope checks still apply to what
// it does), and names it in Sudoer.
func (s *Service) Sudo(ctx context.Context, actor forge.Actor, name string) (forge.Actor, error) {
	if err := actor.CheckState(); err != nil {
		return actor, err
	}
	if !actor.IsSiteAdmin() {
		return actor, forge.Errorf(forge.ErrForbidden, "Only administrators allowed to sudo.")
	}
	var u *forge.User
	err := s.store.View(ctx, func(tx Tx) error {
		var err error
		u, err = tx.UserByName(ctx, name)
		if err == nil && u.IsOrganization() {
			// Nobody acts as an organisation.
			return userNotFound(name)
		}
		return err
	})
	if err != nil {
		return actor, err
	}
	if err := (forge.Actor{User: u}).CheckState(); err != nil {
		return actor, err
	}
	sudoer := actor.User
	actor.User, actor.Sudoer = u, sudoer
	return actor, nil
}
