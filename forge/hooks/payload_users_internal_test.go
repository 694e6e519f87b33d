package hooks

import (
	"testing"

	"github.com/hearthforge/hearth/forge"
)

// TestWebhookPayloadUsersShowNoPrivateDetails: a webhook's receiver is
// whoever a repository administrator named, nobody signed in; Forgejo's
// payloads convert users with no doer (convert.ToUser(ctx, u, nil)): the
// placeholder address, never the e-mail of a user who keeps it private
// nor whether a user is a site administrator. The repository's owner is
// shown with an access (ToUserWithAccessMode): its e-mail unless hidden.
func TestWebhookPayloadUsersShowNoPrivateDetails(t *testing.T) {
	t.Parallel()
	s := &Service{cfg: Config{RootURL: "https://forge.example/"}}
	admin := &forge.User{ID: 1, Name: "Root", Email: "root@corp.example", IsAdmin: true}
	hidden := &forge.User{ID: 2, Name: "carol", Email: "carol@private.example", HideEmail: true}
	for _, u := range []*forge.User{admin, hidden} {
		p := s.payloadUser(u)
		if p.Email == u.Email || p.IsAdmin {
			t.Errorf("payload user %s shows e-mail %q, is_admin %v", u.Name, p.Email, p.IsAdmin)
		}
		if want := map[string]string{"Root": "root@noreply.forge.example", "carol": "carol@noreply.forge.example"}[u.Name]; p.Email != want {
			t.Errorf("payload user %s e-mail %q, want the placeholder %q", u.Name, p.Email, want)
		}
	}
	r := &forge.Repository{ID: 7, OwnerName: "carol", Name: "r"}
	if got := s.payloadRepo(r, hidden).Owner.Email; got != "carol@noreply.forge.example" {
		t.Errorf("owner with a hidden e-mail shown as %q", got)
	}
	open := &forge.User{ID: 3, Name: "dave", Email: "dave@example.com"}
	if got := s.payloadRepo(r, open).Owner.Email; got != "dave@example.com" {
		t.Errorf("owner with a public e-mail shown as %q, want it", got)
	}
}
