package auth

import (
	"net/mail"

	"github.com/hearthforge/hearth/forge"
)

// ValidateUsername checks Forgejo's username rules: at most 40 characters,
// letters, digits, '-', '_' and '.', starting with a letter or digit, no two
// punctuation marks in a row, none at the end, not a reserved word nor
// matching `*.keys` / `*.gpg`. Returns forge.ErrInvalid with Forgejo's
// messages. It is forge.CheckUserName, the one rule users and
// organisations share.
func ValidateUsername(name string) error { return forge.CheckUserName(name) }

// ErrEmailInvalid is the reason of an ErrInvalid error for a malformed
// e-mail address (Forgejo answers it with 400 on edit, 422 on create).
var ErrEmailInvalid = forge.Errorf(forge.ErrInvalid, "e-mail invalid")

// ValidateEmail checks that email is one bare address (`a@b.c`) of at most
// 254 characters. Returns forge.ErrInvalid (reason ErrEmailInvalid) with
// Forgejo's message `e-mail invalid [email: <email>]`.
func ValidateEmail(email string) error {
	a, err := mail.ParseAddress(email)
	if err != nil || a.Address != email || len(email) > 254 || a.Name != "" {
		return forge.Reasonf(forge.ErrInvalid, ErrEmailInvalid, "e-mail invalid [email: %s]", email)
	}
	return nil
}
