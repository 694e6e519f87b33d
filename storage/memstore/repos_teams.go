package memstore

import (
	"cmp"
	"context"
	"maps"
	"slices"

	"github.com/hearthforge/hearth/forge"
)

// The reads of organisations and teams the repository permission needs,
// and the team rows a repository's creation, transfer and deletion write
// (repos.Tx).

func (t *tx) OrgMemberships(ctx context.Context, userID forge.ID, orgIDs []forge.ID) (map[forge.ID]bool, error) {
	if err := t.read(ctx); err != nil {
		return nil, err
	}
	out := map[forge.ID]bool{}
	for _, id := range orgIDs {
		if _, ok := t.st.orgMembers[orgUser{id, userID}]; ok {
			out[id] = true
		}
	}
	return out, nil
}

func (t *tx) TeamGrants(ctx context.Context, userID forge.ID, repoIDs []forge.ID) (map[forge.ID][]forge.TeamGrant, error) {
	if err := t.read(ctx); err != nil {
		return nil, err
	}
	out := map[forge.ID][]forge.TeamGrant{}
	for _, id := range repoIDs {
		if _, done := out[id]; done {
			continue
		}
		for _, team := range t.st.teamsGranting(id, userID) {
			out[id] = append(out[id], forge.TeamGrant{TeamID: team.ID, Mode: team.Mode, Units: maps.Clone(team.Units)})
		}
	}
	return out, nil
}

// teamsGranting are the teams, by id, of the owner of repository repoID that
// have it and that userID is in.
func (s *state) teamsGranting(repoID, userID forge.ID) []forge.Team {
	r, ok := s.repos[repoID]
	if !ok {
		return nil
	}
	var out []forge.Team
	for k := range s.teamRepos {
		if k.repo != repoID {
			continue
		}
		team, ok := s.teams[k.team]
		if _, in := s.teamUsers[teamUser{k.team, userID}]; ok && in && team.OrgID == r.OwnerID {
			out = append(out, team)
		}
	}
	slices.SortFunc(out, func(a, b forge.Team) int { return cmp.Compare(a.ID, b.ID) })
	return out
}

func (t *tx) OrgTeams(ctx context.Context, orgID, userID forge.ID) ([]*forge.Team, error) {
	if err := t.read(ctx); err != nil {
		return nil, err
	}
	out := []*forge.Team{}
	for _, team := range t.st.teams {
		if team.OrgID != orgID {
			continue
		}
		if _, in := t.st.teamUsers[teamUser{team.ID, userID}]; userID != 0 && !in {
			continue
		}
		c := team
		c.Units, c.NumMembers, c.NumRepos = maps.Clone(team.Units), 0, 0
		out = append(out, &c)
	}
	slices.SortFunc(out, func(a, b *forge.Team) int { return cmp.Compare(a.ID, b.ID) })
	return out, nil
}

func (t *tx) AddRepoTeams(ctx context.Context, repoID forge.ID, teamIDs []forge.ID) error {
	if _, err := writeRow(ctx, t, t.st.repos, repoID, "add repository teams: repository"); err != nil {
		return err
	}
	for _, id := range teamIDs {
		if _, ok := t.st.teams[id]; !ok {
			return notFound("add repository teams: team")
		}
	}
	for _, id := range teamIDs {
		t.st.teamRepos[teamRepo{id, repoID}] = struct{}{}
	}
	return nil
}

func (t *tx) DeleteRepoTeams(ctx context.Context, repoID forge.ID) error {
	if err := t.write(ctx); err != nil {
		return err
	}
	deleteWhere(t.st.teamRepos, func(k teamRepo, _ struct{}) bool { return k.repo == repoID })
	return nil
}
