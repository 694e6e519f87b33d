package convert

import (
	"net/url"
	"strings"
	"time"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/httpapi/wire"
)

// Time renders a stored time as Forgejo does: a zero time is the Unix
// epoch, everything in UTC.
func Time(t time.Time) time.Time {
	if t.IsZero() {
		return time.Unix(0, 0).UTC()
	}
	return t.UTC()
}

// UserFunc converts a user for one reader (UserFor with the reader's
// actor and placeholder bound).
type UserFunc func(*forge.User) wire.User

// NoReplyEmail is Forgejo's `<name>@noreply.<host>` shown instead of a
// hidden address; host is the root URL's host name, or fallback when the
// root URL has none.
func NoReplyEmail(root, fallback string, u *forge.User) string {
	host := fallback
	if ru, err := url.Parse(root); err == nil && ru.Hostname() != "" {
		host = ru.Hostname()
	}
	return strings.ToLower(u.Name) + "@noreply." + host
}

// UserFor converts u as Forgejo's convert.ToUser shows it to actor: the
// user as actor may see it (forge.User.VisibleTo), formatted, the
// placeholder for a hidden e-mail.
func UserFor(root, placeholder string, actor forge.Actor, u *forge.User) wire.User {
	return User(root, placeholder, u.VisibleTo(actor))
}

// User renders u, already redacted for its reader, in Forgejo's User
// shape: it decides nothing. A redacted user without an e-mail shows the
// placeholder; the sign-in details are shown as u has them (a redacted copy
// has them zeroed, and a zero last login is the Unix epoch).
func User(root, placeholder string, u *forge.User) wire.User {
	out := wire.User{
		ID:            u.ID,
		UserName:      u.Name,
		FullName:      u.FullName,
		Email:         u.Email,
		AvatarURL:     root + "avatars/" + u.AvatarHash(),
		HTMLURL:       root + url.PathEscape(u.Name),
		Created:       Time(u.Created),
		LastLogin:     Time(u.LastLogin),
		Restricted:    u.Restricted,
		Location:      u.Location,
		Pronouns:      u.Pronouns,
		Website:       u.Website,
		Description:   u.Description,
		Visibility:    string(u.Visibility),
		IsAdmin:       u.IsAdmin,
		LoginName:     u.LoginName,
		SourceID:      u.LoginSource,
		Language:      u.Language,
		IsActive:      u.IsActive,
		ProhibitLogin: u.ProhibitLogin,
		Followers:     u.NumFollowers,
		Following:     u.NumFollowing,
	}
	if u.Avatar != "" {
		// An uploaded avatar (users' and organisations' are served at
		// /avatars/{key}).
		out.AvatarURL = root + "avatars/" + url.PathEscape(u.Avatar)
	}
	if u.Redacted && u.Email == "" {
		out.Email = placeholder
	}
	return out
}

// OrGhost is u, or, when u is nil, the user Forgejo shows for a deleted
// poster (user_model.NewGhostUser).
func OrGhost(u *forge.User) *forge.User {
	if u == nil {
		return &forge.User{ID: -1, Name: "Ghost", FullName: "Ghost"}
	}
	return u
}
