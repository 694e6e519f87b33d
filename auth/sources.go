package auth

import (
	"context"
	"errors"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// LoginSourceType is the kind of an external authentication source, with
// Forgejo's names.
type LoginSourceType string

// Login source types.
const (
	SourceLDAP   LoginSourceType = "ldap"
	SourceSMTP   LoginSourceType = "smtp"
	SourcePAM    LoginSourceType = "pam"
	SourceOAuth2 LoginSourceType = "oauth2"
	SourceRemote LoginSourceType = "remote"
)

// LoginSource is an external authentication source (Forgejo's auth source).
// Local accounts have none: their LoginSource is 0.
type LoginSource struct {
	ID       forge.ID
	Type     LoginSourceType
	Name     string
	IsActive bool
	Created  time.Time
	Updated  time.Time
}

// ExternalVerifier checks a password against an external login source. The
// host provides it (an LDAP bind, a PAM call…); Hearth holds no such
// client. It returns nil when the password is right, forge.ErrUnauthenticated
// when it is wrong, any other error when the source cannot answer.
type ExternalVerifier interface {
	VerifyExternal(ctx context.Context, src *LoginSource, loginName, password string) error
}

// CreateLoginSource registers an external authentication source. Forgejo's
// API has no endpoint for this: hosts call it. Site administrators only
// (forge.ErrForbidden, after the account state and write:admin scope);
// forge.ErrInvalid for an empty name or type;
// forge.ErrConflict for a taken name.
func (s *Service) CreateLoginSource(ctx context.Context, actor forge.Actor, src LoginSource) (*LoginSource, error) {
	if err := requireAdmin(actor, forge.AccessWrite); err != nil {
		return nil, err
	}
	if src.Name == "" || src.Type == "" {
		return nil, forge.Errorf(forge.ErrInvalid, "a login source needs a name and a type")
	}
	now := s.clock.Now()
	src.Created, src.Updated = now, now
	err := s.store.Update(ctx, func(tx Tx) error { return tx.CreateLoginSource(ctx, &src) })
	if errors.Is(err, forge.ErrConflict) {
		return nil, forge.Errorf(forge.ErrConflict, "login source already exists [name: %s]", src.Name)
	} else if err != nil {
		return nil, err
	}
	return &src, nil
}

// LoginSources lists the login sources. Site administrators only, with
// read:admin.
func (s *Service) LoginSources(ctx context.Context, actor forge.Actor) ([]*LoginSource, error) {
	if err := requireAdmin(actor, forge.AccessRead); err != nil {
		return nil, err
	}
	var list []*LoginSource
	err := s.store.View(ctx, func(tx Tx) error {
		var err error
		list, err = tx.ListLoginSources(ctx)
		return err
	})
	return list, err
}

// checkSource returns Forgejo's 422 for an unknown source id (0 is local).
func checkSource(ctx context.Context, tx Tx, id forge.ID) error {
	if id == 0 {
		return nil
	}
	_, err := tx.LoginSourceByID(ctx, id)
	if errors.Is(err, forge.ErrNotFound) {
		return forge.Errorf(forge.ErrInvalid, "login source does not exist [id: %d]", id)
	}
	return err
}
