package repos

import (
	"context"
	"errors"
	"strings"

	"github.com/hearthforge/hearth/forge"
)

// TeamRepoReader is the part of a Tx that the team filter of IssueRepos
// reads. Both backends' repository transactions implement it; a Tx
// without it answers a team filter with an error (never with every
// repository).
type TeamRepoReader interface {
	// TeamRepoIDs returns, in one query, the ids of the ready
	// repositories the team has (those of its organisation), in id order.
	// Never nil.
	TeamRepoIDs(ctx context.Context, teamID forge.ID) ([]forge.ID, error)
}

// maxIssueRepos bounds the repositories one IssueRepos lists: the listing
// is one query, not a walk page by page.
const maxIssueRepos = forge.MaxOffset

// IssueRepos returns the repositories an issue search covers (Forgejo's
// repository condition of SearchIssues, routers/api/v1/repo/issue.go):
// those the actor may see (public ones, limited ones for signed-in users,
// private ones it has access to, only public ones for public-only
// tokens) in which it may read issues or pull requests, oldest first,
// each with the actor's permission. With owner not "", only that user's
// repositories (none when the actor may not see them); with team not ""
// also, only the repositories of that team of the owner organisation.
//
// It costs a fixed number of queries whatever the number of
// repositories. It checks the account's state but no token scope: the
// caller (the issue search) checks read:issue. forge.ErrNotFound `user
// redirect does not exist [name: x]` for an unknown owner (an owner the
// actor may not see is no error: none of its repositories is listed); forge.ErrInvalid
// `Owner organisation is required for filtering on team` for a team
// without owner, and `team does not exist [org_id n, team_id 0, name:
// x]` for an unknown team.
func (s *Service) IssueRepos(ctx context.Context, actor forge.Actor, owner, team string) ([]*View, error) {
	if err := actor.CheckState(); err != nil {
		return nil, err
	}
	if team != "" && owner == "" {
		return nil, forge.Errorf(forge.ErrInvalid, "Owner organisation is required for filtering on team")
	}
	f := RepoFilter{VisibleTo: actor.UserID(), AllVisible: actor.IsSiteAdmin()}
	f.Restricted = actor.IsSignedIn() && actor.User.Restricted
	if actor.Scoped && actor.Scope.PublicOnly {
		f.VisibleTo, f.AllVisible = 0, false
	}
	out := []*View{}
	err := s.store.View(ctx, func(tx Tx) error {
		var inTeam map[forge.ID]bool
		if owner != "" {
			u, err := tx.UserByName(ctx, owner)
			if err != nil {
				return ownerNotFound(err, owner)
			}
			f.OwnerID = u.ID
		}
		if team != "" {
			ids, err := teamRepoIDs(ctx, tx, f.OwnerID, team)
			if err != nil {
				return err
			}
			if len(ids) == 0 {
				return nil
			}
			inTeam = make(map[forge.ID]bool, len(ids))
			for _, id := range ids {
				inTeam[id] = true
			}
		}
		list, _, err := tx.ListRepos(ctx, f, forge.ListOptions{Page: 1, Limit: maxIssueRepos})
		if err != nil {
			return err
		}
		if inTeam != nil {
			kept := list[:0]
			for _, r := range list {
				if inTeam[r.ID] {
					kept = append(kept, r)
				}
			}
			list = kept
		}
		if len(list) == 0 {
			return nil
		}
		views, err := viewsOf(ctx, tx, actor, list)
		if err != nil {
			return err
		}
		redactOwners(actor, views)
		for _, v := range views {
			if v.Perm.CanRead(forge.UnitIssues) || v.Perm.CanRead(forge.UnitPulls) {
				out = append(out, v)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// ownerNotFound is Forgejo's ErrUserNotExist for the owner filter.
func ownerNotFound(err error, name string) error {
	if errors.Is(err, forge.ErrNotFound) {
		return forge.Errorf(forge.ErrNotFound, "user redirect does not exist [name: %s]", strings.ToLower(name))
	}
	return err
}

// teamRepoIDs resolves the team called name of the organisation orgID
// (ignoring case) and returns its repositories' ids.
func teamRepoIDs(ctx context.Context, tx Tx, orgID forge.ID, name string) ([]forge.ID, error) {
	teams, err := tx.OrgTeams(ctx, orgID, 0)
	if err != nil {
		return nil, err
	}
	var t *forge.Team
	for _, c := range teams {
		if strings.EqualFold(c.Name, name) {
			t = c
			break
		}
	}
	if t == nil {
		return nil, forge.Errorf(forge.ErrInvalid, "team does not exist [org_id %d, team_id 0, name: %s]", orgID, name)
	}
	r, ok := tx.(TeamRepoReader)
	if !ok {
		return nil, forge.Errorf(forge.ErrInvalid, "the store cannot filter on teams")
	}
	return r.TeamRepoIDs(ctx, t.ID)
}
