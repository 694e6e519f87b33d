package orgs_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/forge/orgs"
)

func TestUserVisible(t *testing.T) {
	t.Parallel()
	self := forgetest.User("self")
	self.ID = 99
	stranger := forgetest.User("stranger")
	stranger.ID = 10
	adminU := forgetest.User("root", forgetest.Admin)
	adminU.ID = 11
	actors := []struct {
		name  string
		actor forge.Actor
	}{
		{"anonymous", forge.Anonymous},
		{"stranger", forgetest.ActorFor(stranger)},
		{"self", forgetest.ActorFor(self)},
		{"admin", forgetest.ActorFor(adminU)},
		{"self public-only", forgetest.TokenActor(self, "all", "public-only")},
		{"admin public-only", forgetest.TokenActor(adminU, "all", "public-only")},
	}
	// want per actor: public, limited, private.
	want := map[string][3]bool{
		"anonymous":         {true, false, false},
		"stranger":          {true, true, false},
		"self":              {true, true, true},
		"admin":             {true, true, true},
		"self public-only":  {true, false, false},
		"admin public-only": {true, false, false},
	}
	for _, a := range actors {
		for i, vis := range []forge.Visibility{forge.VisibilityPublic, forge.VisibilityLimited, forge.VisibilityPrivate} {
			u := &forge.User{ID: 99, Name: "self", Visibility: vis}
			require.Equal(t, want[a.name][i], orgs.UserVisible(a.actor, u), "%s on %s", a.name, vis)
		}
	}
}
