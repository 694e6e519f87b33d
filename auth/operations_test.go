package auth_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
)

// TestAdminUserMethodsAnswerAsTheirRoutes: a Go caller of the user
// administration gets the refusals an HTTP caller gets from the routes
// (Forgejo's reqToken, then reqSiteAdmin): `token is required` for an
// anonymous actor, `user should be the site admin` for a user.
func TestAdminUserMethodsAnswerAsTheirRoutes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t, ":memory:")
	sam := f.user(t, "sam", false)
	calls := map[string]func(forge.Actor) error{
		"CreateUser": func(a forge.Actor) error {
			_, err := f.svc.CreateUser(ctx, a, auth.CreateUserOptions{Name: "new", Email: "new@example.com", Password: "long-enough-password"})
			return err
		},
		"ListUsers": func(a forge.Actor) error {
			_, _, err := f.svc.ListUsers(ctx, a, auth.UserFilter{}, forge.ListOptions{})
			return err
		},
		"EditUser": func(a forge.Actor) error {
			_, err := f.svc.EditUser(ctx, a, "sam", auth.EditUserOptions{})
			return err
		},
		"DeleteUser": func(a forge.Actor) error { return f.svc.DeleteUser(ctx, a, "sam") },
		"RenameUser": func(a forge.Actor) error {
			_, err := f.svc.RenameUser(ctx, a, "sam", "samuel")
			return err
		},
	}
	for name, call := range calls {
		err := call(forge.Anonymous)
		assert.ErrorIs(t, err, forge.ErrUnauthenticated, name)
		assert.EqualError(t, err, "token is required", name)
		err = call(sam)
		assert.ErrorIs(t, err, forge.ErrForbidden, name)
		assert.EqualError(t, err, "user should be the site admin", name)
	}
}
