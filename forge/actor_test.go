package forge_test

import (
	"errors"
	"testing"

	"github.com/hearthforge/hearth/forge"
)

func TestActorCheck(t *testing.T) {
	t.Parallel()
	readRepo, _ := forge.ParseScope("read:repository")
	active := &forge.User{ID: 1, Name: "a", IsActive: true}
	tests := []struct {
		name  string
		actor forge.Actor
		level forge.AccessLevel
		state forge.AccountState // "" when allowed by state
		scope bool               // refused for scope
	}{
		{"anonymous", forge.Anonymous, forge.AccessWrite, "", false},
		{"password", forge.Actor{User: active, Method: forge.AuthPassword}, forge.AccessWrite, "", false},
		{"token read ok", forge.Actor{User: active, Scoped: true, Scope: readRepo}, forge.AccessRead, "", false},
		{"token write refused", forge.Actor{User: active, Scoped: true, Scope: readRepo}, forge.AccessWrite, "", true},
		{"inactive", forge.Actor{User: &forge.User{ID: 2, Name: "b"}}, forge.AccessRead, forge.StateInactive, false},
		{"prohibited", forge.Actor{User: &forge.User{ID: 3, IsActive: true, ProhibitLogin: true}}, forge.AccessRead, forge.StateProhibitLogin, false},
		{"must change", forge.Actor{User: &forge.User{ID: 4, IsActive: true, MustChangePassword: true}}, forge.AccessRead, forge.StateMustChangePassword, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.actor.Check(tt.level, forge.CategoryRepository)
			var se *forge.AccountStateError
			switch {
			case tt.state != "":
				if !errors.As(err, &se) || se.State != tt.state || !errors.Is(err, forge.ErrForbidden) {
					t.Fatalf("Check = %v, want account state %s", err, tt.state)
				}
			case tt.scope:
				if !errors.Is(err, forge.ErrForbidden) || err.Error() != "token does not have at least one of required scope(s): [write:repository]" {
					t.Fatalf("Check = %v, want the scope refusal", err)
				}
			case err != nil:
				t.Fatalf("Check = %v, want nil", err)
			}
		})
	}
}
