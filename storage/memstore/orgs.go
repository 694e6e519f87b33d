package memstore

import (
	"cmp"
	"context"
	"maps"
	"slices"
	"strings"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/orgs"
	"github.com/hearthforge/hearth/issues"
)

// Orgs returns the store package forge/orgs consumes.
func (s *Store) Orgs() orgs.Store { return storeOf(s, func(t *tx) orgs.Tx { return orgTx{t} }) }

// orgTx is a transaction seen as an orgs.Tx. It is its own type (embedding
// *tx for the account and repository reads orgs.Tx shares with auth.Tx and
// repos.Tx) so that its method names never collide with those of other
// domains' transactions.
type orgTx struct{ *tx }

var _ orgs.Tx = orgTx{}

// byUserName orders accounts by name ignoring case, then id, as the SQL
// backends' ORDER BY lower_name.
func byUserName(a, b *forge.User) int {
	return cmp.Or(strings.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name)), cmp.Compare(a.ID, b.ID))
}

// usersByName returns one page of the accounts with the ids, ordered by
// name, and their number.
func (t orgTx) usersByName(ids []forge.ID, o forge.ListOptions) ([]*forge.User, int64) {
	all := make([]*forge.User, 0, len(ids))
	for _, id := range ids {
		if r, ok := t.st.users[id]; ok {
			u := r.u
			all = append(all, &u)
		}
	}
	slices.SortFunc(all, byUserName)
	lo, hi := o.Normalize().Bounds(len(all))
	return append([]*forge.User{}, all[lo:hi]...), int64(len(all))
}

// nameTaken reports whether another account than id has the name.
func (s *state) nameTaken(id forge.ID, name string) bool {
	for _, r := range s.users {
		if r.u.ID != id && strings.EqualFold(r.u.Name, name) {
			return true
		}
	}
	return false
}

func (t orgTx) isOrg(id forge.ID) bool {
	r, ok := t.st.users[id]
	return ok && r.u.Type == forge.UserTypeOrganization
}

func (t orgTx) CreateOrg(ctx context.Context, org *forge.User) error {
	if err := t.write(ctx); err != nil {
		return err
	}
	if t.st.nameTaken(0, org.Name) {
		return conflict("create organization")
	}
	v := storedUser(org)
	v.Type = forge.UserTypeOrganization
	v.ID = t.st.nextID("users")
	t.st.users[v.ID] = userRow{u: v}
	org.ID = v.ID
	return nil
}

func (t orgTx) UpdateOrg(ctx context.Context, org *forge.User) error {
	if err := t.write(ctx); err != nil {
		return err
	}
	r, ok := t.st.users[org.ID]
	if !ok || r.u.Type != forge.UserTypeOrganization {
		return notFound("update organization")
	}
	if t.st.nameTaken(org.ID, org.Name) {
		return conflict("update organization")
	}
	r.u = storedUser(org)
	r.u.Type = forge.UserTypeOrganization
	t.st.users[org.ID] = r
	return nil
}

func (t orgTx) DeleteOrg(ctx context.Context, id forge.ID) error {
	if err := t.write(ctx); err != nil {
		return err
	}
	if !t.isOrg(id) {
		return notFound("delete organization")
	}
	return t.DeleteUser(ctx, id)
}

func (t orgTx) ListOrgs(ctx context.Context, f orgs.OrgFilter, o forge.ListOptions) ([]*forge.User, int64, error) {
	if err := t.read(ctx); err != nil {
		return nil, 0, err
	}
	var ids []forge.ID
	for id, r := range t.st.users {
		if r.u.Type != forge.UserTypeOrganization {
			continue
		}
		if len(f.Visibilities) > 0 && !slices.Contains(f.Visibilities, r.u.Visibility) {
			continue
		}
		if f.MemberID != 0 {
			public, ok := t.st.orgMembers[orgUser{id, f.MemberID}]
			if !ok || f.PublicMember && !public {
				continue
			}
		}
		if _, ok := t.st.orgMembers[orgUser{id, f.ViewerMemberID}]; f.ViewerMemberID != 0 && !ok {
			continue
		}
		ids = append(ids, id)
	}
	list, n := t.usersByName(ids, o)
	return list, n, nil
}

func (t orgTx) SetMember(ctx context.Context, m forge.Membership) error {
	if err := writeRef(ctx, t, t.st.users, m.OrgID, "set member"); err != nil {
		return err
	}
	if _, ok := t.st.users[m.UserID]; !ok {
		return missingRef("set member")
	}
	t.st.orgMembers[orgUser{m.OrgID, m.UserID}] = m.Public
	return nil
}

func (t orgTx) Member(ctx context.Context, orgID, userID forge.ID) (forge.Membership, error) {
	if err := t.read(ctx); err != nil {
		return forge.Membership{}, err
	}
	public, ok := t.st.orgMembers[orgUser{orgID, userID}]
	if !ok {
		return forge.Membership{}, notFound("member")
	}
	return forge.Membership{OrgID: orgID, UserID: userID, Public: public}, nil
}

func (t orgTx) DeleteMember(ctx context.Context, orgID, userID forge.ID) error {
	if err := t.write(ctx); err != nil {
		return err
	}
	delete(t.st.orgMembers, orgUser{orgID, userID})
	return nil
}

func (t orgTx) ListMembers(ctx context.Context, orgID forge.ID, publicOnly bool, o forge.ListOptions) ([]*forge.User, int64, error) {
	if err := t.read(ctx); err != nil {
		return nil, 0, err
	}
	var ids []forge.ID
	for k, public := range t.st.orgMembers {
		if k.org == orgID && (public || !publicOnly) {
			ids = append(ids, k.user)
		}
	}
	list, n := t.usersByName(ids, o)
	return list, n, nil
}

// storedTeam is t as stored: units cloned (absent units and unknown keys
// are no rows), counters not stored.
func storedTeam(t *forge.Team) forge.Team {
	v := *t
	v.Units = map[forge.Unit]forge.AccessMode{}
	for u, m := range t.Units {
		if _, ok := forge.ParseUnit(string(u)); ok {
			v.Units[u] = m
		}
	}
	v.NumMembers, v.NumRepos = 0, 0
	return v
}

// outTeam returns a stored team for a caller to keep, counted.
func (t orgTx) outTeam(v forge.Team) *forge.Team {
	v.Units = maps.Clone(v.Units)
	for k := range t.st.teamUsers {
		if k.team == v.ID {
			v.NumMembers++
		}
	}
	for k := range t.st.teamRepos {
		if k.team == v.ID && t.st.readyRepo(k.repo) && t.st.teamHasRepo(k) {
			v.NumRepos++
		}
	}
	return &v
}

// readyRepo reports whether the repository exists and is ready: team rows
// of others are not counted (NumRepos counts what ListTeamRepos lists),
// and rows of deleted repositories are as gone as SQL's ON DELETE CASCADE
// makes them.
func (s *state) readyRepo(id forge.ID) bool {
	r, ok := s.repos[id]
	return ok && r.Status == forge.RepoReady
}

// teamHasRepo reports whether the team has the repository: a row for it,
// and the repository exists and belongs to the team's organisation (a row
// left for a repository that moved to another owner gives nothing).
func (s *state) teamHasRepo(k teamRepo) bool {
	if _, ok := s.teamRepos[k]; !ok {
		return false
	}
	r, ok := s.repos[k.repo]
	return ok && r.OwnerID == s.teams[k.team].OrgID
}

func (t orgTx) teamNameTaken(id, orgID forge.ID, name string) bool {
	for _, tm := range t.st.teams {
		if tm.ID != id && tm.OrgID == orgID && strings.EqualFold(tm.Name, name) {
			return true
		}
	}
	return false
}

func (t orgTx) CreateTeam(ctx context.Context, tm *forge.Team) error {
	if err := writeRef(ctx, t, t.st.users, tm.OrgID, "create team"); err != nil {
		return err
	}
	if t.teamNameTaken(0, tm.OrgID, tm.Name) {
		return conflict("create team")
	}
	v := storedTeam(tm)
	v.ID = t.st.nextID("team")
	t.st.teams[v.ID] = v
	tm.ID = v.ID
	return nil
}

func (t orgTx) Team(ctx context.Context, id forge.ID) (*forge.Team, error) {
	return readAs(ctx, t, t.st.teams, id, "team", t.outTeam)
}

func (t orgTx) TeamByName(ctx context.Context, orgID forge.ID, name string) (*forge.Team, error) {
	if err := t.read(ctx); err != nil {
		return nil, err
	}
	for _, v := range t.st.teams {
		if v.OrgID == orgID && strings.EqualFold(v.Name, name) {
			return t.outTeam(v), nil
		}
	}
	return nil, notFound("team")
}

func (t orgTx) UpdateTeam(ctx context.Context, tm *forge.Team) error {
	old, err := writeRow(ctx, t, t.st.teams, tm.ID, "update team")
	if err != nil {
		return err
	}
	if t.teamNameTaken(tm.ID, old.OrgID, tm.Name) {
		return conflict("update team")
	}
	v := storedTeam(tm)
	v.OrgID = old.OrgID // the column is not written
	t.st.teams[tm.ID] = v
	return nil
}

func (t orgTx) DeleteTeam(ctx context.Context, id forge.ID) error {
	return deleteRow(ctx, t, t.st.teams, id, "delete team", func(id forge.ID) {
		t.st.deleteTeams(map[forge.ID]bool{id: true})
	})
}

// deleteTeams removes teams with their members, repositories and the
// reviews requested from them (the SQL schema's review_team_delete).
func (s *state) deleteTeams(ids map[forge.ID]bool) {
	deleteWhere(s.teams, func(id forge.ID, _ forge.Team) bool { return ids[id] })
	deleteWhere(s.reviews, func(_ forge.ID, r issues.Review) bool {
		return r.Type == issues.ReviewRequest && r.ReviewerTeamID != 0 && ids[r.ReviewerTeamID]
	})
	deleteWhere(s.teamUsers, func(k teamUser, _ struct{}) bool { return ids[k.team] })
	deleteWhere(s.teamRepos, func(k teamRepo, _ struct{}) bool { return ids[k.team] })
}

func (t orgTx) ListTeams(ctx context.Context, f orgs.TeamFilter, o forge.ListOptions) ([]*forge.Team, int64, error) {
	if err := t.read(ctx); err != nil {
		return nil, 0, err
	}
	kw := strings.ToLower(f.Keyword)
	var all []*forge.Team
	for _, v := range t.st.teams {
		if f.OrgID != 0 && v.OrgID != f.OrgID {
			continue
		}
		if f.MemberID != 0 {
			if _, ok := t.st.teamUsers[teamUser{v.ID, f.MemberID}]; !ok {
				continue
			}
		}
		if f.RepoID != 0 {
			if !t.st.teamHasRepo(teamRepo{v.ID, f.RepoID}) {
				continue
			}
		}
		if len(f.OrgVisibilities) > 0 && !slices.Contains(f.OrgVisibilities, t.st.users[v.OrgID].u.Visibility) {
			continue
		}
		if kw != "" && !strings.Contains(strings.ToLower(v.Name), kw) &&
			!(f.IncludeDesc && strings.Contains(strings.ToLower(v.Description), kw)) {
			continue
		}
		all = append(all, t.outTeam(v))
	}
	slices.SortFunc(all, func(a, b *forge.Team) int {
		return cmp.Or(strings.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name)), cmp.Compare(a.ID, b.ID))
	})
	lo, hi := o.Normalize().Bounds(len(all))
	return append([]*forge.Team{}, all[lo:hi]...), int64(len(all)), nil
}

func (t orgTx) AddTeamMember(ctx context.Context, teamID, userID forge.ID) error {
	if err := writeRef(ctx, t, t.st.teams, teamID, "add team member"); err != nil {
		return err
	}
	if _, ok := t.st.users[userID]; !ok {
		return missingRef("add team member")
	}
	t.st.teamUsers[teamUser{teamID, userID}] = struct{}{}
	return nil
}

func (t orgTx) RemoveTeamMember(ctx context.Context, teamID, userID forge.ID) error {
	if err := t.write(ctx); err != nil {
		return err
	}
	k := teamUser{teamID, userID}
	if _, ok := t.st.teamUsers[k]; !ok {
		return notFound("team member")
	}
	delete(t.st.teamUsers, k)
	return nil
}

func (t orgTx) IsTeamMember(ctx context.Context, teamID, userID forge.ID) (bool, error) {
	if err := t.read(ctx); err != nil {
		return false, err
	}
	_, ok := t.st.teamUsers[teamUser{teamID, userID}]
	return ok, nil
}

func (t orgTx) ListTeamMembers(ctx context.Context, teamID forge.ID, o forge.ListOptions) ([]*forge.User, int64, error) {
	if err := t.read(ctx); err != nil {
		return nil, 0, err
	}
	var ids []forge.ID
	for k := range t.st.teamUsers {
		if k.team == teamID {
			ids = append(ids, k.user)
		}
	}
	list, n := t.usersByName(ids, o)
	return list, n, nil
}

func (t orgTx) AddTeamRepo(ctx context.Context, teamID, repoID forge.ID) error {
	if err := writeRef(ctx, t, t.st.teams, teamID, "add team repository"); err != nil {
		return err
	}
	if _, ok := t.st.repos[repoID]; !ok {
		return missingRef("add team repository")
	}
	t.st.teamRepos[teamRepo{teamID, repoID}] = struct{}{}
	return nil
}

func (t orgTx) RemoveTeamRepo(ctx context.Context, teamID, repoID forge.ID) error {
	if err := t.write(ctx); err != nil {
		return err
	}
	k := teamRepo{teamID, repoID}
	if !t.st.teamHasRepo(k) {
		return notFound("team repository")
	}
	delete(t.st.teamRepos, k)
	return nil
}

func (t orgTx) HasTeamRepo(ctx context.Context, teamID, repoID forge.ID) (bool, error) {
	if err := t.read(ctx); err != nil {
		return false, err
	}
	return t.st.teamHasRepo(teamRepo{teamID, repoID}), nil
}

func (t orgTx) ListTeamRepos(ctx context.Context, teamID forge.ID, publicOnly bool, o forge.ListOptions) ([]*forge.Repository, int64, error) {
	if err := t.read(ctx); err != nil {
		return nil, 0, err
	}
	var all []*forge.Repository
	for k := range t.st.teamRepos {
		if k.team == teamID && t.st.readyRepo(k.repo) && t.st.teamHasRepo(k) && !(publicOnly && t.st.repos[k.repo].Private) {
			all = append(all, outRepo(t.st.repos[k.repo]))
		}
	}
	slices.SortFunc(all, func(a, b *forge.Repository) int {
		return cmp.Or(strings.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name)), cmp.Compare(a.ID, b.ID))
	})
	lo, hi := o.Normalize().Bounds(len(all))
	return append([]*forge.Repository{}, all[lo:hi]...), int64(len(all)), nil
}

func (t orgTx) ListOwnerRepoIDs(ctx context.Context, ownerID forge.ID) ([]forge.ID, error) {
	if err := t.read(ctx); err != nil {
		return nil, err
	}
	return idsWhere(t.st.repos, func(id forge.ID, r forge.Repository) (forge.ID, bool) {
		return id, r.OwnerID == ownerID && r.Status == forge.RepoReady
	}), nil
}

func (t orgTx) SetBlock(ctx context.Context, b forge.Block) error {
	if err := writeRef(ctx, t, t.st.users, b.BlockerID, "set block"); err != nil {
		return err
	}
	if _, ok := t.st.users[b.UserID]; !ok {
		return missingRef("set block")
	}
	k := blockKey{b.BlockerID, b.UserID}
	if _, ok := t.st.blocks[k]; !ok {
		t.st.blocks[k] = ts(b.Created)
	}
	return nil
}

func (t orgTx) DeleteBlock(ctx context.Context, blockerID, userID forge.ID) error {
	if err := t.write(ctx); err != nil {
		return err
	}
	k := blockKey{blockerID, userID}
	if _, ok := t.st.blocks[k]; !ok {
		return notFound("block")
	}
	delete(t.st.blocks, k)
	return nil
}

func (t orgTx) IsBlocked(ctx context.Context, blockerID, userID forge.ID) (bool, error) {
	if err := t.read(ctx); err != nil {
		return false, err
	}
	_, ok := t.st.blocks[blockKey{blockerID, userID}]
	return ok, nil
}

func (t orgTx) ListBlocked(ctx context.Context, blockerID forge.ID, o forge.ListOptions) ([]forge.Block, int64, error) {
	if err := t.read(ctx); err != nil {
		return nil, 0, err
	}
	all := []forge.Block{}
	for k, at := range t.st.blocks {
		if k.blocker == blockerID {
			all = append(all, forge.Block{BlockerID: k.blocker, UserID: k.user, Created: at})
		}
	}
	// Newest first; among blocks of one second, the last blocked user
	// (highest id) first.
	slices.SortFunc(all, func(a, b forge.Block) int {
		return cmp.Or(b.Created.Compare(a.Created), cmp.Compare(b.UserID, a.UserID))
	})
	lo, hi := o.Normalize().Bounds(len(all))
	return append([]forge.Block{}, all[lo:hi]...), int64(len(all)), nil
}
