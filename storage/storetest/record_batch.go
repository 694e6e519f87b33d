package storetest

import (
	"context"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

// The recording wrappers of the batch reads a list page uses.

func (x recReposTx) UsersByID(ctx context.Context, ids []forge.ID) (map[forge.ID]*forge.User, error) {
	x.rec.hit("repos.Tx.UsersByID")
	return x.Tx.UsersByID(ctx, ids)
}

func (x recReposTx) ReposByID(ctx context.Context, ids []forge.ID) (map[forge.ID]*forge.Repository, error) {
	x.rec.hit("repos.Tx.ReposByID")
	return x.Tx.ReposByID(ctx, ids)
}

func (x recReposTx) CollaboratorModes(ctx context.Context, userID forge.ID, repoIDs []forge.ID) (map[forge.ID]forge.AccessMode, error) {
	x.rec.hit("repos.Tx.CollaboratorModes")
	return x.Tx.CollaboratorModes(ctx, userID, repoIDs)
}

func (x recReposTx) Transfers(ctx context.Context, repoIDs []forge.ID) (map[forge.ID]*repos.Transfer, error) {
	x.rec.hit("repos.Tx.Transfers")
	return x.Tx.Transfers(ctx, repoIDs)
}

func (x recReposTx) AttachmentsOf(ctx context.Context, releaseIDs []forge.ID) (map[forge.ID][]*repos.Attachment, error) {
	x.rec.hit("repos.Tx.AttachmentsOf")
	return x.Tx.AttachmentsOf(ctx, releaseIDs)
}

// The recording wrappers of the team reads and writes (repos_teams.go).

func (x recReposTx) OrgMemberships(ctx context.Context, userID forge.ID, orgIDs []forge.ID) (map[forge.ID]bool, error) {
	x.rec.hit("repos.Tx.OrgMemberships")
	return x.Tx.OrgMemberships(ctx, userID, orgIDs)
}

func (x recReposTx) TeamGrants(ctx context.Context, userID forge.ID, repoIDs []forge.ID) (map[forge.ID][]forge.TeamGrant, error) {
	x.rec.hit("repos.Tx.TeamGrants")
	return x.Tx.TeamGrants(ctx, userID, repoIDs)
}

func (x recReposTx) OrgTeams(ctx context.Context, orgID, userID forge.ID) ([]*forge.Team, error) {
	x.rec.hit("repos.Tx.OrgTeams")
	return x.Tx.OrgTeams(ctx, orgID, userID)
}

func (x recReposTx) AddRepoTeams(ctx context.Context, repoID forge.ID, teamIDs []forge.ID) error {
	x.rec.hit("repos.Tx.AddRepoTeams")
	return x.Tx.AddRepoTeams(ctx, repoID, teamIDs)
}

func (x recReposTx) DeleteRepoTeams(ctx context.Context, repoID forge.ID) error {
	x.rec.hit("repos.Tx.DeleteRepoTeams")
	return x.Tx.DeleteRepoTeams(ctx, repoID)
}
