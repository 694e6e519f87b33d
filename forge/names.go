package forge

import (
	"regexp"
	"strings"
)

// The account name rules, as Forgejo's IsUsableUsername.
var (
	validUserName   = regexp.MustCompile(`^[\da-zA-Z][-.\w]*$`)
	invalidUserName = regexp.MustCompile(`[-._]{2,}|[-._]$`)
)

// MaxUserNameLength bounds the name of a user or organisation.
const MaxUserNameLength = 40

// reservedUserNames are names no account may take (Forgejo's list: they
// collide with the web routes of a forge). Read only.
var reservedUserNames = map[string]bool{
	".": true, "..": true, ".well-known": true, "admin": true, "api": true, "assets": true,
	"attachments": true, "avatar": true, "avatars": true, "captcha": true, "commits": true,
	"debug": true, "devtest": true, "error": true, "explore": true, "favicon.ico": true,
	"ghost": true, "issues": true, "login": true, "manifest.json": true, "metrics": true,
	"milestone": true, "new": true, "notifications": true, "org": true, "pulls": true,
	"raw": true, "repo": true, "repo-avatars": true, "robots.txt": true, "search": true,
	"serviceworker.js": true, "ssh_info": true, "swagger.v1.json": true, "user": true,
	"v2": true, "gitea-actions": true, "forgejo-actions": true,
}

// CheckUserName checks Forgejo's rules for the name of an account, user or
// organisation: at most MaxUserNameLength characters, letters, digits, '-',
// '_' and '.', starting with a letter or digit, no two punctuation marks in
// a row, none at the end, not a reserved word nor matching `*.keys` /
// `*.gpg`. Returns ErrInvalid with Forgejo's messages (`name is reserved
// [name: x]`, `name pattern is not allowed [pattern: *.keys]`, `name is
// invalid [x]: must be valid alpha or numeric or dash(-_) or dot
// characters`).
func CheckUserName(name string) error {
	lower := strings.ToLower(name)
	switch {
	case name == "":
		return Errorf(ErrInvalid, "name is empty")
	case len(name) > MaxUserNameLength:
		return Errorf(ErrInvalid, "name is too long [name: %s]", name)
	case reservedUserNames[lower]:
		return Errorf(ErrInvalid, "name is reserved [name: %s]", lower)
	case strings.HasSuffix(lower, ".keys"):
		return Errorf(ErrInvalid, "name pattern is not allowed [pattern: *.keys]")
	case strings.HasSuffix(lower, ".gpg"):
		return Errorf(ErrInvalid, "name pattern is not allowed [pattern: *.gpg]")
	case !validUserName.MatchString(name) || invalidUserName.MatchString(name):
		return Errorf(ErrInvalid, "name is invalid [%s]: must be valid alpha or numeric or dash(-_) or dot characters", name)
	}
	return nil
}
