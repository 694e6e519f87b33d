package auth_test

import (
	"context"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/storage/memstore"
)

// The rule "a user who owns repositories cannot be deleted" and its message
// are the service's: the store only answers OwnsRepositories.
func TestDeleteUserOwningRepositories(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := memstore.New()
	svc, err := auth.New(auth.Config{Store: st.Auth(), Clock: forgetest.NewClock(), Password: fastPasswords})
	require.NoError(t, err)
	root := forgetest.ActorFor(forgetest.User("root", forgetest.Admin))
	require.NoError(t, st.Auth().Update(ctx, func(tx auth.Tx) error { return tx.CreateUser(ctx, root.User, "") }))
	no := false
	u, err := svc.CreateUser(ctx, root, auth.CreateUserOptions{Name: "olga", Email: "olga@example.com",
		Password: "olga-password", MustChangePassword: &no})
	require.NoError(t, err)
	r := &forge.Repository{OwnerID: u.ID, Name: "kept", DefaultBranch: "main", ObjectFormat: forge.SHA1, Empty: true, Topics: []string{}}
	require.NoError(t, st.Repos().Update(ctx, func(tx repos.Tx) error { return tx.CreateRepo(ctx, r) }))

	err = svc.DeleteUser(ctx, root, "olga")
	assert.ErrorIs(t, err, forge.ErrPrecondition)
	assert.EqualError(t, err, "user still has ownership of repositories [uid: "+strconv.FormatInt(int64(u.ID), 10)+"]")

	require.NoError(t, st.Repos().Update(ctx, func(tx repos.Tx) error { return tx.DeleteRepo(ctx, r.ID) }))
	require.NoError(t, svc.DeleteUser(ctx, root, "olga"))
}
