package oauthapps_test

import (
	"testing"

	"github.com/hearthforge/hearth/forge/forgetest"
)

func TestDeps(t *testing.T) {
	t.Parallel()
	forgetest.CheckDeps(t, "github.com/hearthforge/hearth/auth/oauthapps", forgetest.DomainBadDeps)
}
