package auth

import (
	"net/mail"
	"regexp"
	"strings"

	"github.com/hearthforge/hearth/forge"
)

var (
	validUsername   = regexp.MustCompile(`^[\da-zA-Z][-.\w]*$`)
	invalidUsername = regexp.MustCompile(`[-._]{2,}|[-._]$`)
)

// reservedNames are names no account may take (Forgejo's list: they collide
// with the web routes of a forge).
var reservedNames = map[string]bool{
	".": true, "..": true, ".well-known": true, "admin": true, "api": true, "assets": true,
	"attachments": true, "avatar": true, "avatars": true, "captcha": true, "commits": true,
	"debug": true, "devtest": true, "error": true, "explore": true, "favicon.ico": true,
	"ghost": true, "issues": true, "login": true, "manifest.json": true, "metrics": true,
	"milestone": true, "new": true, "notifications": true, "org": true, "pulls": true,
	"raw": true, "repo": true, "repo-avatars": true, "robots.txt": true, "search": true,
	"serviceworker.js": true, "ssh_info": true, "swagger.v1.json": true, "user": true,
	"v2": true, "gitea-actions": true, "forgejo-actions": true,
}

// ValidateUsername checks Forgejo's username rules: at most 40 characters,
// letters, digits, '-', '_' and '.', starting with a letter or digit, no two
// punctuation marks in a row, none at the end, not a reserved word nor
// matching `*.keys` / `*.gpg`. Returns forge.ErrInvalid with Forgejo's
// messages.
func ValidateUsername(name string) error {
	lower := strings.ToLower(name)
	switch {
	case name == "":
		return forge.Errorf(forge.ErrInvalid, "name is empty")
	case len(name) > 40:
		return forge.Errorf(forge.ErrInvalid, "name is too long [name: %s]", name)
	case reservedNames[lower]:
		return forge.Errorf(forge.ErrInvalid, "name is reserved [name: %s]", lower)
	case strings.HasSuffix(lower, ".keys"):
		return forge.Errorf(forge.ErrInvalid, "name pattern is not allowed [pattern: *.keys]")
	case strings.HasSuffix(lower, ".gpg"):
		return forge.Errorf(forge.ErrInvalid, "name pattern is not allowed [pattern: *.gpg]")
	case !validUsername.MatchString(name) || invalidUsername.MatchString(name):
		return forge.Errorf(forge.ErrInvalid, "name is invalid [%s]: must be valid alpha or numeric or dash(-_) or dot characters", name)
	}
	return nil
}

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
