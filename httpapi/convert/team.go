package convert

import (
	"net/url"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/httpapi/wire"
)

// Org converts an organisation as Forgejo's convert.ToOrganization: a
// pure function of the root URL and the account. The avatar is the
// uploaded image when there is one, else the e-mail's hash, as for users.
func Org(root string, u *forge.User) wire.Organization {
	avatar := root + "avatars/" + u.AvatarHash()
	if u.Avatar != "" {
		avatar = root + "avatars/" + url.PathEscape(u.Avatar)
	}
	return wire.Organization{
		ID:                        u.ID,
		Name:                      u.Name,
		UserName:                  u.Name,
		FullName:                  u.FullName,
		Email:                     u.Email,
		AvatarURL:                 avatar,
		Description:               u.Description,
		Website:                   u.Website,
		Location:                  u.Location,
		Visibility:                string(u.Visibility),
		RepoAdminChangeTeamAccess: u.RepoAdminChangeTeamAccess,
	}
}

// Team converts a team as Forgejo's convert.ToTeam: a pure function of
// the root URL, the team and its organisation, which is shown only when
// given (Forgejo fills it on create, GET /teams/{id} and /user/teams, and
// leaves it null elsewhere). Admin and owner teams list every unit at
// their mode (Forgejo's GetUnitNames, GetUnitsMap); other teams the units
// they hold, in Forgejo's unit order.
func Team(root string, t *forge.Team, org *forge.User) wire.Team {
	units := []string{}
	unitsMap := map[string]string{}
	for _, u := range forge.Units {
		mode, ok := t.Units[u]
		if t.Mode >= forge.AccessModeAdmin {
			mode, ok = t.Mode, true
		}
		if !ok {
			continue
		}
		units = append(units, string(u))
		unitsMap[string(u)] = repos.AccessModeString(mode)
	}
	out := wire.Team{
		ID:                      t.ID,
		Name:                    t.Name,
		Description:             t.Description,
		IncludesAllRepositories: t.IncludesAllRepos,
		CanCreateOrgRepo:        t.CanCreateOrgRepo,
		Permission:              wire.TeamPermission(repos.AccessModeString(t.Mode)),
		Units:                   units,
		UnitsMap:                &unitsMap,
	}
	if org != nil {
		o := Org(root, org)
		out.Organization = &o
	}
	return out
}

// Teams converts a list of teams, as a pending transfer's repo_transfer.teams: the
// teams without their organisation, as Forgejo's ToRepoTransfer (ToTeams
// with loadOrgs false); never nil.
func Teams(root string, list []*forge.Team) []wire.Team {
	return All(list, func(t *forge.Team) wire.Team { return Team(root, t, nil) })
}
