package site

import (
	"context"
	"errors"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
)

// PrimaryEmails answers forge/gpgkeys' Emails from the users table: a
// user's activated addresses are their primary address while the account
// is active (Forgejo's primary email_address row is activated with the
// account). It stands in until the table of a user's addresses answers
// it with every activated address.
type PrimaryEmails struct{ Store auth.Store }

// ActivatedEmails returns the user's primary address when the account is
// active and has one; none for an unknown user.
func (p PrimaryEmails) ActivatedEmails(ctx context.Context, userID forge.ID) ([]string, error) {
	var out []string
	err := p.Store.View(ctx, func(tx auth.Tx) error {
		u, err := tx.UserByID(ctx, userID)
		if errors.Is(err, forge.ErrNotFound) {
			return nil
		} else if err != nil {
			return err
		}
		if u.IsActive && u.Email != "" {
			out = append(out, u.Email)
		}
		return nil
	})
	return out, err
}
