package repos

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// Transfer is a pending change of a repository's owner, waiting for the
// recipient to accept it.
type Transfer struct {
	RepoID    forge.ID
	Doer      *forge.User
	Recipient *forge.User
	Created   time.Time
	// TeamIDs are the teams of the receiving organisation that get the
	// repository on acceptance (TransferRepoOption's team_ids, kept by the
	// store in their order; nil when none).
	TeamIDs []forge.ID
	// Teams are the teams of TeamIDs that still exist, filled by the
	// service (never by the store) for the repository JSON's
	// repo_transfer.teams.
	Teams []*forge.Team
}

// PendingTransfer returns the repository's pending transfer, or nil, for
// an actor who may read the repository (ErrRepoNotFound otherwise, exactly
// as for a missing one; forge.ErrForbidden for an account that may not act
// or a token without read:repository). Its users are redacted for the
// actor (forge.User.VisibleTo).
func (s *Service) PendingTransfer(ctx context.Context, actor forge.Actor, repo forge.ID) (*Transfer, error) {
	var t *Transfer
	err := s.store.View(ctx, func(tx Tx) error {
		if _, err := loadByID(ctx, tx, actor, repo); err != nil {
			return err
		}
		var err error
		t, err = loadTransfer(ctx, tx, repo)
		return err
	})
	if err != nil || t == nil {
		return nil, err
	}
	t.Doer, t.Recipient = t.Doer.VisibleTo(actor), t.Recipient.VisibleTo(actor)
	return t, nil
}

func loadTransfer(ctx context.Context, tx Tx, repo forge.ID) (*Transfer, error) {
	t, err := tx.Transfer(ctx, repo)
	if errors.Is(err, forge.ErrNotFound) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	if t.Doer, err = tx.UserByID(ctx, t.Doer.ID); err != nil {
		return nil, err
	}
	if t.Recipient, err = tx.UserByID(ctx, t.Recipient.ID); err != nil {
		return nil, err
	}
	if t.Teams, err = transferTeams(ctx, tx, t); err != nil {
		return nil, err
	}
	return t, nil
}

// transferTeams are the teams of t.TeamIDs that the recipient organisation
// still has, in the order given (a team deleted since is dropped).
func transferTeams(ctx context.Context, tx Tx, t *Transfer) ([]*forge.Team, error) {
	out := []*forge.Team{}
	if len(t.TeamIDs) == 0 || !t.Recipient.IsOrganization() {
		return out, nil
	}
	teams, err := tx.OrgTeams(ctx, t.Recipient.ID, 0)
	if err != nil {
		return nil, err
	}
	for _, id := range t.TeamIDs {
		if i := slices.IndexFunc(teams, func(tm *forge.Team) bool { return tm.ID == id }); i >= 0 {
			out = append(out, teams[i])
		}
	}
	return out, nil
}

// teamIDsOf is the ids of teams, nil when there are none.
func teamIDsOf(teams []*forge.Team) []forge.ID {
	var ids []forge.ID
	for _, tm := range teams {
		ids = append(ids, tm.ID)
	}
	return ids
}

// StartTransfer hands owner/name to the user or organisation called
// newOwner. Only the repository's owners (Access's owner mode: the owner,
// an organisation's owners, site administrators) may. A site
// administrator, an owner giving a repository to themselves, or a member
// of a team of the receiving organisation that may create repositories
// moves it at once; otherwise the transfer waits for AcceptTransfer, as in
// Forgejo. teamIDs (TransferRepoOption's team_ids; nil when not given)
// are teams of the receiving organisation that get the repository when it
// moves, at once or on acceptance: a pending transfer keeps them (its
// Teams list those that still exist), as Forgejo's repo_transfer.team_ids.
//
// Moving a repository out of an organisation takes it from the old
// organisation's teams; into one, it joins the teams that include all
// repositories and teamIDs, and collaborators who are members of the
// organisation stop being collaborators (Forgejo's transferOwnership).
//
// Errors: forge.ErrForbidden `user should be the owner of the repo`;
// forge.ErrNotFound `The new owner does not exist or cannot be found` for
// an unknown recipient or a private organisation the actor is no member
// of; forge.ErrInvalid `Teams can only be added to organization-owned
// repositories` and `team 5 not found`; forge.ErrForbidden `team 5
// belongs not to org 6` for a team of another organisation (Forgejo's
// 403); forge.ErrConflict when the recipient has a repository of that name.
func (s *Service) StartTransfer(ctx context.Context, actor forge.Actor, owner, name, newOwner string, teamIDs []forge.ID) (*View, error) {
	if err := actor.Check(forge.AccessWrite, forge.CategoryRepository); err != nil {
		return nil, err
	}
	var v *View
	err := s.store.Update(ctx, func(tx Tx) error {
		var err error
		if v, err = load(ctx, tx, actor, owner, name); err != nil {
			return err
		}
		if !v.IsOwner() {
			return forge.Errorf(forge.ErrForbidden, "user should be the owner of the repo")
		}
		to, err := recipient(ctx, tx, actor, newOwner)
		if err != nil {
			return err
		}
		if err := s.checkOwnerQuota(ctx, tx, to, v.Repo.Private, v.Repo.Size); err != nil {
			return err
		}
		if err := checkTransferTeams(ctx, tx, to, teamIDs); err != nil {
			return err
		}
		if _, err := tx.RepoByName(ctx, to.ID, v.Repo.Name); err == nil {
			return forge.Errorf(forge.ErrConflict, "repository already exists [uname: %s, name: %s]", to.Name, v.Repo.Name)
		}
		now := actor.IsSiteAdmin() || to.ID == actor.UserID()
		if !now && to.IsOrganization() {
			if now, err = canCreateOrgRepo(ctx, tx, actor, to.ID); err != nil {
				return err
			}
		}
		if now {
			err = s.move(ctx, tx, v, to, teamIDs)
		} else {
			err = tx.SetTransfer(ctx, &Transfer{RepoID: v.Repo.ID, Doer: actor.User, Recipient: to, Created: s.clock.Now(),
				TeamIDs: slices.Clone(teamIDs)})
		}
		if err != nil {
			return err
		}
		return reread(ctx, tx, actor, v)
	})
	if err != nil {
		return nil, err
	}
	return v, nil
}

// errNoRecipient is Forgejo's 404 for a transfer's unknown or hidden
// recipient.
var errNoRecipient = forge.Errorf(forge.ErrNotFound, "The new owner does not exist or cannot be found")

// recipient resolves a transfer's new owner: a private organisation the
// actor is no member of answers like a missing account.
func recipient(ctx context.Context, tx Tx, actor forge.Actor, name string) (*forge.User, error) {
	to, err := tx.UserByName(ctx, name)
	if errors.Is(err, forge.ErrNotFound) {
		return nil, errNoRecipient
	} else if err != nil {
		return nil, err
	}
	if to.IsOrganization() && to.Visibility == forge.VisibilityPrivate && !actor.User.IsAdmin {
		member, err := isMember(ctx, tx, actor, to)
		if err != nil {
			return nil, err
		}
		if !member {
			return nil, errNoRecipient
		}
	}
	return to, nil
}

// checkTransferTeams checks TransferRepoOption's team_ids against the
// recipient (nil: none given).
func checkTransferTeams(ctx context.Context, tx Tx, to *forge.User, teamIDs []forge.ID) error {
	if teamIDs == nil {
		return nil
	}
	if !to.IsOrganization() {
		return forge.Errorf(forge.ErrInvalid, "Teams can only be added to organization-owned repositories")
	}
	orgOf, err := tx.TeamOrgs(ctx, teamIDs)
	if err != nil {
		return err
	}
	for _, id := range teamIDs {
		org, ok := orgOf[id]
		if !ok {
			return forge.Errorf(forge.ErrInvalid, "team %d not found", id)
		}
		if org != to.ID {
			return forge.Errorf(forge.ErrForbidden, "team %d belongs not to org %d", id, to.ID)
		}
	}
	return nil
}

// move gives v's repository to to, inside tx, with the team rows and
// collaborators Forgejo's transferOwnership leaves: out of an
// organisation, its teams lose the repository; into one, the teams that
// include all repositories and teamIDs get it, and the organisation's
// members stop being collaborators.
func (s *Service) move(ctx context.Context, tx Tx, v *View, to *forge.User, teamIDs []forge.ID) error {
	if err := tx.DeleteTransfer(ctx, v.Repo.ID); err != nil {
		return err
	}
	// The new owner needs no collaborator entry.
	if err := tx.DeleteCollaborator(ctx, v.Repo.ID, to.ID); err != nil && !errors.Is(err, forge.ErrNotFound) {
		return err
	}
	if err := tx.DeleteRepoTeams(ctx, v.Repo.ID); err != nil {
		return err
	}
	v.Repo.OwnerID, v.Repo.OwnerName, v.Repo.Updated = to.ID, to.Name, s.clock.Now()
	v.Owner = to
	if err := tx.UpdateRepo(ctx, v.Repo); err != nil {
		return err
	}
	if !to.IsOrganization() {
		return nil
	}
	if err := dropMemberCollaborators(ctx, tx, v.Repo.ID, to.ID); err != nil {
		return err
	}
	teams, err := tx.OrgTeams(ctx, to.ID, 0)
	if err != nil {
		return err
	}
	ids := slices.Clone(teamIDs)
	for _, t := range teams {
		if t.IncludesAllRepos && !slices.Contains(ids, t.ID) {
			ids = append(ids, t.ID)
		}
	}
	return tx.AddRepoTeams(ctx, v.Repo.ID, ids)
}

// dropMemberCollaborators removes the collaborators of repo who are
// members of the organisation org.
func dropMemberCollaborators(ctx context.Context, tx Tx, repo, org forge.ID) error {
	for page := 1; ; page++ {
		list, _, err := tx.ListCollaborators(ctx, repo, forge.ListOptions{Page: page, Limit: 50})
		if err != nil {
			return err
		}
		for _, c := range list {
			m, err := tx.OrgMemberships(ctx, c.User.ID, []forge.ID{org})
			if err != nil {
				return err
			}
			if m[org] {
				if err := tx.DeleteCollaborator(ctx, repo, c.User.ID); err != nil {
					return err
				}
			}
		}
		if len(list) < 50 {
			return nil
		}
	}
}

// AcceptTransfer completes the pending transfer of owner/name; only its
// recipient (or a site administrator) may (forge.ErrForbidden).
// forge.ErrNotFound when none is pending.
func (s *Service) AcceptTransfer(ctx context.Context, actor forge.Actor, owner, name string) (*View, error) {
	return s.answerTransfer(ctx, actor, owner, name, true)
}

// RejectTransfer cancels the pending transfer of owner/name; its recipient
// or the repository's owner may.
func (s *Service) RejectTransfer(ctx context.Context, actor forge.Actor, owner, name string) (*View, error) {
	return s.answerTransfer(ctx, actor, owner, name, false)
}

func (s *Service) answerTransfer(ctx context.Context, actor forge.Actor, owner, name string, accept bool) (*View, error) {
	if err := actor.Check(forge.AccessWrite, forge.CategoryRepository); err != nil {
		return nil, err
	}
	var v *View
	err := s.store.Update(ctx, func(tx Tx) error {
		u, err := tx.UserByName(ctx, owner)
		if err != nil {
			return &OwnerNotFoundError{Name: strings.ToLower(owner)}
		}
		r, err := tx.RepoByName(ctx, u.ID, name)
		if errors.Is(err, forge.ErrNotFound) {
			// A hidden owner answers alike whatever the name, as below.
			if !OwnerVisible(actor, u) {
				return &OwnerNotFoundError{Name: strings.ToLower(owner)}
			}
			return ErrRepoNotFound
		} else if err != nil {
			return err
		}
		t, err := loadTransfer(ctx, tx, r.ID)
		if err != nil {
			return err
		}
		// Only the recipient may act on a repository it cannot read yet;
		// to anyone else such a repository is missing, with the same
		// answer whether or not a transfer is pending.
		mayAnswer, err := mayAcceptTransfer(ctx, tx, actor, t)
		if err != nil {
			return err
		}
		perm, err := accessOf(ctx, tx, actor, r, u)
		if err != nil {
			return err
		}
		if !mayAnswer && !perm.HasAccess() {
			if !OwnerVisible(actor, u) {
				return &OwnerNotFoundError{Name: strings.ToLower(owner)}
			}
			return ErrRepoNotFound
		}
		if t == nil {
			return forge.Errorf(forge.ErrNotFound, "no transfer is pending for %s/%s", u.Name, r.Name)
		}
		if !mayAnswer && !actor.IsSiteAdmin() && !(!accept && perm.Mode >= forge.AccessModeOwner) {
			return forge.Errorf(forge.ErrForbidden, "user does not have permissions to do this")
		}
		r.OwnerName = u.Name
		v = &View{Repo: r, Owner: u}
		if !accept {
			if err := tx.DeleteTransfer(ctx, r.ID); err != nil {
				return err
			}
			return reread(ctx, tx, actor, v)
		}
		if _, err := tx.RepoByName(ctx, t.Recipient.ID, r.Name); err == nil {
			return forge.Errorf(forge.ErrConflict, "repository already exists [uname: %s, name: %s]", t.Recipient.Name, r.Name)
		}
		if err := s.checkOwnerQuota(ctx, tx, t.Recipient, r.Private, r.Size); err != nil {
			return err
		}
		if err := s.move(ctx, tx, v, t.Recipient, teamIDsOf(t.Teams)); err != nil {
			return err
		}
		return reread(ctx, tx, actor, v)
	})
	if err != nil {
		return nil, err
	}
	return v, nil
}

// mayAcceptTransfer is Forgejo's CanUserAcceptTransfer: the recipient
// user, or for an organisation the members of its teams that may create
// repositories (its owners among them). False when t is nil.
func mayAcceptTransfer(ctx context.Context, tx Tx, actor forge.Actor, t *Transfer) (bool, error) {
	switch {
	case t == nil || !actor.IsSignedIn():
		return false, nil
	case !t.Recipient.IsOrganization():
		return actor.UserID() == t.Recipient.ID, nil
	}
	return canCreateOrgRepo(ctx, tx, actor, t.Recipient.ID)
}
