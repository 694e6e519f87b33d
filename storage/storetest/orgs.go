package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/forge/orgs"
	"github.com/hearthforge/hearth/forge/repos"
)

// The conformance cases of orgs.Tx: organisations' accounts and members
// and what goes with a deleted organisation, user, team or repository
// (here); teams, their members and repositories (teams.go); blocks
// (blocks.go).

// listOrgs returns the names of one page of ListOrgs and the total.
func listOrgs(t *testing.T, b Backend, f orgs.OrgFilter, o forge.ListOptions) ([]string, int64) {
	t.Helper()
	list, n := viewPage(t, b.Orgs(), func(ctx context.Context, tx orgs.Tx) ([]*forge.User, int64, error) { return tx.ListOrgs(ctx, f, o) })
	return userNames(list), n
}

// testOrgAccounts: organisations are accounts in the users' name space;
// their e-mails are neither unique nor found by UserByEmail.
func testOrgAccounts(t *testing.T, b Backend) {
	ctx := context.Background()
	s := b.Orgs()
	person := newUser(t, b, "Pat", func(u *forge.User) { u.Avatar = "avatar-pat" })
	require.NoError(t, b.Auth().View(ctx, func(tx auth.Tx) error {
		got, err := tx.UserByID(ctx, person.ID)
		require.NoError(t, err)
		assert.Equal(t, "avatar-pat", got.Avatar, "people's avatars are stored too")
		return nil
	}))
	update(t, b.Auth(), func(tx auth.Tx) error {
		u := *person
		u.Avatar, u.RepoAdminChangeTeamAccess = "avatar-pat-2", true
		return tx.UpdateUser(ctx, &u)
	})

	created := time.Date(2024, 3, 4, 5, 6, 7, 0, time.UTC)
	in := forgetest.User("Acme", func(u *forge.User) {
		u.FullName, u.Description, u.Website, u.Location = "Acme Inc", "we make things", "https://acme.example", "Lyon"
		u.Email, u.Visibility, u.Avatar, u.RepoAdminChangeTeamAccess = "Team@Acme.example", forge.VisibilityLimited, "avatar-acme", true
		u.Created, u.Updated = created, created.Add(time.Hour)
	})
	want := *in
	orgUpdate(t, s, func(tx orgs.Tx) error { return tx.CreateOrg(ctx, in) })
	require.NotZero(t, in.ID)
	want.ID, want.Type = in.ID, forge.UserTypeOrganization

	orgView(t, s, func(tx orgs.Tx) error {
		for _, get := range []func() (*forge.User, error){
			func() (*forge.User, error) { return tx.UserByID(ctx, in.ID) },
			func() (*forge.User, error) { return tx.UserByName(ctx, "aCmE") },
			func() (*forge.User, error) {
				m, err := tx.UsersByID(ctx, []forge.ID{in.ID, person.ID, 9999})
				require.NoError(t, err)
				require.Len(t, m, 2, "missing ids are absent")
				assert.Equal(t, "avatar-pat-2", m[person.ID].Avatar, "UpdateUser writes the avatar")
				assert.True(t, m[person.ID].RepoAdminChangeTeamAccess, "and every other column")
				return m[in.ID], err
			},
		} {
			got, err := get()
			wantRoundTrip(t, "organisation", &want, got, err)
			got.FullName, got.Avatar = "changed by the caller", "x"
		}
		got, err := tx.UserByID(ctx, in.ID)
		require.NoError(t, err)
		assert.Equal(t, "Acme Inc", got.FullName, "values returned are copies")
		_, err = tx.UserByName(ctx, "nobody")
		assert.ErrorIs(t, err, forge.ErrNotFound)
		return nil
	})

	// One name space for people and organisations, ignoring case.
	for name, org := range map[string]*forge.User{
		"a person's name":        forgetest.User("PAT", func(u *forge.User) { u.Type, u.Email = forge.UserTypeOrganization, "" }),
		"an organisation's name": forgetest.User("acme", func(u *forge.User) { u.Type, u.Email = forge.UserTypeOrganization, "" }),
	} {
		err := s.Update(ctx, func(tx orgs.Tx) error { return tx.CreateOrg(ctx, org) })
		assert.ErrorIs(t, err, forge.ErrConflict, name)
	}
	err := b.Auth().Update(ctx, func(tx auth.Tx) error {
		return tx.CreateUser(ctx, forgetest.User("ACME", func(u *forge.User) { u.Email = "acme-person@example.com" }), "")
	})
	assert.ErrorIs(t, err, forge.ErrConflict, "a person cannot take an organisation's name")

	// Organisations' e-mails: shared with each other and with people, and
	// never looked up.
	beta := newOrg(t, b, "Beta", func(u *forge.User) { u.Email = "team@ACME.example" })
	newOrg(t, b, "Gamma", func(u *forge.User) { u.Email = "pat@example.com" })
	newOrg(t, b, "delta", func(u *forge.User) { u.Visibility = forge.VisibilityLimited })
	newOrg(t, b, "epsilon")
	quinn := newUser(t, b, "Quinn", func(u *forge.User) { u.Email = "TEAM@acme.example" })
	require.NoError(t, b.Auth().View(ctx, func(tx auth.Tx) error {
		got, err := tx.UserByEmail(ctx, "team@acme.example")
		require.NoError(t, err)
		assert.Equal(t, quinn.ID, got.ID, "UserByEmail finds the person, never an organisation")
		got, err = tx.UserByEmail(ctx, "pat@example.com")
		require.NoError(t, err)
		assert.Equal(t, person.ID, got.ID)
		return nil
	}))
	orgUpdate(t, s, func(tx orgs.Tx) error {
		u := *beta
		u.Email = "beta@orgs.example"
		return tx.UpdateOrg(ctx, &u)
	})
	wantNotFound(t, b.Auth(), func(ctx context.Context, tx auth.Tx) error {
		_, err := tx.UserByEmail(ctx, "beta@orgs.example")
		return err
	}, "an organisation is never found by e-mail")
	update(t, b.Auth(), func(tx auth.Tx) error {
		u := *quinn
		u.Email = "BETA@orgs.example"
		return tx.UpdateUser(ctx, &u)
	})
	require.NoError(t, b.Auth().View(ctx, func(tx auth.Tx) error {
		got, err := tx.UserByEmail(ctx, "beta@orgs.example")
		require.NoError(t, err, "a person may take an organisation's e-mail")
		assert.Equal(t, quinn.ID, got.ID)
		return nil
	}))

	// UpdateOrg writes every field; renames keep to the one name space.
	want.Name, want.FullName, want.Email, want.Description = "AcmeCorp", "Acme Corp", "pat@example.com", ""
	want.Visibility, want.Avatar, want.RepoAdminChangeTeamAccess = forge.VisibilityPrivate, "", false
	want.Updated = created.Add(48 * time.Hour)
	orgUpdate(t, s, func(tx orgs.Tx) error { u := want; return tx.UpdateOrg(ctx, &u) })
	orgView(t, s, func(tx orgs.Tx) error {
		got, err := tx.UserByName(ctx, "acmecorp")
		require.NoError(t, err)
		assert.Empty(t, cmp.Diff(&want, got))
		_, err = tx.UserByName(ctx, "acme")
		assert.ErrorIs(t, err, forge.ErrNotFound, "the old name is free")
		return nil
	})
	for _, name := range []string{"pat", "BETA", "quinn"} {
		err := s.Update(ctx, func(tx orgs.Tx) error { u := want; u.Name = name; return tx.UpdateOrg(ctx, &u) })
		assert.ErrorIs(t, err, forge.ErrConflict, "rename onto %s", name)
	}
	for name, id := range map[string]forge.ID{"a person": person.ID, "no account": 9999} {
		err := s.Update(ctx, func(tx orgs.Tx) error { u := want; u.ID, u.Name = id, "Renamed"; return tx.UpdateOrg(ctx, &u) })
		assert.ErrorIs(t, err, forge.ErrNotFound, "UpdateOrg of %s", name)
	}
	orgView(t, s, func(tx orgs.Tx) error {
		got, err := tx.UserByID(ctx, person.ID)
		require.NoError(t, err)
		assert.Equal(t, "Pat", got.Name, "UpdateOrg never writes a person")
		assert.Equal(t, forge.UserTypeIndividual, got.Type)
		return nil
	})

	// ListOrgs: organisations only, by name ignoring case, paged, filtered.
	names, total := listOrgs(t, b, orgs.OrgFilter{}, forge.ListOptions{Page: 1, Limit: 2})
	assert.Equal(t, []string{"AcmeCorp", "Beta"}, names)
	assert.EqualValues(t, 5, total, "people are not organisations")
	names, _ = listOrgs(t, b, orgs.OrgFilter{}, forge.ListOptions{Page: 2, Limit: 2})
	assert.Equal(t, []string{"delta", "epsilon"}, names, "ordered by name ignoring case")
	names, _ = listOrgs(t, b, orgs.OrgFilter{}, forge.ListOptions{Page: 3, Limit: 2})
	assert.Equal(t, []string{"Gamma"}, names)
	names, _ = listOrgs(t, b, orgs.OrgFilter{}, forge.ListOptions{Page: 9, Limit: 2})
	assert.Empty(t, names)
	names, total = listOrgs(t, b, orgs.OrgFilter{Visibilities: []forge.Visibility{forge.VisibilityPublic, forge.VisibilityLimited}},
		forge.ListOptions{})
	assert.Equal(t, []string{"Beta", "delta", "epsilon", "Gamma"}, names)
	assert.EqualValues(t, 4, total)
	names, _ = listOrgs(t, b, orgs.OrgFilter{Visibilities: []forge.Visibility{forge.VisibilityPrivate}}, forge.ListOptions{})
	assert.Equal(t, []string{"AcmeCorp"}, names)

	// OwnsRepositories and DeleteOrg.
	owns := func(id forge.ID) bool {
		return viewValue(t, s, func(ctx context.Context, tx orgs.Tx) (bool, error) { return tx.OwnsRepositories(ctx, id) })
	}
	assert.False(t, owns(in.ID))
	newRepo(t, b, &want, "product")
	assert.True(t, owns(in.ID))
	assert.False(t, owns(beta.ID))
	err = s.Update(ctx, func(tx orgs.Tx) error { return tx.DeleteOrg(ctx, in.ID) })
	assert.Error(t, err, "an organisation's repositories are never orphaned")
	for name, id := range map[string]forge.ID{"a person": person.ID, "no account": 9999} {
		err := s.Update(ctx, func(tx orgs.Tx) error { return tx.DeleteOrg(ctx, id) })
		assert.ErrorIs(t, err, forge.ErrNotFound, "DeleteOrg of %s", name)
	}
	orgView(t, s, func(tx orgs.Tx) error {
		for _, id := range []forge.ID{in.ID, person.ID} {
			_, err := tx.UserByID(ctx, id)
			assert.NoError(t, err, "a refused delete removes nothing")
		}
		return nil
	})
	orgUpdate(t, s, func(tx orgs.Tx) error { return tx.DeleteOrg(ctx, beta.ID) })
	wantNotFound(t, s, func(ctx context.Context, tx orgs.Tx) error { _, err := tx.UserByID(ctx, beta.ID); return err })
	err = s.Update(ctx, func(tx orgs.Tx) error { return tx.DeleteOrg(ctx, beta.ID) })
	assert.ErrorIs(t, err, forge.ErrNotFound, "deleting twice")
	t.Run("ViewerMemberID", func(t *testing.T) { testListOrgsViewer(t, b) })
}

// testOrgMembers: memberships, public or not, and the lists and filters
// built on them.
func testOrgMembers(t *testing.T, b Backend) {
	ctx := context.Background()
	s := b.Orgs()
	guild, other := newOrg(t, b, "Guild"), newOrg(t, b, "other")
	users := map[string]*forge.User{}
	for _, n := range []string{"zed", "Amy", "bo", "Cy", "dee"} {
		users[n] = newUser(t, b, n)
	}
	seedOrgs(t, b, orgSeed{members: []forge.Membership{
		{OrgID: guild.ID, UserID: users["zed"].ID},
		{OrgID: guild.ID, UserID: users["Amy"].ID, Public: true},
		{OrgID: guild.ID, UserID: users["bo"].ID},
		{OrgID: guild.ID, UserID: users["Cy"].ID, Public: true},
		{OrgID: other.ID, UserID: users["bo"].ID, Public: true},
	}})
	member := func(org, user forge.ID) (forge.Membership, error) {
		var m forge.Membership
		err := s.View(ctx, func(tx orgs.Tx) error { var err error; m, err = tx.Member(ctx, org, user); return err })
		return m, err
	}
	m, err := member(guild.ID, users["Amy"].ID)
	require.NoError(t, err)
	assert.Equal(t, forge.Membership{OrgID: guild.ID, UserID: users["Amy"].ID, Public: true}, m)
	m, err = member(guild.ID, users["bo"].ID)
	require.NoError(t, err)
	assert.False(t, m.Public)
	for _, public := range []bool{true, false, true} {
		orgUpdate(t, s, func(tx orgs.Tx) error {
			return tx.SetMember(ctx, forge.Membership{OrgID: guild.ID, UserID: users["bo"].ID, Public: public})
		})
		m, err = member(guild.ID, users["bo"].ID)
		require.NoError(t, err)
		assert.Equal(t, public, m.Public, "SetMember changes whether a membership is public")
	}
	for name, ids := range map[string][2]forge.ID{
		"not a member": {other.ID, users["Amy"].ID}, "no user": {guild.ID, 9999}, "no organisation": {9999, users["Amy"].ID},
	} {
		_, err := member(ids[0], ids[1])
		assert.ErrorIs(t, err, forge.ErrNotFound, name)
	}
	for name, mm := range map[string]forge.Membership{
		"no user": {OrgID: guild.ID, UserID: 9999}, "no organisation": {OrgID: 9999, UserID: users["Amy"].ID},
	} {
		err := s.Update(ctx, func(tx orgs.Tx) error { return tx.SetMember(ctx, mm) })
		assert.ErrorIs(t, err, forge.ErrNotFound, "SetMember with %s", name)
	}

	listMembers := func(org forge.ID, publicOnly bool, o forge.ListOptions) ([]string, int64) {
		var names []string
		var total int64
		orgView(t, s, func(tx orgs.Tx) error {
			list, n, err := tx.ListMembers(ctx, org, publicOnly, o)
			require.NotNil(t, list)
			names, total = userNames(list), n
			return err
		})
		return names, total
	}
	names, total := listMembers(guild.ID, false, forge.ListOptions{Page: 1, Limit: 3})
	assert.Equal(t, []string{"Amy", "bo", "Cy"}, names, "ordered by name ignoring case")
	assert.EqualValues(t, 4, total)
	names, _ = listMembers(guild.ID, false, forge.ListOptions{Page: 2, Limit: 3})
	assert.Equal(t, []string{"zed"}, names)
	names, total = listMembers(guild.ID, true, forge.ListOptions{})
	assert.Equal(t, []string{"Amy", "bo", "Cy"}, names)
	assert.EqualValues(t, 3, total)
	names, total = listMembers(9999, false, forge.ListOptions{})
	assert.Empty(t, names)
	assert.Zero(t, total)

	orgUpdate(t, s, func(tx orgs.Tx) error {
		return tx.SetMember(ctx, forge.Membership{OrgID: guild.ID, UserID: users["bo"].ID})
	})
	names, _ = listOrgs(t, b, orgs.OrgFilter{MemberID: users["bo"].ID}, forge.ListOptions{})
	assert.Equal(t, []string{"Guild", "other"}, names)
	names, _ = listOrgs(t, b, orgs.OrgFilter{MemberID: users["bo"].ID, PublicMember: true}, forge.ListOptions{})
	assert.Equal(t, []string{"other"}, names, "only where the membership is public")
	names, _ = listOrgs(t, b, orgs.OrgFilter{MemberID: users["dee"].ID}, forge.ListOptions{})
	assert.Empty(t, names)
	orgUpdate(t, s, func(tx orgs.Tx) error {
		u := *guild
		u.Visibility = forge.VisibilityPrivate
		return tx.UpdateOrg(ctx, &u)
	})
	names, total = listOrgs(t, b, orgs.OrgFilter{MemberID: users["bo"].ID, Visibilities: []forge.Visibility{forge.VisibilityPrivate}},
		forge.ListOptions{})
	assert.Equal(t, []string{"Guild"}, names, "filters combine")
	assert.EqualValues(t, 1, total)

	memberOfOrgs := func(id forge.ID) bool {
		return viewValue(t, b.Auth(), func(ctx context.Context, tx auth.Tx) (bool, error) { return tx.MemberOfOrgs(ctx, id) })
	}
	assert.True(t, memberOfOrgs(users["bo"].ID))
	assert.False(t, memberOfOrgs(users["dee"].ID))
	assert.False(t, memberOfOrgs(guild.ID), "an organisation is no member of itself")

	orgUpdate(t, s, func(tx orgs.Tx) error { return tx.DeleteMember(ctx, guild.ID, users["bo"].ID) })
	_, err = member(guild.ID, users["bo"].ID)
	assert.ErrorIs(t, err, forge.ErrNotFound)
	orgUpdate(t, s, func(tx orgs.Tx) error { return tx.DeleteMember(ctx, guild.ID, users["bo"].ID) })
	_, total = listMembers(guild.ID, false, forge.ListOptions{})
	assert.EqualValues(t, 3, total)
	assert.True(t, memberOfOrgs(users["bo"].ID), "still a member of the other organisation")
	orgUpdate(t, s, func(tx orgs.Tx) error { return tx.DeleteMember(ctx, other.ID, users["bo"].ID) })
	assert.False(t, memberOfOrgs(users["bo"].ID))
}

// testListOrgsViewer: ListOrgs keeps, with ViewerMemberID, only the
// organisations that user is a member of, on top of the other filters.
func testListOrgsViewer(t *testing.T, b Backend) {
	one, two, three := newOrg(t, b, "One"), newOrg(t, b, "Two"), newOrg(t, b, "Three")
	rita, sam := newUser(t, b, "rita"), newUser(t, b, "sam")
	seedOrgs(t, b, orgSeed{members: []forge.Membership{
		{OrgID: one.ID, UserID: rita.ID}, {OrgID: two.ID, UserID: rita.ID, Public: true},
		{OrgID: two.ID, UserID: sam.ID, Public: true}, {OrgID: three.ID, UserID: sam.ID, Public: true},
	}})
	names, total := listOrgs(t, b, orgs.OrgFilter{ViewerMemberID: rita.ID}, forge.ListOptions{Page: 1, Limit: 1})
	assert.Equal(t, []string{"One"}, names)
	assert.EqualValues(t, 2, total, "the total counts what the filter keeps")
	names, total = listOrgs(t, b, orgs.OrgFilter{MemberID: sam.ID, PublicMember: true, ViewerMemberID: rita.ID}, forge.ListOptions{})
	assert.Equal(t, []string{"Two"}, names, "sam's public organisations that rita is in")
	assert.EqualValues(t, 1, total)
}

// testOrgCascades: deleting an organisation, a user, a team or a
// repository removes the memberships, teams, team rows and blocks that
// name it, and nothing else.
func testOrgCascades(t *testing.T, b Backend) {
	ctx := context.Background()
	s := b.Orgs()
	doomed, kept := newOrg(t, b, "Doomed"), newOrg(t, b, "Kept")
	uma, vic := newUser(t, b, "uma"), newUser(t, b, "vic")
	devs, crew := newTeam(t, b, doomed, "devs"), newTeam(t, b, kept, "crew")
	tool := newRepo(t, b, kept, "tool")
	at := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	block := func(blocker, user *forge.User) forge.Block {
		return forge.Block{BlockerID: blocker.ID, UserID: user.ID, Created: at}
	}
	seedOrgs(t, b, orgSeed{
		members:     []forge.Membership{{OrgID: doomed.ID, UserID: uma.ID}, {OrgID: kept.ID, UserID: uma.ID}, {OrgID: kept.ID, UserID: vic.ID}},
		teamMembers: []teamPair{{devs, uma.ID}, {crew, uma.ID}, {crew, vic.ID}},
		teamRepos:   []teamPair{{devs, tool.ID}, {crew, tool.ID}},
		blocks:      []forge.Block{block(doomed, vic), block(vic, uma), block(uma, vic), block(kept, uma)},
	})

	// An organisation takes its teams (with their members, repositories and
	// units), memberships and blocks with it.
	orgUpdate(t, s, func(tx orgs.Tx) error { return tx.DeleteOrg(ctx, doomed.ID) })
	orgView(t, s, func(tx orgs.Tx) error {
		_, err := tx.Team(ctx, devs.ID)
		assert.ErrorIs(t, err, forge.ErrNotFound, "the organisation's team")
		_, err = tx.Member(ctx, doomed.ID, uma.ID)
		assert.ErrorIs(t, err, forge.ErrNotFound, "the organisation's membership")
		in, err := tx.IsTeamMember(ctx, devs.ID, uma.ID)
		require.NoError(t, err)
		assert.False(t, in)
		has, err := tx.HasTeamRepo(ctx, devs.ID, tool.ID)
		require.NoError(t, err)
		assert.False(t, has)
		return nil
	})
	names, total := listTeams(t, b, orgs.TeamFilter{OrgID: doomed.ID}, forge.ListOptions{})
	assert.Empty(t, names)
	assert.Zero(t, total)
	names, _ = listTeams(t, b, orgs.TeamFilter{MemberID: uma.ID}, forge.ListOptions{})
	assert.Equal(t, []string{"crew"}, names)
	names, _ = listTeams(t, b, orgs.TeamFilter{RepoID: tool.ID}, forge.ListOptions{})
	assert.Equal(t, []string{"crew"}, names)
	names, _ = listOrgs(t, b, orgs.OrgFilter{MemberID: uma.ID}, forge.ListOptions{})
	assert.Equal(t, []string{"Kept"}, names)
	assert.False(t, isBlocked(t, b, doomed.ID, vic.ID))
	_, total = listBlocked(t, b, doomed.ID, forge.ListOptions{})
	assert.Zero(t, total)
	assert.Equal(t, [2]int{2, 1}, [2]int{getTeam(t, b, crew.ID).NumMembers, getTeam(t, b, crew.ID).NumRepos},
		"another organisation's team keeps its members and repositories")

	// A new organisation with the freed name starts with nothing.
	again := newOrg(t, b, "doomed")
	orgView(t, s, func(tx orgs.Tx) error {
		_, err := tx.TeamByName(ctx, again.ID, "devs")
		assert.ErrorIs(t, err, forge.ErrNotFound)
		_, err = tx.Member(ctx, again.ID, uma.ID)
		assert.ErrorIs(t, err, forge.ErrNotFound)
		return nil
	})

	// A user takes their memberships, team memberships and blocks, both
	// ways, with them.
	update(t, b.Auth(), func(tx auth.Tx) error { return tx.DeleteUser(ctx, uma.ID) })
	orgView(t, s, func(tx orgs.Tx) error {
		_, err := tx.Member(ctx, kept.ID, uma.ID)
		assert.ErrorIs(t, err, forge.ErrNotFound)
		in, err := tx.IsTeamMember(ctx, crew.ID, uma.ID)
		require.NoError(t, err)
		assert.False(t, in)
		return nil
	})
	members, total := func() ([]*forge.User, int64) {
		var list []*forge.User
		var n int64
		orgView(t, s, func(tx orgs.Tx) error {
			var err error
			list, n, err = tx.ListMembers(ctx, kept.ID, false, forge.ListOptions{})
			return err
		})
		return list, n
	}()
	assert.Equal(t, []string{"vic"}, userNames(members))
	assert.EqualValues(t, 1, total)
	assert.Equal(t, 1, getTeam(t, b, crew.ID).NumMembers)
	assert.False(t, isBlocked(t, b, vic.ID, uma.ID), "blocks of the user")
	assert.False(t, isBlocked(t, b, kept.ID, uma.ID))
	_, total = listBlocked(t, b, uma.ID, forge.ListOptions{})
	assert.Zero(t, total, "blocks by the user")
	_, total = listBlocked(t, b, vic.ID, forge.ListOptions{})
	assert.Zero(t, total)

	// A repository leaves its teams.
	tmp := orgRepo(t, b, kept, "tmp", forge.RepoReady)
	orgUpdate(t, s, func(tx orgs.Tx) error { return tx.AddTeamRepo(ctx, crew.ID, tmp.ID) })
	assert.Equal(t, 2, getTeam(t, b, crew.ID).NumRepos)
	repoUpdate(t, b.Repos(), func(tx repos.Tx) error { return tx.DeleteRepo(ctx, tmp.ID) })
	orgView(t, s, func(tx orgs.Tx) error {
		has, err := tx.HasTeamRepo(ctx, crew.ID, tmp.ID)
		require.NoError(t, err)
		assert.False(t, has)
		return nil
	})
	assert.Equal(t, 1, getTeam(t, b, crew.ID).NumRepos)

	// A team takes its members and repositories with it, not the
	// organisation's memberships.
	orgUpdate(t, s, func(tx orgs.Tx) error { return tx.DeleteTeam(ctx, crew.ID) })
	orgView(t, s, func(tx orgs.Tx) error {
		in, err := tx.IsTeamMember(ctx, crew.ID, vic.ID)
		require.NoError(t, err)
		assert.False(t, in)
		has, err := tx.HasTeamRepo(ctx, crew.ID, tool.ID)
		require.NoError(t, err)
		assert.False(t, has)
		_, err = tx.Member(ctx, kept.ID, vic.ID)
		assert.NoError(t, err, "the organisation's membership stays")
		return nil
	})
	names, _ = listTeams(t, b, orgs.TeamFilter{MemberID: vic.ID}, forge.ListOptions{})
	assert.Empty(t, names)
	names, _ = listTeams(t, b, orgs.TeamFilter{RepoID: tool.ID}, forge.ListOptions{})
	assert.Empty(t, names)
	// The ids of deleted teams are not reused by new ones.
	fresh := newTeam(t, b, kept, "fresh")
	assert.NotEqual(t, crew.ID, fresh.ID)
	assert.Equal(t, [2]int{0, 0}, [2]int{getTeam(t, b, fresh.ID).NumMembers, getTeam(t, b, fresh.ID).NumRepos})
}
