package postgres

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/forge/orgs"
)

// meetOrgStore is an orgs.Store whose first write transaction waits at
// the meeting (see meetStore).
type meetOrgStore struct {
	orgs.Store
	seat
}

func (s *meetOrgStore) Update(ctx context.Context, fn func(orgs.Tx) error) error {
	return s.Store.Update(ctx, meetAfter(&s.seat, fn))
}

// Two servers on one database: each of an organisation's two owners
// leaves it at once. The Owners team's member count is read inside the
// write transaction (SERIALIZABLE): exactly one leaves, the other's rerun
// finds itself the last owner and is refused.
func TestTwoServersLastOwner(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dbs := openServers(t)
	var actors [2]forge.Actor
	for i, name := range []string{"ada", "bob"} {
		u := forgetest.User(name, func(u *forge.User) { u.AllowCreateOrganization = true })
		require.NoError(t, dbs[0].Auth().Update(ctx, func(tx auth.Tx) error { return tx.CreateUser(ctx, u, "") }))
		actors[i] = forgetest.ActorFor(u)
	}
	seed, err := orgs.New(orgs.Config{Store: dbs[0].Orgs(), Clock: forgetest.NewClock()})
	require.NoError(t, err)
	org, err := seed.Create(ctx, actors[0], orgs.CreateOptions{Name: "acme", Email: "acme@org.example"})
	require.NoError(t, err)
	var owners *forge.Team
	require.NoError(t, dbs[0].Orgs().Update(ctx, func(tx orgs.Tx) error {
		if owners, err = tx.TeamByName(ctx, org.ID, forge.OwnersTeam); err != nil {
			return err
		}
		if err := tx.SetMember(ctx, forge.Membership{OrgID: org.ID, UserID: actors[1].User.ID}); err != nil {
			return err
		}
		return tx.AddTeamMember(ctx, owners.ID, actors[1].User.ID)
	}))

	meet := newMeeting()
	var svcs [2]*orgs.Service
	for i, db := range dbs {
		svcs[i], err = orgs.New(orgs.Config{Store: &meetOrgStore{Store: db.Orgs(), seat: seat{meet: meet}}, Clock: forgetest.NewClock()})
		require.NoError(t, err)
	}
	errs := meetRace(t, meet, func(i int) error { return svcs[i].RemoveMember(ctx, actors[i], "acme", actors[i].User.Name) })
	oneSucceeds(t, errs, "exactly one owner leaves", func(i int, err error) {
		assert.ErrorIs(t, err, forge.ErrPrecondition, "server %d", i)
		assert.ErrorContains(t, err, "last member of owner team", "server %d", i)
	})
	require.NoError(t, dbs[1].Orgs().View(ctx, func(tx orgs.Tx) error {
		tm, err := tx.Team(ctx, owners.ID)
		if err == nil {
			assert.Equal(t, 1, tm.NumMembers, "one owner is left")
		}
		return err
	}))
}
