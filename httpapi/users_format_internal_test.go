package httpapi

import (
	"testing"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// formatUser decides nothing: it shows what the (redacted) user holds, the
// placeholder only for a redacted user without an e-mail, and the avatar of
// the real address that a redacted copy keeps.
func TestFormatUserShowsWhatItIsGiven(t *testing.T) {
	t.Parallel()
	const root, placeholder = "https://example.org/", "al@noreply.example.org"
	full := &forge.User{ID: 7, Name: "al", Email: "al@example.com", HideEmail: true, LoginName: "ldap-al",
		LoginSource: 3, IsAdmin: true, IsActive: true, Language: "fr-FR",
		LastLogin: time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)}
	redacted := full.VisibleTo(forge.Anonymous)

	got := formatUser(root, placeholder, full)
	if got.Email != "al@example.com" || got.LoginName != "ldap-al" || !got.IsAdmin || got.SourceID != 3 ||
		!got.LastLogin.Equal(full.LastLogin) {
		t.Errorf("a full user is not shown whole: %+v", got)
	}
	got = formatUser(root, placeholder, redacted)
	if got.Email != placeholder || got.LoginName != "" || got.IsAdmin || got.IsActive || got.Language != "" ||
		!got.LastLogin.Equal(time.Unix(0, 0)) {
		t.Errorf("a redacted user shows more than it holds: %+v", got)
	}
	if want := root + "avatars/" + full.AvatarHash(); got.AvatarURL != want {
		t.Errorf("avatar %q, want the real address's %q", got.AvatarURL, want)
	}
	noMail := &forge.User{ID: 8, Name: "bo"}
	if got := formatUser(root, "bo@noreply.example.org", noMail); got.Email != "" {
		t.Errorf("a user shown whole without an e-mail got %q, want none", got.Email)
	}
}
