package repos_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/forge/orgs"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/storage/memgit"
	"github.com/hearthforge/hearth/storage/sqlite"
)

// orgEnv is the repository service on SQLite (whose orgs.Store seeds
// organisations, members and teams) and memgit.
type orgEnv struct {
	svc  *repos.Service
	db   *sqlite.DB
	git  *memgit.Store
	orgs orgs.Store
}

func newOrgEnv(t *testing.T) *orgEnv {
	t.Helper()
	ctx := context.Background()
	db, err := sqlite.Open(ctx, ":memory:")
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	g := memgit.New()
	svc, err := repos.New(repos.Config{Store: db.Repos(), Git: g, Clock: forgetest.NewClock()})
	require.NoError(t, err)
	return &orgEnv{svc: svc, db: db, git: g, orgs: db.Orgs()}
}

func (e *orgEnv) user(t *testing.T, name string, opts ...func(*forge.User)) forge.Actor {
	t.Helper()
	ctx := context.Background()
	u := forgetest.User(name, opts...)
	require.NoError(t, e.db.Auth().Update(ctx, func(tx auth.Tx) error { return tx.CreateUser(ctx, u, "") }))
	return forgetest.ActorFor(u)
}

// org creates an organisation with an Owners team holding owners.
func (e *orgEnv) org(t *testing.T, name string, vis forge.Visibility, owners ...forge.Actor) *forge.User {
	t.Helper()
	ctx := context.Background()
	o := forgetest.User(name, func(u *forge.User) { u.Type, u.Visibility = forge.UserTypeOrganization, vis })
	require.NoError(t, e.orgs.Update(ctx, func(tx orgs.Tx) error { return tx.CreateOrg(ctx, o) }))
	e.team(t, o, &forge.Team{Name: forge.OwnersTeam, Mode: forge.AccessModeOwner, IncludesAllRepos: true,
		CanCreateOrgRepo: true, Units: allUnits(forge.AccessModeOwner)}, owners...)
	return o
}

func allUnits(m forge.AccessMode) map[forge.Unit]forge.AccessMode {
	out := map[forge.Unit]forge.AccessMode{}
	for _, u := range forge.Units {
		out[u] = m
	}
	return out
}

// team creates a team of org with members (made members of org too).
func (e *orgEnv) team(t *testing.T, org *forge.User, tm *forge.Team, members ...forge.Actor) *forge.Team {
	t.Helper()
	ctx := context.Background()
	tm.OrgID = org.ID
	require.NoError(t, e.orgs.Update(ctx, func(tx orgs.Tx) error {
		if err := tx.CreateTeam(ctx, tm); err != nil {
			return err
		}
		for _, m := range members {
			if err := tx.SetMember(ctx, forge.Membership{OrgID: org.ID, UserID: m.User.ID}); err != nil {
				return err
			}
			if err := tx.AddTeamMember(ctx, tm.ID, m.User.ID); err != nil {
				return err
			}
		}
		if tm.IncludesAllRepos {
			ids, err := tx.ListOwnerRepoIDs(ctx, org.ID)
			if err != nil {
				return err
			}
			for _, id := range ids {
				if err := tx.AddTeamRepo(ctx, tm.ID, id); err != nil {
					return err
				}
			}
		}
		return nil
	}))
	return tm
}

// member makes the actor a member of org without a team.
func (e *orgEnv) member(t *testing.T, org *forge.User, a forge.Actor) {
	t.Helper()
	ctx := context.Background()
	require.NoError(t, e.orgs.Update(ctx, func(tx orgs.Tx) error {
		return tx.SetMember(ctx, forge.Membership{OrgID: org.ID, UserID: a.User.ID})
	}))
}

// give adds the repository to the team.
func (e *orgEnv) give(t *testing.T, tm *forge.Team, repo forge.ID) {
	t.Helper()
	ctx := context.Background()
	require.NoError(t, e.orgs.Update(ctx, func(tx orgs.Tx) error { return tx.AddTeamRepo(ctx, tm.ID, repo) }))
}

// teamRepos lists the ids of the teams having the repository.
func (e *orgEnv) teamsOf(t *testing.T, org *forge.User, repo forge.ID) []string {
	t.Helper()
	ctx := context.Background()
	var names []string
	require.NoError(t, e.orgs.View(ctx, func(tx orgs.Tx) error {
		list, _, err := tx.ListTeams(ctx, orgs.TeamFilter{OrgID: org.ID, RepoID: repo}, forge.ListOptions{Page: 1, Limit: 50})
		for _, tm := range list {
			names = append(names, tm.Name)
		}
		return err
	}))
	return names
}
