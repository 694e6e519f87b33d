package auth_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
)

func TestSearchUsers(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t, ":memory:")
	pub := f.user(t, "pub", false)
	f.user(t, "lim", false)
	f.user(t, "priv", false)
	f.user(t, "hid", false)
	lim, priv := forge.VisibilityLimited, forge.VisibilityPrivate
	yes := true
	full := "Percy 100%_Done"
	_, err := f.svc.EditUser(ctx, f.root, "lim", auth.EditUserOptions{Visibility: &lim})
	require.NoError(t, err)
	_, err = f.svc.EditUser(ctx, f.root, "priv", auth.EditUserOptions{Visibility: &priv})
	require.NoError(t, err)
	_, err = f.svc.EditUser(ctx, f.root, "hid", auth.EditUserOptions{HideEmail: &yes})
	require.NoError(t, err)
	_, err = f.svc.EditUser(ctx, f.root, "pub", auth.EditUserOptions{FullName: &full})
	require.NoError(t, err)
	privActor, err := f.svc.Authenticate(ctx, auth.Credentials{Basic: true, Username: "priv", Password: "priv-password"})
	require.NoError(t, err)
	hidActor, err := f.svc.Authenticate(ctx, auth.Credentials{Basic: true, Username: "hid", Password: "hid-password"})
	require.NoError(t, err)
	tok, err := f.svc.CreateToken(ctx, f.root, "root", auth.CreateTokenOptions{Name: "po", Scopes: []string{"read:user", "public-only"}})
	require.NoError(t, err)
	publicOnly, err := f.svc.Authenticate(ctx, auth.Credentials{Token: tok.Token})
	require.NoError(t, err)

	names := func(actor forge.Actor, o auth.SearchUsersOptions, lo forge.ListOptions) ([]string, int64) {
		t.Helper()
		users, total, err := f.svc.SearchUsers(ctx, actor, o, lo)
		require.NoError(t, err)
		out := []string{}
		for _, u := range users {
			out = append(out, u.Name)
		}
		return out, total
	}
	for _, tt := range []struct {
		name  string
		actor forge.Actor
		o     auth.SearchUsersOptions
		want  []string
	}{
		{"anonymous sees public users, alphabetically", forge.Anonymous, auth.SearchUsersOptions{}, []string{"hid", "pub", "root"}},
		{"signed-in sees limited users and itself", pub, auth.SearchUsersOptions{}, []string{"hid", "lim", "pub", "root"}},
		{"a private user sees itself", privActor, auth.SearchUsersOptions{}, []string{"hid", "lim", "priv", "pub", "root"}},
		{"an administrator sees everyone", f.root, auth.SearchUsersOptions{}, []string{"hid", "lim", "priv", "pub", "root"}},
		{"a public-only token sees public users", publicOnly, auth.SearchUsersOptions{}, []string{"hid", "pub", "root"}},
		{"keyword in the name, any case", forge.Anonymous, auth.SearchUsersOptions{Keyword: " PU "}, []string{"pub"}},
		{"keyword in the full name, wildcards literal", forge.Anonymous, auth.SearchUsersOptions{Keyword: "100%_d"}, []string{"pub"}},
		{"a % alone is no wildcard", forge.Anonymous, auth.SearchUsersOptions{Keyword: "%"}, []string{"pub"}},
		{"keyword in a visible e-mail", pub, auth.SearchUsersOptions{Keyword: "pub@example"}, []string{"pub"}},
		{"a hidden e-mail does not match for others", pub, auth.SearchUsersOptions{Keyword: "hid@example"}, []string{}},
		{"a hidden e-mail matches for its owner", hidActor, auth.SearchUsersOptions{Keyword: "hid@example"}, []string{"hid"}},
		{"a hidden e-mail matches for administrators", f.root, auth.SearchUsersOptions{Keyword: "hid@example"}, []string{"hid"}},
		{"uid", forge.Anonymous, auth.SearchUsersOptions{UID: 1}, []string{"root"}},
		{"uid of an invisible user", forge.Anonymous, auth.SearchUsersOptions{UID: 4}, []string{}},
		{"newest", forge.Anonymous, auth.SearchUsersOptions{Sort: "newest"}, []string{"hid", "pub", "root"}},
		{"oldest", forge.Anonymous, auth.SearchUsersOptions{Sort: "oldest"}, []string{"root", "pub", "hid"}},
		{"reversealphabetically", forge.Anonymous, auth.SearchUsersOptions{Sort: "reversealphabetically"}, []string{"root", "pub", "hid"}},
		{"unknown sort is alphabetical", forge.Anonymous, auth.SearchUsersOptions{Sort: "id; DROP"}, []string{"hid", "pub", "root"}},
	} {
		got, total := names(tt.actor, tt.o, forge.ListOptions{})
		assert.Equal(t, tt.want, got, tt.name)
		assert.Equal(t, int64(len(tt.want)), total, tt.name)
	}
	page, total := names(f.root, auth.SearchUsersOptions{}, forge.ListOptions{Page: 2, Limit: 2})
	assert.Equal(t, []string{"priv", "pub"}, page)
	assert.Equal(t, int64(5), total)
}
