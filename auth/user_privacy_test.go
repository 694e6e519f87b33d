package auth_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
)

// TestServiceReturnsUsersAsTheActorMaySee: every user an auth.Service
// method returns is redacted for its actor by forge.User.VisibleTo, so a Go
// caller learns no more than an HTTP client: no e-mail for anonymous
// actors, no hidden e-mail and no sign-in details for other users, all of
// it for the user and site administrators.
func TestServiceReturnsUsersAsTheActorMaySee(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t, ":memory:")
	bo := f.user(t, "bo", false)
	src, err := f.svc.CreateLoginSource(ctx, f.root, auth.LoginSource{Type: auth.SourceLDAP, Name: "corp", IsActive: true})
	require.NoError(t, err)
	yes, ext := true, "ldap-al"
	created, err := f.svc.CreateUser(ctx, f.root, auth.CreateUserOptions{Name: "al", Email: "al@example.com",
		LoginSource: src.ID, LoginName: ext})
	require.NoError(t, err)
	assert.Equal(t, "al@example.com", created.Email, "the administrator who created it sees it all")
	assert.Equal(t, ext, created.LoginName)
	edited, err := f.svc.EditUser(ctx, f.root, "al", auth.EditUserOptions{HideEmail: &yes})
	require.NoError(t, err)
	assert.Equal(t, "al@example.com", edited.Email)
	assert.False(t, edited.Redacted)

	for _, tt := range []struct {
		name     string
		actor    forge.Actor
		email    string
		redacted bool
	}{
		{"anonymous", forge.Anonymous, "", true},
		{"another user", bo, "", true},
		{"administrator", f.root, "al@example.com", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			u, err := f.svc.User(ctx, tt.actor, "al")
			require.NoError(t, err)
			assert.Equal(t, tt.email, u.Email)
			assert.Equal(t, tt.redacted, u.Redacted)
			if tt.redacted {
				assert.Empty(t, u.LoginName, "sign-in name shown")
				assert.Zero(t, u.LoginSource)
				assert.False(t, u.IsActive, "account state shown")
			} else {
				assert.Equal(t, ext, u.LoginName)
			}

			users, _, err := f.svc.SearchUsers(ctx, tt.actor, auth.SearchUsersOptions{}, forge.ListOptions{})
			require.NoError(t, err)
			require.NotEmpty(t, users)
			for _, u := range users {
				if u.ID == tt.actor.UserID() || tt.actor.IsSiteAdmin() {
					assert.False(t, u.Redacted, u.Name)
					continue
				}
				assert.True(t, u.Redacted, u.Name)
				assert.Empty(t, u.LoginName, u.Name)
				assert.False(t, u.IsAdmin, "%s: administrator flag shown", u.Name)
				if !tt.actor.IsSignedIn() || u.HideEmail {
					assert.Empty(t, u.Email, "%s: e-mail shown", u.Name)
				} else {
					assert.NotEmpty(t, u.Email, u.Name)
				}
			}
			pseudo, _, err := f.svc.SearchUsers(ctx, tt.actor, auth.SearchUsersOptions{UID: auth.ActionsUserID}, forge.ListOptions{})
			require.NoError(t, err)
			require.Len(t, pseudo, 1)
			assert.Equal(t, tt.redacted, pseudo[0].Email == "", "the Actions user's hidden e-mail")
		})
	}

	// A user sees themself whole.
	self, err := f.svc.User(ctx, bo, "bo")
	require.NoError(t, err)
	assert.Equal(t, "bo@example.com", self.Email)
	assert.True(t, self.IsActive)
	assert.False(t, self.Redacted)

	renamed, err := f.svc.RenameUser(ctx, f.root, "al", "alan")
	require.NoError(t, err)
	assert.Equal(t, "al@example.com", renamed.Email)
	list, _, err := f.svc.ListUsers(ctx, f.root, auth.UserFilter{}, forge.ListOptions{})
	require.NoError(t, err)
	for _, u := range list {
		assert.False(t, u.Redacted, u.Name)
		assert.NotEmpty(t, u.Email, u.Name)
	}
}
