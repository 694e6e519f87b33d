package orgs_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/forge/orgs"
)

// Invalid input is judged after who may change the organisation, as in
// Forgejo where binding runs after the middlewares: a barred account, a
// token without write:organization, an actor who may not see the
// organisation and one who does not own it get those refusals, not a 422.
func TestChangesCheckTheActorBeforeTheInput(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	own := e.user(t, "own")
	mem := e.user(t, "mem")
	stranger := e.user(t, "stranger")
	e.org(t, own, "acme", "")
	e.org(t, own, "hidden", forge.VisibilityPrivate)
	e.member(t, own, "acme", mem)
	barred := *own.User
	barred.ProhibitLogin = true
	changes := map[string]func(a forge.Actor, org string) error{
		"Edit": func(a forge.Actor, org string) error {
			_, err := e.svc.Edit(ctx, a, org, orgs.EditOptions{Website: ptr("ftp://x")})
			return err
		},
		"Rename":    func(a forge.Actor, org string) error { _, err := e.svc.Rename(ctx, a, org, ""); return err },
		"SetAvatar": func(a forge.Actor, org string) error { return e.svc.SetAvatar(ctx, a, org, []byte("text")) },
	}
	for name, change := range changes {
		require.IsType(t, &forge.AccountStateError{}, change(forgetest.ActorFor(&barred), "acme"), name)
		requireErr(t, change(forgetest.TokenActor(own.User, "read:organization"), "acme"), forge.ErrForbidden,
			"token does not have at least one of required scope(s): [write:organization]")
		requireErr(t, change(stranger, "hidden"), forge.ErrNotFound, "user redirect does not exist [name: hidden]")
		requireErr(t, change(forge.Anonymous, "acme"), forge.ErrUnauthenticated, "token is required")
		requireErr(t, change(mem, "acme"), forge.ErrForbidden, "Must be an organization owner")
		require.ErrorIs(t, change(own, "acme"), forge.ErrInvalid, name)
	}
}
