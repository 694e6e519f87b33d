package storetest

import (
	"context"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/orgs"
)

// The recording wrapper of orgs.Tx (see record.go).

type recOrgsStore struct {
	s   orgs.Store
	rec *recorder
}

func (r recOrgsStore) Update(ctx context.Context, fn func(orgs.Tx) error) error {
	return r.s.Update(ctx, func(tx orgs.Tx) error { return fn(recOrgsTx{tx, r.rec}) })
}

func (r recOrgsStore) View(ctx context.Context, fn func(orgs.Tx) error) error {
	return r.s.View(ctx, func(tx orgs.Tx) error { return fn(recOrgsTx{tx, r.rec}) })
}

type recOrgsTx struct {
	orgs.Tx
	rec *recorder
}

func (x recOrgsTx) UserByName(ctx context.Context, name string) (*forge.User, error) {
	x.rec.hit("orgs.Tx.UserByName")
	return x.Tx.UserByName(ctx, name)
}

func (x recOrgsTx) UserByID(ctx context.Context, id forge.ID) (*forge.User, error) {
	x.rec.hit("orgs.Tx.UserByID")
	return x.Tx.UserByID(ctx, id)
}

func (x recOrgsTx) UsersByID(ctx context.Context, ids []forge.ID) (map[forge.ID]*forge.User, error) {
	x.rec.hit("orgs.Tx.UsersByID")
	return x.Tx.UsersByID(ctx, ids)
}

func (x recOrgsTx) CreateOrg(ctx context.Context, org *forge.User) error {
	x.rec.hit("orgs.Tx.CreateOrg")
	return x.Tx.CreateOrg(ctx, org)
}

func (x recOrgsTx) UpdateOrg(ctx context.Context, org *forge.User) error {
	x.rec.hit("orgs.Tx.UpdateOrg")
	return x.Tx.UpdateOrg(ctx, org)
}

func (x recOrgsTx) DeleteOrg(ctx context.Context, id forge.ID) error {
	x.rec.hit("orgs.Tx.DeleteOrg")
	return x.Tx.DeleteOrg(ctx, id)
}

func (x recOrgsTx) ListOrgs(ctx context.Context, f orgs.OrgFilter, o forge.ListOptions) ([]*forge.User, int64, error) {
	x.rec.hit("orgs.Tx.ListOrgs")
	return x.Tx.ListOrgs(ctx, f, o)
}

func (x recOrgsTx) OwnsRepositories(ctx context.Context, ownerID forge.ID) (bool, error) {
	x.rec.hit("orgs.Tx.OwnsRepositories")
	return x.Tx.OwnsRepositories(ctx, ownerID)
}

func (x recOrgsTx) SetMember(ctx context.Context, m forge.Membership) error {
	x.rec.hit("orgs.Tx.SetMember")
	return x.Tx.SetMember(ctx, m)
}

func (x recOrgsTx) Member(ctx context.Context, orgID, userID forge.ID) (forge.Membership, error) {
	x.rec.hit("orgs.Tx.Member")
	return x.Tx.Member(ctx, orgID, userID)
}

func (x recOrgsTx) DeleteMember(ctx context.Context, orgID, userID forge.ID) error {
	x.rec.hit("orgs.Tx.DeleteMember")
	return x.Tx.DeleteMember(ctx, orgID, userID)
}

func (x recOrgsTx) ListMembers(ctx context.Context, orgID forge.ID, publicOnly bool, o forge.ListOptions) ([]*forge.User, int64, error) {
	x.rec.hit("orgs.Tx.ListMembers")
	return x.Tx.ListMembers(ctx, orgID, publicOnly, o)
}

func (x recOrgsTx) CreateTeam(ctx context.Context, t *forge.Team) error {
	x.rec.hit("orgs.Tx.CreateTeam")
	return x.Tx.CreateTeam(ctx, t)
}

func (x recOrgsTx) Team(ctx context.Context, id forge.ID) (*forge.Team, error) {
	x.rec.hit("orgs.Tx.Team")
	return x.Tx.Team(ctx, id)
}

func (x recOrgsTx) TeamByName(ctx context.Context, orgID forge.ID, name string) (*forge.Team, error) {
	x.rec.hit("orgs.Tx.TeamByName")
	return x.Tx.TeamByName(ctx, orgID, name)
}

func (x recOrgsTx) UpdateTeam(ctx context.Context, t *forge.Team) error {
	x.rec.hit("orgs.Tx.UpdateTeam")
	return x.Tx.UpdateTeam(ctx, t)
}

func (x recOrgsTx) DeleteTeam(ctx context.Context, id forge.ID) error {
	x.rec.hit("orgs.Tx.DeleteTeam")
	return x.Tx.DeleteTeam(ctx, id)
}

func (x recOrgsTx) ListTeams(ctx context.Context, f orgs.TeamFilter, o forge.ListOptions) ([]*forge.Team, int64, error) {
	x.rec.hit("orgs.Tx.ListTeams")
	return x.Tx.ListTeams(ctx, f, o)
}

func (x recOrgsTx) AddTeamMember(ctx context.Context, teamID, userID forge.ID) error {
	x.rec.hit("orgs.Tx.AddTeamMember")
	return x.Tx.AddTeamMember(ctx, teamID, userID)
}

func (x recOrgsTx) RemoveTeamMember(ctx context.Context, teamID, userID forge.ID) error {
	x.rec.hit("orgs.Tx.RemoveTeamMember")
	return x.Tx.RemoveTeamMember(ctx, teamID, userID)
}

func (x recOrgsTx) IsTeamMember(ctx context.Context, teamID, userID forge.ID) (bool, error) {
	x.rec.hit("orgs.Tx.IsTeamMember")
	return x.Tx.IsTeamMember(ctx, teamID, userID)
}

func (x recOrgsTx) ListTeamMembers(ctx context.Context, teamID forge.ID, o forge.ListOptions) ([]*forge.User, int64, error) {
	x.rec.hit("orgs.Tx.ListTeamMembers")
	return x.Tx.ListTeamMembers(ctx, teamID, o)
}

func (x recOrgsTx) AddTeamRepo(ctx context.Context, teamID, repoID forge.ID) error {
	x.rec.hit("orgs.Tx.AddTeamRepo")
	return x.Tx.AddTeamRepo(ctx, teamID, repoID)
}

func (x recOrgsTx) RemoveTeamRepo(ctx context.Context, teamID, repoID forge.ID) error {
	x.rec.hit("orgs.Tx.RemoveTeamRepo")
	return x.Tx.RemoveTeamRepo(ctx, teamID, repoID)
}

func (x recOrgsTx) HasTeamRepo(ctx context.Context, teamID, repoID forge.ID) (bool, error) {
	x.rec.hit("orgs.Tx.HasTeamRepo")
	return x.Tx.HasTeamRepo(ctx, teamID, repoID)
}

func (x recOrgsTx) ListTeamRepos(ctx context.Context, teamID forge.ID, publicOnly bool, o forge.ListOptions) ([]*forge.Repository, int64, error) {
	x.rec.hit("orgs.Tx.ListTeamRepos")
	return x.Tx.ListTeamRepos(ctx, teamID, publicOnly, o)
}

func (x recOrgsTx) RepoByName(ctx context.Context, ownerID forge.ID, name string) (*forge.Repository, error) {
	x.rec.hit("orgs.Tx.RepoByName")
	return x.Tx.RepoByName(ctx, ownerID, name)
}

func (x recOrgsTx) ListOwnerRepoIDs(ctx context.Context, ownerID forge.ID) ([]forge.ID, error) {
	x.rec.hit("orgs.Tx.ListOwnerRepoIDs")
	return x.Tx.ListOwnerRepoIDs(ctx, ownerID)
}

func (x recOrgsTx) SetBlock(ctx context.Context, b forge.Block) error {
	x.rec.hit("orgs.Tx.SetBlock")
	return x.Tx.SetBlock(ctx, b)
}

func (x recOrgsTx) DeleteBlock(ctx context.Context, blockerID, userID forge.ID) error {
	x.rec.hit("orgs.Tx.DeleteBlock")
	return x.Tx.DeleteBlock(ctx, blockerID, userID)
}

func (x recOrgsTx) IsBlocked(ctx context.Context, blockerID, userID forge.ID) (bool, error) {
	x.rec.hit("orgs.Tx.IsBlocked")
	return x.Tx.IsBlocked(ctx, blockerID, userID)
}

func (x recOrgsTx) ListBlocked(ctx context.Context, blockerID forge.ID, o forge.ListOptions) ([]forge.Block, int64, error) {
	x.rec.hit("orgs.Tx.ListBlocked")
	return x.Tx.ListBlocked(ctx, blockerID, o)
}

func (x recAuthTx) MemberOfOrgs(ctx context.Context, userID forge.ID) (bool, error) {
	x.rec.hit("auth.Tx.MemberOfOrgs")
	return x.Tx.MemberOfOrgs(ctx, userID)
}
