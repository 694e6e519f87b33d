package auth_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/forgetest"
)

func TestCheckLastAdmin(t *testing.T) {
	t.Parallel()
	admin := forgetest.User("a", forgetest.Admin)
	admin.ID = 7
	with := func(f func(*forge.User)) *forge.User { u := *admin; f(&u); return &u }
	demoted := with(func(u *forge.User) { u.IsAdmin = false })
	prohibited := with(func(u *forge.User) { u.ProhibitLogin = true })
	inactive := with(func(u *forge.User) { u.IsActive = false })
	renamed := with(func(u *forge.User) { u.FullName = "A" })
	plain := forgetest.User("p")

	tests := []struct {
		name          string
		before, after *forge.User
		admins        int64
		refused       bool
	}{
		{"demote the last admin", admin, demoted, 1, true},
		{"delete the last admin", admin, nil, 1, true},
		{"prohibit the last admin", admin, prohibited, 1, true},
		{"deactivate the last admin", admin, inactive, 1, true},
		{"demote one of two", admin, demoted, 2, false},
		{"delete one of two", admin, nil, 2, false},
		{"edit the last admin", admin, renamed, 1, false},
		{"delete a plain user", plain, nil, 1, false},
		{"promote", plain, with(func(u *forge.User) {}), 0, false},
		{"demote the last admin, count 0 (inconsistent)", admin, demoted, 0, true},
	}
	for _, tt := range tests {
		err := auth.CheckLastAdmin(tt.before, tt.after, tt.admins)
		if !tt.refused {
			assert.NoError(t, err, tt.name)
			continue
		}
		assert.EqualError(t, err, "can not delete the last admin user [uid: 7]", tt.name)
		assert.ErrorIs(t, err, forge.ErrPrecondition, tt.name)
		assert.ErrorIs(t, err, auth.ErrLastAdmin, tt.name)
	}
}

func TestValidateUsername(t *testing.T) {
	t.Parallel()
	for _, ok := range []string{"alice", "Alice", "a", "a.b", "a-b_c", "a1", "1a", strings.Repeat("x", 40)} {
		assert.NoError(t, auth.ValidateUsername(ok), ok)
	}
	for _, bad := range []string{"", "-a", ".a", "a.", "a..b", "a-_b", "a b", "a/b", "ä", "admin", "API", "user",
		"x.keys", "y.gpg", strings.Repeat("x", 41)} {
		err := auth.ValidateUsername(bad)
		assert.ErrorIs(t, err, forge.ErrInvalid, bad)
	}
	assert.EqualError(t, auth.ValidateUsername("Admin"), "name is reserved [name: admin]")
}

func TestValidateEmail(t *testing.T) {
	t.Parallel()
	for _, ok := range []string{"a@b.c", "a.b+c@example.com"} {
		assert.NoError(t, auth.ValidateEmail(ok), ok)
	}
	for _, bad := range []string{"", "a", "a@", "A <a@b.c>", " a@b.c", "a@b.c,d@e.f"} {
		err := auth.ValidateEmail(bad)
		assert.ErrorIs(t, err, forge.ErrInvalid, bad)
		assert.ErrorIs(t, err, auth.ErrEmailInvalid, bad)
	}
	assert.EqualError(t, auth.ValidateEmail("nope"), "e-mail invalid [email: nope]")
}

func TestPasswordHash(t *testing.T) {
	t.Parallel()
	p := auth.PasswordParams{Time: 1, MemoryKiB: 64, Threads: 1}
	h1, err := auth.HashPassword("correct horse", p)
	assert.NoError(t, err)
	h2, _ := auth.HashPassword("correct horse", p)
	assert.NotEqual(t, h1, h2, "salted")
	assert.True(t, strings.HasPrefix(h1, "$argon2id$v=19$m=64,t=1,p=1$"), h1)
	assert.True(t, auth.VerifyPassword("correct horse", h1))
	assert.False(t, auth.VerifyPassword("correct horsE", h1))
	for _, bad := range []string{"", "plain", "$argon2id$v=19$m=64,t=1,p=1$$", "$argon2i$v=19$m=64,t=1,p=1$c2FsdA$a2V5",
		"$argon2id$v=18$m=64,t=1,p=1$c2FsdA$a2V5", "$argon2id$v=19$m=64,t=0,p=1$c2FsdA$a2V5"} {
		assert.False(t, auth.VerifyPassword("", bad), bad)
	}
	// Hashes carry their parameters: one made with other costs still verifies.
	h3, _ := auth.HashPassword("pw", auth.PasswordParams{Time: 2, MemoryKiB: 128, Threads: 2})
	assert.True(t, auth.VerifyPassword("pw", h3))
}

func TestTokenFormat(t *testing.T) {
	t.Parallel()
	tok, err := auth.GenerateToken()
	assert.NoError(t, err)
	assert.True(t, auth.IsTokenFormat(tok), tok)
	other, _ := auth.GenerateToken()
	assert.NotEqual(t, tok, other)
	for _, bad := range []string{"", strings.Repeat("a", 39), strings.Repeat("a", 41), strings.ToUpper(tok), strings.Repeat("g", 40)} {
		assert.False(t, auth.IsTokenFormat(bad), bad)
	}
	assert.Len(t, auth.HashToken(tok), 64)
	assert.NotContains(t, auth.HashToken(tok), tok)
}

func TestCheckAccountState(t *testing.T) {
	t.Parallel()
	const url = "http://h/user/change_password"
	assert.NoError(t, auth.CheckAccountState(nil, url))
	assert.NoError(t, auth.CheckAccountState(forgetest.User("ok"), url))
	for name, u := range map[string]*forge.User{
		"inactive":   forgetest.User("x", func(u *forge.User) { u.IsActive = false }),
		"prohibited": forgetest.User("x", func(u *forge.User) { u.ProhibitLogin = true }),
	} {
		assert.EqualError(t, auth.CheckAccountState(u, url),
			"This account is prohibited from signing in, please contact your site administrator.", name)
	}
	err := auth.CheckAccountState(forgetest.User("x", func(u *forge.User) { u.MustChangePassword = true }), url)
	assert.EqualError(t, err, "You must change your password. Change it at: "+url)
	assert.ErrorIs(t, err, forge.ErrForbidden)
}
