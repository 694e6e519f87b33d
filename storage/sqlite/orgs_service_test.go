package sqlite_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/forge/orgs"
	"github.com/hearthforge/hearth/storage/sqlite"
)

// The organisation service runs on the SQLite store: an organisation comes
// with its Owners team, teams take members, and deleting the organisation
// leaves its members with no membership (auth.Tx.MemberOfOrgs).
func TestOrgServiceOnSQLite(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, svc := orgService(t, ":memory:")
	owner := forgetest.User("Olive", func(u *forge.User) { u.AllowCreateOrganization = true })
	member := forgetest.User("max")
	createUsers(t, db, owner, member)
	actor := forgetest.ActorFor(owner)

	org, err := svc.Create(ctx, actor, orgs.CreateOptions{Name: "Guild", Email: "olive@example.com"})
	require.NoError(t, err)
	assert.Equal(t, forge.UserTypeOrganization, org.Type)
	assert.Equal(t, "olive@example.com", org.Email, "an organisation may share a person's e-mail")
	_, err = svc.Create(ctx, actor, orgs.CreateOptions{Name: "guild"})
	assert.ErrorIs(t, err, forge.ErrInvalid, "a taken name")

	teams, total, err := svc.ListTeams(ctx, actor, "guild", forge.ListOptions{})
	require.NoError(t, err)
	require.EqualValues(t, 1, total)
	assert.True(t, teams[0].IsOwners())
	assert.Equal(t, 1, teams[0].NumMembers)

	tv, err := svc.CreateTeam(ctx, actor, "Guild", orgs.CreateTeamOptions{Name: "devs", Permission: "write",
		Units: []string{"repo.code", "repo.issues"}})
	require.NoError(t, err)
	assert.Equal(t, org.ID, tv.Org.ID)
	require.NoError(t, svc.AddTeamMember(ctx, actor, tv.Team.ID, "max"))
	got, err := svc.GetTeam(ctx, actor, tv.Team.ID)
	require.NoError(t, err)
	assert.Equal(t, 1, got.Team.NumMembers)
	assert.Equal(t, forge.AccessModeWrite, got.Team.Unit(forge.UnitIssues))

	memberOfOrgs := func(id forge.ID) bool {
		var in bool
		require.NoError(t, db.Auth().View(ctx, func(tx auth.Tx) error { var err error; in, err = tx.MemberOfOrgs(ctx, id); return err }))
		return in
	}
	assert.True(t, memberOfOrgs(member.ID))
	require.NoError(t, svc.Delete(ctx, actor, "Guild"))
	assert.False(t, memberOfOrgs(member.ID))
	assert.False(t, memberOfOrgs(owner.ID))
}

// orgService opens the database at path (closed with the test) and the
// organisation service on it.
func orgService(t *testing.T, path string) (*sqlite.DB, *orgs.Service) {
	t.Helper()
	db, err := sqlite.Open(context.Background(), path)
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	svc, err := orgs.New(orgs.Config{Store: db.Orgs(), Clock: forgetest.NewClock()})
	require.NoError(t, err)
	return db, svc
}

// createUsers creates users in one transaction.
func createUsers(t *testing.T, db *sqlite.DB, users ...*forge.User) {
	t.Helper()
	ctx := context.Background()
	require.NoError(t, db.Auth().Update(ctx, func(tx auth.Tx) error {
		for _, u := range users {
			if err := tx.CreateUser(ctx, u, ""); err != nil {
				return err
			}
		}
		return nil
	}))
}
