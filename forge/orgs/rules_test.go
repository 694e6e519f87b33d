package orgs_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/forge/orgs"
)

const (
	none  = forge.AccessNone
	read  = forge.AccessModeRead
	write = forge.AccessModeWrite
	admin = forge.AccessModeAdmin
	owner = forge.AccessModeOwner
)

func TestTeamAccess(t *testing.T) {
	t.Parallel()
	units := func(kv ...any) map[forge.Unit]forge.AccessMode {
		m := map[forge.Unit]forge.AccessMode{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i].(forge.Unit)] = kv[i+1].(forge.AccessMode)
		}
		return m
	}
	tests := []struct {
		name       string
		permission string
		units      []string
		unitsMap   map[string]string
		mode       forge.AccessMode
		want       map[forge.Unit]forge.AccessMode
		err        string
	}{
		{name: "rule 1: admin ignores units", permission: "admin", units: []string{"repo.code"},
			unitsMap: map[string]string{"repo.code": "read"}, mode: admin, want: orgs.AdminUnits()},
		{name: "rule 2: minimum of the map", permission: "read",
			unitsMap: map[string]string{"repo.code": "write", "repo.issues": "admin", "repo.wiki": "none"},
			mode:     write, want: units(forge.UnitCode, write, forge.UnitIssues, admin, forge.UnitWiki, none)},
		{name: "rule 2: external units do not count",
			unitsMap: map[string]string{"repo.ext_issues": "read", "repo.pulls": "write"},
			mode:     write, want: units(forge.UnitExternalIssues, read, forge.UnitPulls, write)},
		{name: "rule 2: all none is none", unitsMap: map[string]string{"repo.code": "none"},
			mode: none, want: units(forge.UnitCode, none)},
		{name: "rule 2: every unit admin makes an admin team", unitsMap: map[string]string{"repo.code": "admin"},
			mode: admin, want: orgs.AdminUnits()},
		{name: "rule 2: keys ignore case, unknown ones are dropped", permission: "write",
			unitsMap: map[string]string{"REPO.Code": "write", "repo.nothing": "read"},
			mode:     write, want: units(forge.UnitCode, write)},
		{name: "rule 3: units at the permission", permission: "write", units: []string{"repo.code", "repo.issues", "bogus"},
			mode: write, want: units(forge.UnitCode, write, forge.UnitIssues, write)},
		{name: "rule 3: no permission is none", units: []string{"repo.code"},
			mode: none, want: units(forge.UnitCode, none)},
		{name: "owner is no permission", permission: "owner", units: []string{"repo.code"},
			mode: none, want: units(forge.UnitCode, none)},
		{name: "rule 4: no units", permission: "write", err: "units permission should not be empty"},
		{name: "rule 4: nothing at all", err: "units permission should not be empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			mode, got, err := orgs.TeamAccess(tt.permission, tt.units, tt.unitsMap)
			if tt.err != "" {
				requireErr(t, err, forge.ErrInvalid, tt.err)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tt.mode, mode)
			require.Equal(t, tt.want, got)
		})
	}
}

func TestAdminAndOwnerUnits(t *testing.T) {
	t.Parallel()
	a, o := orgs.AdminUnits(), orgs.OwnerUnits()
	require.Len(t, a, len(forge.Units))
	require.Equal(t, admin, a[forge.UnitCode])
	require.Equal(t, read, a[forge.UnitExternalWiki])
	require.Equal(t, owner, o[forge.UnitActions])
	require.Equal(t, read, o[forge.UnitExternalIssues])
}

func TestVisible(t *testing.T) {
	t.Parallel()
	stranger := forgetest.User("stranger")
	stranger.ID = 10
	adminU := forgetest.User("root", forgetest.Admin)
	adminU.ID = 11
	restricted := forgetest.User("r", func(u *forge.User) { u.Restricted = true })
	restricted.ID = 12
	actors := []struct {
		name   string
		actor  forge.Actor
		member bool
	}{
		{"anonymous", forge.Anonymous, false},
		{"stranger", forgetest.ActorFor(stranger), false},
		{"restricted", forgetest.ActorFor(restricted), false},
		{"restricted member", forgetest.ActorFor(restricted), true},
		{"member", forgetest.ActorFor(stranger), true},
		{"admin", forgetest.ActorFor(adminU), false},
		{"admin public-only", forgetest.TokenActor(adminU, "all", "public-only"), false},
		{"member public-only", forgetest.TokenActor(stranger, "all", "public-only"), true},
	}
	// want per actor: public, limited, private.
	want := map[string][3]bool{
		"anonymous":          {true, false, false},
		"stranger":           {true, true, false},
		"restricted":         {false, false, false}, // Forgejo: restricted users see only their organisations
		"restricted member":  {true, true, true},
		"member":             {true, true, true},
		"admin":              {true, true, true},
		"admin public-only":  {true, false, false},
		"member public-only": {true, false, false},
	}
	for _, a := range actors {
		for i, vis := range []forge.Visibility{forge.VisibilityPublic, forge.VisibilityLimited, forge.VisibilityPrivate} {
			org := &forge.User{ID: 99, Name: "o", Type: forge.UserTypeOrganization, Visibility: vis}
			require.Equal(t, want[a.name][i], orgs.Visible(a.actor, org, a.member), "%s on %s", a.name, vis)
		}
	}
}

func TestListVisibilities(t *testing.T) {
	t.Parallel()
	u := forgetest.User("u")
	root := forgetest.User("root", forgetest.Admin)
	pub, lim, priv := forge.VisibilityPublic, forge.VisibilityLimited, forge.VisibilityPrivate
	require.Equal(t, []forge.Visibility{pub}, orgs.ListVisibilities(forge.Anonymous))
	require.Equal(t, []forge.Visibility{pub}, orgs.ListVisibilities(forgetest.TokenActor(u, "public-only", "all")))
	require.Equal(t, []forge.Visibility{pub, lim}, orgs.ListVisibilities(forgetest.ActorFor(u)))
	require.Equal(t, []forge.Visibility{pub, lim, priv}, orgs.ListVisibilities(forgetest.ActorFor(root)))
	require.Equal(t, []forge.Visibility{pub}, orgs.ListVisibilities(forgetest.TokenActor(root, "public-only", "all")))
}

func TestCheckMember(t *testing.T) {
	t.Parallel()
	u := forgetest.ActorFor(forgetest.User("u"))
	root := forgetest.ActorFor(forgetest.User("root", forgetest.Admin))
	tests := []struct {
		name                            string
		actor                           forge.Actor
		actorMember, self, targetMember bool
		want                            orgs.MemberAnswer
	}{
		{"anonymous", forge.Anonymous, false, false, true, orgs.AskPublic},
		{"member asks of a member", u, true, false, true, orgs.IsAMember},
		{"member asks of a stranger", u, true, false, false, orgs.NotAMember},
		{"admin asks", root, false, false, true, orgs.IsAMember},
		{"stranger asks of themself", u, false, true, false, orgs.NotAMember},
		{"stranger asks of a member", u, false, false, true, orgs.AskPublic},
	}
	for _, tt := range tests {
		require.Equal(t, tt.want, orgs.CheckMember(tt.actor, tt.actorMember, tt.self, tt.targetMember), tt.name)
	}
}

func TestOrgPermissions(t *testing.T) {
	t.Parallel()
	ownersTeam := &forge.Team{Name: forge.OwnersTeam, Mode: owner}
	tests := []struct {
		name  string
		teams []*forge.Team
		want  orgs.Permissions
	}{
		{"no team", nil, orgs.Permissions{}},
		{"none team", []*forge.Team{{Mode: none}}, orgs.Permissions{}},
		{"read", []*forge.Team{{Mode: read}}, orgs.Permissions{CanRead: true}},
		{"write and create", []*forge.Team{{Mode: read}, {Mode: write, CanCreateOrgRepo: true}},
			orgs.Permissions{CanRead: true, CanWrite: true, CanCreateRepository: true}},
		{"admin", []*forge.Team{{Mode: admin}}, orgs.Permissions{CanRead: true, CanWrite: true, IsAdmin: true}},
		{"owner", []*forge.Team{ownersTeam}, orgs.Permissions{CanRead: true, CanWrite: true, IsAdmin: true, IsOwner: true, CanCreateRepository: true}},
	}
	for _, tt := range tests {
		require.Equal(t, tt.want, orgs.OrgPermissions(tt.teams), tt.name)
	}
}

func TestCheckTeamName(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]string{
		"":                        "[Name]: Required",
		"a b":                     "[Name]: AlphaDashDot",
		"new":                     "name is reserved [name: new]",
		"New":                     "name is reserved [name: New]",
		string(make([]byte, 256)): "[Name]: MaxSize",
		"dev.team-1_x":            "",
	} {
		err := orgs.CheckTeamName(name)
		if want == "" {
			require.NoError(t, err)
			continue
		}
		requireErr(t, err, forge.ErrInvalid, want)
	}
}

func TestParseAccessMode(t *testing.T) {
	t.Parallel()
	for s, want := range map[string]forge.AccessMode{"read": read, "write": write, "admin": admin, "owner": none, "": none, "READ": none} {
		require.Equal(t, want, orgs.ParseAccessMode(s), s)
	}
}
