package actions

import (
	"context"
	"errors"

	"github.com/hearthforge/hearth/forge"
)

// ErrSecretNotFound is Forgejo's message for deleting a secret that does
// not exist (the name is never filled in).
var ErrSecretNotFound = forge.Errorf(forge.ErrNotFound, "secret was not found [name: ]")

// PutSecret creates or replaces the secret name of t with data, sealed with
// the server key; it reports whether the secret was created. The name is
// upper-cased; data has its CRLF line endings made LF. Errors:
// ErrInvalidName, ErrEmptyData, ErrDataTooLong (forge.ErrInvalid);
// forge.ErrPrecondition without a key; the access errors of the level
// (see Target).
func (s *Service) PutSecret(ctx context.Context, actor forge.Actor, t Target, name, data string) (created bool, err error) {
	r, err := s.resolve(ctx, actor, t, forge.AccessWrite, needOwner)
	if err != nil {
		return false, err
	}
	if t.Level == LevelGlobal {
		return false, forge.Errorf(forge.ErrInvalid, "global secrets are not supported")
	}
	if err := CheckSecretName(name); err != nil {
		return false, err
	}
	data = NormalizeData(data)
	if err := CheckData(data, true); err != nil {
		return false, err
	}
	sealed, err := forge.Seal(s.cfg.Key, []byte(data))
	if err != nil {
		return false, err
	}
	sec := &Secret{Scope: r.scope, Name: CanonicalName(name), Sealed: sealed, Created: s.clock.Now()}
	err = s.store.Update(ctx, func(tx Tx) error {
		var err error
		created, err = tx.PutSecret(ctx, sec)
		return err
	})
	return created, err
}

// DeleteSecret removes the secret name of t (ignoring case; the name is
// not validated, so a legacy secret can still go). ErrSecretNotFound if
// there is none; the access errors of the level.
func (s *Service) DeleteSecret(ctx context.Context, actor forge.Actor, t Target, name string) error {
	r, err := s.resolve(ctx, actor, t, forge.AccessWrite, needOwner)
	if err != nil {
		return err
	}
	return s.store.Update(ctx, func(tx Tx) error {
		err := tx.DeleteSecret(ctx, r.scope, CanonicalName(name))
		if errors.Is(err, forge.ErrNotFound) {
			return ErrSecretNotFound
		}
		return err
	})
}

// ListSecrets returns a page of the secrets of t, by name, and their
// number. The returned secrets carry no value (Sealed is empty).
func (s *Service) ListSecrets(ctx context.Context, actor forge.Actor, t Target, o forge.ListOptions) ([]*Secret, int64, error) {
	r, err := s.resolve(ctx, actor, t, forge.AccessRead, needOwner)
	if err != nil {
		return nil, 0, err
	}
	var list []*Secret
	var total int64
	err = s.store.View(ctx, func(tx Tx) error {
		var err error
		list, total, err = tx.ListSecrets(ctx, r.scope, o.Normalize())
		return err
	})
	for _, sec := range list {
		sec.Sealed = ""
	}
	return list, total, err
}

// SecretValue opens the value of the secret name of t, for a runner-side
// consumer embedding Hearth (no API route returns it). It needs owner
// access like the other secret operations; forge.ErrNotFound if there is
// no such secret.
func (s *Service) SecretValue(ctx context.Context, actor forge.Actor, t Target, name string) (string, error) {
	r, err := s.resolve(ctx, actor, t, forge.AccessRead, needOwner)
	if err != nil {
		return "", err
	}
	var sec *Secret
	err = s.store.View(ctx, func(tx Tx) error {
		var err error
		sec, err = tx.SecretByName(ctx, r.scope, CanonicalName(name))
		return err
	})
	if err != nil {
		return "", err
	}
	plain, err := forge.Unseal(s.cfg.Key, sec.Sealed)
	return string(plain), err
}
