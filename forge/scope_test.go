package forge_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/hearthforge/hearth/forge"
)

func TestParseScopeNormalises(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in      []string
		want    string
		wantErr string
	}{
		{in: []string{"read:user", "write:user"}, want: "write:user"},
		{in: []string{"write:user", "read:user"}, want: "write:user"},
		{in: []string{"all"}, want: "all"},
		{in: []string{"all", "public-only"}, want: "public-only,all"},
		{in: []string{"public-only", "read:repository"}, want: "public-only,read:repository"},
		{in: []string{"read:user,write:issue", "read:issue"}, want: "write:issue,read:user"},
		{in: []string{"read:user", "write:activitypub", "read:admin", "write:misc", "read:notification",
			"write:organization", "read:package", "read:issue", "write:repository"},
			want: "write:activitypub,read:admin,write:misc,read:notification,write:organization,read:package,read:issue,write:repository,read:user"},
		{in: []string{"write:activitypub", "write:admin", "write:misc", "write:notification", "write:organization",
			"write:package", "write:issue", "write:repository", "write:user"}, want: "all"},
		{in: []string{"sudo", "", " read:user "}, want: "read:user"},
		{in: []string{"sudo"}, want: ""},
		{in: nil, want: ""},
		{in: []string{"read:user", "admin"}, wantErr: "invalid access token scope: admin"},
		{in: []string{"delete:user"}, wantErr: "invalid access token scope: delete:user"},
		{in: []string{"READ:user"}, wantErr: "invalid access token scope: READ:user"},
	}
	for _, tt := range tests {
		s, err := forge.ParseScope(tt.in...)
		if tt.wantErr != "" {
			assert.EqualError(t, err, tt.wantErr, "%q", tt.in)
			assert.ErrorIs(t, err, forge.ErrInvalid)
			continue
		}
		assert.NoError(t, err, "%q", tt.in)
		assert.Equal(t, tt.want, s.String(), "%q", tt.in)
		// Normalised output parses back to the same scope.
		again, err := forge.ParseScope(s.String())
		assert.NoError(t, err)
		assert.Equal(t, s, again)
	}
}

func TestScopeHas(t *testing.T) {
	t.Parallel()
	s, _ := forge.ParseScope("write:issue", "read:user")
	tests := []struct {
		cat   forge.ScopeCategory
		level forge.AccessLevel
		want  bool
	}{
		{forge.CategoryIssue, forge.AccessRead, true},
		{forge.CategoryIssue, forge.AccessWrite, true},
		{forge.CategoryUser, forge.AccessRead, true},
		{forge.CategoryUser, forge.AccessWrite, false},
		{forge.CategoryRepository, forge.AccessRead, false},
		{forge.CategoryAdmin, forge.AccessRead, false},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, s.Has(tt.cat, tt.level), "%s:%s", tt.level, tt.cat)
	}
	assert.True(t, forge.AllScope().Has(forge.CategoryAdmin, forge.AccessWrite))
	assert.False(t, forge.Scope{PublicOnly: true}.Has(forge.CategoryUser, forge.AccessRead))
	assert.True(t, forge.Scope{PublicOnly: true}.IsEmpty())
}

func TestLevelForMethod(t *testing.T) {
	t.Parallel()
	for m, want := range map[string]forge.AccessLevel{
		"GET": forge.AccessRead, "HEAD": forge.AccessRead, "OPTIONS": forge.AccessRead,
		"POST": forge.AccessWrite, "PUT": forge.AccessWrite, "PATCH": forge.AccessWrite, "DELETE": forge.AccessWrite,
	} {
		assert.Equal(t, want, forge.LevelForMethod(m), m)
	}
}

func TestListOptionsNormalize(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in, want forge.ListOptions
		offset   int
	}{
		{forge.ListOptions{}, forge.ListOptions{Page: 1, Limit: 30}, 0},
		{forge.ListOptions{Page: -3, Limit: -1}, forge.ListOptions{Page: 1, Limit: 30}, 0},
		{forge.ListOptions{Page: 3, Limit: 10}, forge.ListOptions{Page: 3, Limit: 10}, 20},
		{forge.ListOptions{Page: 2, Limit: 51}, forge.ListOptions{Page: 2, Limit: 50}, 50},
		{forge.ListOptions{Page: 1, Limit: 50}, forge.ListOptions{Page: 1, Limit: 50}, 0},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, tt.in.Normalize(), "%+v", tt.in)
		assert.Equal(t, tt.offset, tt.in.Offset(), "%+v", tt.in)
	}
}

func TestErrorf(t *testing.T) {
	t.Parallel()
	cause := errors.New("disk on fire")
	err := forge.Errorf(forge.ErrNotFound, "user %q: %w", "x", cause)
	assert.EqualError(t, err, `user "x": disk on fire`)
	assert.ErrorIs(t, err, forge.ErrNotFound)
	assert.ErrorIs(t, err, cause)
	assert.NotErrorIs(t, err, forge.ErrInvalid)
	assert.Equal(t, forge.ErrNotFound, forge.KindOf(err))
	assert.Nil(t, forge.KindOf(cause))

	reason := errors.New("password policy")
	err = forge.Reasonf(forge.ErrInvalid, reason, "too short")
	assert.EqualError(t, err, "too short")
	assert.ErrorIs(t, err, forge.ErrInvalid)
	assert.ErrorIs(t, err, reason)
}
