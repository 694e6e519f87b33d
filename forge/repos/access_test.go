package repos_test

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/forge/repos"
)

// units is a permission's per-unit map for the units of unitRepo.
func units(code, issues, pulls, releases forge.AccessMode) map[forge.Unit]forge.AccessMode {
	m := map[forge.Unit]forge.AccessMode{}
	for u, mode := range map[forge.Unit]forge.AccessMode{
		forge.UnitCode: code, forge.UnitIssues: issues, forge.UnitPulls: pulls, forge.UnitReleases: releases,
	} {
		if mode > forge.AccessNone {
			m[u] = mode
		}
	}
	return m
}

func all(mode forge.AccessMode) forge.Permission {
	return forge.Permission{Mode: mode, Units: units(mode, mode, mode, mode)}
}

func TestAccess(t *testing.T) {
	t.Parallel()
	const (
		none  = forge.AccessNone
		read  = forge.AccessModeRead
		write = forge.AccessModeWrite
		admin = forge.AccessModeAdmin
		owner = forge.AccessModeOwner
	)
	org := func(id forge.ID, vis forge.Visibility) *forge.User {
		return forgetest.User(fmt.Sprintf("org%d", id), func(u *forge.User) {
			u.ID, u.Type, u.Visibility = id, forge.UserTypeOrganization, vis
		})
	}
	pubOrg, limOrg, privOrg := org(10, forge.VisibilityPublic), org(11, forge.VisibilityLimited), org(12, forge.VisibilityPrivate)
	alice := forgetest.User("alice", func(u *forge.User) { u.ID = 1 })
	bob := forgetest.User("bob", func(u *forge.User) { u.ID = 2 })
	root := forgetest.User("root", func(u *forge.User) { u.ID = 3; u.IsAdmin = true })
	rita := forgetest.User("rita", func(u *forge.User) { u.ID = 4; u.Restricted = true })
	repo := func(o *forge.User, private bool) *forge.Repository {
		return &forge.Repository{ID: 100 + o.ID, OwnerID: o.ID, Private: private,
			HasIssues: true, HasPullRequests: true, HasReleases: true}
	}
	team := func(mode forge.AccessMode, u map[forge.Unit]forge.AccessMode) []forge.TeamGrant {
		if u == nil {
			u = units(mode, mode, mode, mode)
		}
		return []forge.TeamGrant{{TeamID: 7, Mode: mode, Units: u}}
	}
	member := func(ts []forge.TeamGrant) repos.Grants { return repos.Grants{Member: true, Teams: ts} }

	tests := []struct {
		name  string
		actor forge.Actor
		repo  *forge.Repository
		owner *forge.User
		g     repos.Grants
		want  forge.Permission
	}{
		// Users' repositories.
		{"owner, private", forgetest.ActorFor(alice), repo(alice, true), alice, repos.Grants{}, all(owner)},
		{"stranger, user's public", forgetest.ActorFor(bob), repo(alice, false), alice, repos.Grants{}, all(read)},
		{"stranger, user's private", forgetest.ActorFor(bob), repo(alice, true), alice, repos.Grants{}, forge.Permission{}},
		{"collaborator, user's private", forgetest.ActorFor(bob), repo(alice, true), alice, repos.Grants{Collab: write}, all(write)},
		{"site admin, user's private", forgetest.ActorFor(root), repo(alice, true), alice, repos.Grants{}, all(owner)},
		{"anonymous, user's public", forge.Anonymous, repo(alice, false), alice, repos.Grants{}, all(read)},
		{"restricted, user's public", forgetest.ActorFor(rita), repo(alice, false), alice, repos.Grants{}, forge.Permission{}},
		{"restricted collaborator, user's public", forgetest.ActorFor(rita), repo(alice, false), alice, repos.Grants{Collab: read}, all(read)},

		// Organisations' repositories.
		{"Owners team", forgetest.ActorFor(bob), repo(privOrg, true), privOrg, member(team(owner, nil)), all(owner)},
		{"team admin is owner, as Forgejo", forgetest.ActorFor(bob), repo(privOrg, true), privOrg, member(team(admin, nil)), all(owner)},
		{"team write", forgetest.ActorFor(bob), repo(privOrg, true), privOrg, member(team(write, nil)), all(write)},
		{"team read", forgetest.ActorFor(bob), repo(privOrg, true), privOrg, member(team(read, nil)), all(read)},
		// A team that includes all repositories holds a row for each (the
		// store's part): its grant is like any team's.
		{"team with includes_all_repositories, write", forgetest.ActorFor(bob), repo(limOrg, true), limOrg,
			member([]forge.TeamGrant{{TeamID: 9, Mode: write, Units: units(write, write, write, write)}}), all(write)},
		{"team with units: code none, issues write, private", forgetest.ActorFor(bob), repo(privOrg, true), privOrg,
			member(team(read, units(none, write, read, none))),
			forge.Permission{Mode: read, Units: units(none, write, read, none)}},
		{"team with units: code none, issues write, public", forgetest.ActorFor(bob), repo(pubOrg, false), pubOrg,
			member(team(read, units(none, write, none, none))),
			forge.Permission{Mode: read, Units: units(read, write, read, read)}},
		{"two teams: max per unit", forgetest.ActorFor(bob), repo(privOrg, true), privOrg,
			member(append(team(read, units(write, read, none, none)), forge.TeamGrant{TeamID: 8, Mode: write, Units: units(read, write, none, write)})),
			forge.Permission{Mode: write, Units: units(write, write, none, write)}},
		{"collaborator and team", forgetest.ActorFor(bob), repo(privOrg, true), privOrg,
			repos.Grants{Collab: read, Member: true, Teams: team(write, units(none, write, none, none))},
			forge.Permission{Mode: write, Units: units(write, write, write, write)}},
		{"member without team, private org, public repository", forgetest.ActorFor(bob), repo(privOrg, false), privOrg, member(nil), all(read)},
		{"member without team, private repository", forgetest.ActorFor(bob), repo(pubOrg, true), pubOrg, member(nil), forge.Permission{}},
		{"collaborator of a private org's repository", forgetest.ActorFor(bob), repo(privOrg, true), privOrg, repos.Grants{Collab: write}, all(write)},
		{"stranger, public org, public", forgetest.ActorFor(bob), repo(pubOrg, false), pubOrg, repos.Grants{}, all(read)},
		{"stranger, limited org, public", forgetest.ActorFor(bob), repo(limOrg, false), limOrg, repos.Grants{}, all(read)},
		{"stranger, private org, public", forgetest.ActorFor(bob), repo(privOrg, false), privOrg, repos.Grants{}, forge.Permission{}},
		{"stranger, public org, private", forgetest.ActorFor(bob), repo(pubOrg, true), pubOrg, repos.Grants{}, forge.Permission{}},
		{"anonymous, public org, public", forge.Anonymous, repo(pubOrg, false), pubOrg, repos.Grants{}, all(read)},
		{"anonymous, limited org, public", forge.Anonymous, repo(limOrg, false), limOrg, repos.Grants{}, forge.Permission{}},
		{"site admin, private org, private", forgetest.ActorFor(root), repo(privOrg, true), privOrg, repos.Grants{}, all(owner)},
		{"public-only token of an Owners member, public org, private", forgetest.TokenActor(bob, "all", "public-only"),
			repo(pubOrg, true), pubOrg, member(team(owner, nil)), forge.Permission{}},
		{"public-only token, limited org, public", forgetest.TokenActor(bob, "all", "public-only"),
			repo(limOrg, false), limOrg, member(team(owner, nil)), forge.Permission{}},
		{"public-only token, public org, public", forgetest.TokenActor(bob, "all", "public-only"),
			repo(pubOrg, false), pubOrg, repos.Grants{}, all(read)},
		{"public-only token of a site admin, private org", forgetest.TokenActor(root, "all", "public-only"),
			repo(privOrg, false), privOrg, repos.Grants{}, forge.Permission{}},

		// Restricted users × organisation visibility × repository visibility.
		{"restricted, public org, public", forgetest.ActorFor(rita), repo(pubOrg, false), pubOrg, repos.Grants{}, forge.Permission{}},
		{"restricted, public org, private", forgetest.ActorFor(rita), repo(pubOrg, true), pubOrg, repos.Grants{}, forge.Permission{}},
		{"restricted, limited org, public", forgetest.ActorFor(rita), repo(limOrg, false), limOrg, repos.Grants{}, forge.Permission{}},
		{"restricted, limited org, private", forgetest.ActorFor(rita), repo(limOrg, true), limOrg, repos.Grants{}, forge.Permission{}},
		{"restricted, private org, public", forgetest.ActorFor(rita), repo(privOrg, false), privOrg, repos.Grants{}, forge.Permission{}},
		{"restricted, private org, private", forgetest.ActorFor(rita), repo(privOrg, true), privOrg, repos.Grants{}, forge.Permission{}},
		{"restricted member without team, public org, public", forgetest.ActorFor(rita), repo(pubOrg, false), pubOrg, member(nil), forge.Permission{}},
		{"restricted member with team read, private org, private", forgetest.ActorFor(rita), repo(privOrg, true), privOrg,
			member(team(read, nil)), all(read)},
		{"restricted member, team issues only, limited org, public", forgetest.ActorFor(rita), repo(limOrg, false), limOrg,
			member(team(read, units(none, read, none, none))), forge.Permission{Mode: read, Units: units(none, read, none, none)}},
		{"restricted collaborator, private org, private", forgetest.ActorFor(rita), repo(privOrg, true), privOrg,
			repos.Grants{Collab: write}, all(write)},
	}
	for _, tt := range tests {
		got := repos.Access(tt.actor, tt.repo, tt.owner, tt.g)
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, diff)
		}
	}
}

// TestAccessDisabledUnits: units the repository turned off are absent
// (none) whoever the actor is, external trackers and wikis replace the
// built-in ones.
func TestAccessDisabledUnits(t *testing.T) {
	t.Parallel()
	alice := forgetest.User("alice", func(u *forge.User) { u.ID = 1 })
	bob := forgetest.User("bob", func(u *forge.User) { u.ID = 2 })
	r := &forge.Repository{ID: 5, OwnerID: 1, HasIssues: true, ExternalTracker: &forge.ExternalTracker{URL: "https://x"},
		HasWiki: true, HasActions: true}
	want := map[forge.Unit]forge.AccessMode{forge.UnitCode: forge.AccessModeRead,
		forge.UnitExternalIssues: forge.AccessModeRead, forge.UnitWiki: forge.AccessModeRead, forge.UnitActions: forge.AccessModeRead}
	got := repos.Access(forgetest.ActorFor(bob), r, alice, repos.Grants{})
	if diff := cmp.Diff(forge.Permission{Mode: forge.AccessModeRead, Units: want}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if got.CanRead(forge.UnitIssues) || got.CanRead(forge.UnitPulls) || got.CanRead(forge.UnitReleases) {
		t.Errorf("disabled units are readable: %+v", got)
	}
	own := repos.Access(forgetest.ActorFor(alice), r, alice, repos.Grants{})
	if _, ok := own.Units[forge.UnitPulls]; ok {
		t.Errorf("the owner's units hold a disabled unit: %+v", own.Units)
	}
}
