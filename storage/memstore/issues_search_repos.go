package memstore

import (
	"context"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

// SearchableRepos implements issues.SearchRepoTx: the repositories the
// actor may see (the VisibleTo rule of ListRepos), each judged by
// repos.Access on the issues and pull-request units.
func (t issueTx) SearchableRepos(ctx context.Context, actor forge.Actor, ownerID forge.ID) ([]forge.ID, []forge.ID, error) {
	if err := t.read(ctx); err != nil {
		return nil, nil, err
	}
	f := repos.RepoFilter{OwnerID: ownerID, VisibleTo: actor.UserID(), AllVisible: actor.IsSiteAdmin()}
	f.Restricted = actor.IsSignedIn() && actor.User.Restricted
	if actor.Scoped && actor.Scope.PublicOnly {
		f.VisibleTo, f.AllVisible = 0, false
	}
	list, _, err := t.ListRepos(ctx, f, forge.ListOptions{Page: 1, Limit: 1 << 30})
	if err != nil {
		return nil, nil, err
	}
	ids, owners := make([]forge.ID, 0, len(list)), make([]forge.ID, 0, len(list))
	for _, r := range list {
		ids, owners = append(ids, r.ID), append(owners, r.OwnerID)
	}
	users, err := t.UsersByID(ctx, owners)
	if err != nil {
		return nil, nil, err
	}
	var (
		modes  map[forge.ID]forge.AccessMode
		member map[forge.ID]bool
		teams  map[forge.ID][]forge.TeamGrant
	)
	if actor.IsSignedIn() {
		if modes, err = t.CollaboratorModes(ctx, actor.User.ID, ids); err != nil {
			return nil, nil, err
		}
		if member, err = t.OrgMemberships(ctx, actor.User.ID, owners); err != nil {
			return nil, nil, err
		}
		if teams, err = t.TeamGrants(ctx, actor.User.ID, ids); err != nil {
			return nil, nil, err
		}
	}
	issueRepos, pullRepos := []forge.ID{}, []forge.ID{}
	for _, r := range list {
		owner := users[r.OwnerID]
		if owner == nil {
			continue
		}
		p := repos.Access(actor, r, owner, repos.Grants{Collab: modes[r.ID], Member: member[r.OwnerID], Teams: teams[r.ID]})
		if r.HasIssues && p.CanRead(forge.UnitIssues) {
			issueRepos = append(issueRepos, r.ID)
		}
		if r.HasPullRequests && p.CanRead(forge.UnitPulls) {
			pullRepos = append(pullRepos, r.ID)
		}
	}
	return issueRepos, pullRepos, nil
}
