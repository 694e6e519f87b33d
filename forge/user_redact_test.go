package forge_test

import (
	"reflect"
	"testing"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// TestUserVisibleTo is Forgejo's convert.ToUser rule: the user and site
// administrators see everything; signed-in others see the e-mail unless it
// is hidden; anonymous callers never see it; only the user and
// administrators see sign-in details.
func TestUserVisibleTo(t *testing.T) {
	t.Parallel()
	login := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
	full := func(hide bool) *forge.User {
		return &forge.User{ID: 7, Name: "al", FullName: "Al", Email: "Al@Example.com", HideEmail: hide,
			Location: "here", Website: "https://al.example", Description: "d", Pronouns: "they",
			Language: "fr-FR", Visibility: forge.VisibilityPublic, IsAdmin: true, IsActive: true,
			ProhibitLogin: true, Restricted: true, MustChangePassword: true, LoginSource: 3,
			LoginName: "ldap-al", AllowGitHook: true, AllowImportLocal: true, AllowCreateOrganization: true,
			MaxRepoCreation: 4, Created: login.Add(-time.Hour), Updated: login, LastLogin: login}
	}
	self := forge.Actor{User: &forge.User{ID: 7, Name: "al"}}
	other := forge.Actor{User: &forge.User{ID: 8, Name: "bo", IsActive: true}}
	admin := forge.Actor{User: &forge.User{ID: 1, Name: "root", IsAdmin: true, IsActive: true}}
	publicOnlyScope, err := forge.ParseScope("public-only", "read:user")
	if err != nil {
		t.Fatal(err)
	}
	adminPublicOnly := forge.Actor{User: admin.User, Scoped: true, Scope: publicOnlyScope, Method: forge.AuthToken}
	for _, tt := range []struct {
		name     string
		actor    forge.Actor
		hide     bool
		redacted bool
		email    string
	}{
		{"anonymous", forge.Anonymous, false, true, ""},
		{"anonymous, hidden", forge.Anonymous, true, true, ""},
		{"other", other, false, true, "Al@Example.com"},
		{"other, hidden", other, true, true, ""},
		{"self, hidden", self, true, false, "Al@Example.com"},
		{"admin, hidden", admin, true, false, "Al@Example.com"},
		{"admin with a public-only token, hidden", adminPublicOnly, true, true, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			u := full(tt.hide)
			orig := *u
			got := u.VisibleTo(tt.actor)
			if !reflect.DeepEqual(*u, orig) {
				t.Fatalf("VisibleTo changed its receiver")
			}
			if got == u {
				t.Fatalf("VisibleTo returned its receiver, not a copy")
			}
			if got.Redacted != tt.redacted || got.Email != tt.email {
				t.Errorf("redacted %v email %q, want %v %q", got.Redacted, got.Email, tt.redacted, tt.email)
			}
			if got.AvatarHash() != orig.AvatarHash() {
				t.Errorf("avatar hash %q, want the real address's %q", got.AvatarHash(), orig.AvatarHash())
			}
			// What everyone sees.
			if got.ID != 7 || got.Name != "al" || got.FullName != "Al" || got.Location != "here" ||
				got.Website != "https://al.example" || got.Description != "d" || got.Pronouns != "they" ||
				got.Visibility != forge.VisibilityPublic || !got.Restricted || !got.Created.Equal(orig.Created) ||
				got.HideEmail != tt.hide {
				t.Errorf("public fields changed: %+v", got)
			}
			want := orig
			if tt.redacted {
				want = forge.User{ID: orig.ID, Name: orig.Name, FullName: orig.FullName, Email: tt.email,
					HideEmail: orig.HideEmail, Location: orig.Location, Website: orig.Website,
					Description: orig.Description, Pronouns: orig.Pronouns, Visibility: orig.Visibility,
					Restricted: orig.Restricted, Created: orig.Created, Updated: orig.Updated, Redacted: true}
			}
			if tt.redacted {
				want.RedactedAvatarHash = orig.AvatarHash()
			}
			if !reflect.DeepEqual(*got, want) {
				t.Errorf("got  %+v\nwant %+v", *got, want)
			}
			// Idempotent: redacting again for the same reader changes nothing.
			again := got.VisibleTo(tt.actor)
			if again.Email != got.Email || again.Redacted != got.Redacted || again.LoginName != got.LoginName ||
				again.AvatarHash() != got.AvatarHash() {
				t.Errorf("second VisibleTo changed the result: %+v", again)
			}
		})
	}
	if (*forge.User)(nil).VisibleTo(admin) != nil {
		t.Error("nil user gave a user")
	}
}
