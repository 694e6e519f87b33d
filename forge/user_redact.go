package forge

import (
	"crypto/md5"
	"encoding/hex"
	"strings"
)

// VisibleTo returns u as actor may see it, Forgejo's rule for what a user's
// API form shows (services/convert ToUser): the user themself and site
// administrators see everything; anyone else gets a copy with Redacted set
// and these fields zeroed: Email (for anonymous actors always, for
// signed-in ones when HideEmail is set), Pronouns (for anonymous actors
// when HidePronouns is set), LoginName, LoginSource,
// LastLogin, Language, IsAdmin, IsActive, ProhibitLogin,
// MustChangePassword and the Allow* and MaxRepoCreation settings. A zero in
// a redacted copy means "not shown", never "false". Services apply it to
// every user they return, so a Go caller learns no more than an HTTP client.
// A nil u gives nil.
func (u *User) VisibleTo(actor Actor) *User {
	if u == nil {
		return nil
	}
	c := *u
	if actor.UserID() == u.ID || actor.IsSiteAdmin() {
		return &c
	}
	c.RedactedAvatarHash = u.AvatarHash()
	if !actor.IsSignedIn() || u.HideEmail {
		c.Email = ""
	}
	if !actor.IsSignedIn() && u.HidePronouns {
		c.Pronouns = "" // Forgejo's ToUser: private pronouns for signed-in users only
	}
	c.LoginName, c.LoginSource, c.Language = "", 0, ""
	c.LastLogin = zeroTime
	c.IsAdmin, c.IsActive, c.ProhibitLogin, c.MustChangePassword = false, false, false, false
	c.AllowGitHook, c.AllowImportLocal, c.AllowCreateOrganization, c.MaxRepoCreation = false, false, false, 0
	c.Redacted = true
	return &c
}

// AvatarHash is the MD5 of the user's trimmed, lower-cased e-mail, which
// avatar URLs are made of (Forgejo's /avatars/<hash>); a redacted copy
// keeps the hash of the real address. A full copy computes it from its
// Email, so a caller who changes the e-mail gets the new hash.
func (u *User) AvatarHash() string {
	if u.RedactedAvatarHash != "" {
		return u.RedactedAvatarHash
	}
	sum := md5.Sum([]byte(strings.ToLower(strings.TrimSpace(u.Email))))
	return hex.EncodeToString(sum[:])
}
