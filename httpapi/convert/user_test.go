package convert

import (
	"testing"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// User decides nothing: it shows what the (redacted) user holds, the
// placeholder only for a redacted user without an e-mail, and the avatar of
// the real address that a redacted copy keeps.
func TestUserShowsWhatItIsGiven(t *testing.T) {
	t.Parallel()
	const root, placeholder = "https://example.org/", "al@noreply.example.org"
	full := &forge.User{ID: 7, Name: "al", Email: "al@example.com", HideEmail: true, LoginName: "ldap-al",
		LoginSource: 3, IsAdmin: true, IsActive: true, Language: "fr-FR",
		LastLogin: time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)}
	redacted := full.VisibleTo(forge.Anonymous)

	got := User(root, placeholder, full)
	if got.Email != "al@example.com" || got.LoginName != "ldap-al" || !got.IsAdmin || got.SourceID != 3 ||
		!got.LastLogin.Equal(full.LastLogin) {
		t.Errorf("a full user is not shown whole: %+v", got)
	}
	got = User(root, placeholder, redacted)
	if got.Email != placeholder || got.LoginName != "" || got.IsAdmin || got.IsActive || got.Language != "" ||
		!got.LastLogin.Equal(time.Unix(0, 0)) {
		t.Errorf("a redacted user shows more than it holds: %+v", got)
	}
	if want := root + "avatars/" + full.AvatarHash(); got.AvatarURL != want {
		t.Errorf("avatar %q, want the real address's %q", got.AvatarURL, want)
	}
	noMail := &forge.User{ID: 8, Name: "bo"}
	if got := User(root, "bo@noreply.example.org", noMail); got.Email != "" {
		t.Errorf("a user shown whole without an e-mail got %q, want none", got.Email)
	}
}

// TestUserForShowsWhatForgejoShows: the e-mail only to signed-in callers
// (a hidden one only to the user and administrators), sign-in details only
// to the user and administrators; a pure function of its arguments.
func TestUserForShowsWhatForgejoShows(t *testing.T) {
	t.Parallel()
	u := &forge.User{ID: 7, Name: "Alice", Email: "alice@example.com", LoginName: "ldap-alice", LoginSource: 3,
		IsAdmin: true, IsActive: true, Language: "fr-FR", Created: time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)}
	hidden := *u
	hidden.HideEmail = true
	self := forge.Actor{User: u}
	other := forge.Actor{User: &forge.User{ID: 8, Name: "bob"}}
	admin := forge.Actor{User: &forge.User{ID: 1, Name: "root", IsAdmin: true}}
	const placeholder = "alice@noreply.example.org"
	for _, tt := range []struct {
		name      string
		actor     forge.Actor
		user      *forge.User
		email     string
		loginName string
	}{
		{"anonymous", forge.Anonymous, u, placeholder, ""},
		{"other", other, u, "alice@example.com", ""},
		{"other, hidden", other, &hidden, placeholder, ""},
		{"self, hidden", self, &hidden, "alice@example.com", "ldap-alice"},
		{"admin, hidden", admin, &hidden, "alice@example.com", "ldap-alice"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := UserFor("https://example.org/", placeholder, tt.actor, tt.user)
			if got.Email != tt.email || got.LoginName != tt.loginName {
				t.Errorf("email %q login_name %q, want %q %q", got.Email, got.LoginName, tt.email, tt.loginName)
			}
			authed := tt.loginName != ""
			if got.IsAdmin != authed || got.IsActive != authed || (got.SourceID == 3) != authed || (got.Language != "") != authed {
				t.Errorf("sign-in details shown %v, want %v: %+v", !authed, authed, got)
			}
			if got.UserName != "Alice" || got.HTMLURL != "https://example.org/Alice" || !got.Created.Equal(u.Created) {
				t.Errorf("got %+v", got)
			}
			if !authed && !got.LastLogin.Equal(time.Unix(0, 0)) {
				t.Errorf("last_login %v shown", got.LastLogin)
			}
		})
	}
}
