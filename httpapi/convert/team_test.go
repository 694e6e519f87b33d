package convert

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/httpapi/wire"
)

func TestTeamFrom(t *testing.T) {
	t.Parallel()
	org := &forge.User{ID: 7, Name: "acme", Type: forge.UserTypeOrganization, Visibility: forge.VisibilityLimited,
		Email: "a@acme.example", FullName: "Acme"}
	all := func(mode string) (units []string, m map[string]string) {
		m = map[string]string{}
		for _, u := range forge.Units {
			units = append(units, string(u))
			m[string(u)] = mode
		}
		return units, m
	}
	ownerUnits, ownerMap := all("owner")
	adminUnits, adminMap := all("admin")
	for name, tt := range map[string]struct {
		team      forge.Team
		org       *forge.User
		units     []string
		unitsMap  map[string]string
		perm      string
		withOrgID int64
	}{
		"owners team: every unit at owner, organisation shown": {
			team: forge.Team{ID: 1, Name: "Owners", Mode: forge.AccessModeOwner, IncludesAllRepos: true, CanCreateOrgRepo: true},
			org:  org, units: ownerUnits, unitsMap: ownerMap, perm: "owner", withOrgID: 7,
		},
		"admin team: every unit at admin, external units too (Forgejo's GetUnitsMap)": {
			team: forge.Team{ID: 2, Name: "admins", Mode: forge.AccessModeAdmin,
				Units: map[forge.Unit]forge.AccessMode{forge.UnitCode: forge.AccessModeAdmin, forge.UnitExternalWiki: forge.AccessModeRead}},
			units: adminUnits, unitsMap: adminMap, perm: "admin",
		},
		"units map: the units held, in Forgejo's order, none included": {
			team: forge.Team{ID: 3, Name: "devs", Mode: forge.AccessModeRead, Units: map[forge.Unit]forge.AccessMode{
				forge.UnitPulls: forge.AccessModeWrite, forge.UnitCode: forge.AccessModeRead, forge.UnitWiki: forge.AccessNone}},
			units:    []string{"repo.code", "repo.pulls", "repo.wiki"},
			unitsMap: map[string]string{"repo.code": "read", "repo.pulls": "write", "repo.wiki": "none"},
			perm:     "read",
		},
		"no units: empty lists, not null": {
			team:  forge.Team{ID: 4, Name: "empty"},
			units: []string{}, unitsMap: map[string]string{}, perm: "none",
		},
	} {
		t.Run(name, func(t *testing.T) {
			got := Team("https://forge.example/", &tt.team, tt.org)
			want := wire.Team{ID: tt.team.ID, Name: tt.team.Name, IncludesAllRepositories: tt.team.IncludesAllRepos,
				CanCreateOrgRepo: tt.team.CanCreateOrgRepo, Permission: wire.TeamPermission(tt.perm), Units: tt.units, UnitsMap: &tt.unitsMap}
			if tt.org != nil {
				o := Org("https://forge.example/", tt.org)
				want.Organization = &o
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("teamFrom (-want +got):\n%s", diff)
			}
			if tt.withOrgID != 0 && got.Organization.ID != tt.withOrgID {
				t.Errorf("organization id %d", got.Organization.ID)
			}
		})
	}
}

func TestOrgFrom(t *testing.T) {
	t.Parallel()
	u := &forge.User{ID: 9, Name: "Acme", FullName: "Acme Inc", Email: "Info@Acme.example ", Description: "d", Website: "w",
		Location: "l", Visibility: forge.VisibilityPrivate, RepoAdminChangeTeamAccess: true}
	got := Org("https://forge.example/", u)
	want := wire.Organization{ID: 9, Name: "Acme", UserName: "Acme", FullName: "Acme Inc", Email: "Info@Acme.example ",
		AvatarURL: "https://forge.example/avatars/" + u.AvatarHash(), Description: "d", Website: "w", Location: "l",
		Visibility: "private", RepoAdminChangeTeamAccess: true}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("orgFrom (-want +got):\n%s", diff)
	}
	u.Avatar = "org-9-abc"
	if got := Org("https://forge.example/", u).AvatarURL; got != "https://forge.example/avatars/org-9-abc" {
		t.Errorf("an uploaded avatar is %s", got)
	}
}
