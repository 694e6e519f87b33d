package repos

import (
	"context"
	"errors"
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
	return t, nil
}

// StartTransfer hands owner/name to the user called newOwner. Only the
// owner (or a site administrator) may. A site administrator, or an owner
// giving a repository to themselves, moves it at once; otherwise the
// transfer waits for the recipient's AcceptTransfer, as in Forgejo.
//
// Errors: forge.ErrForbidden `user should be the owner of the repo`;
// forge.ErrNotFound for an unknown recipient; forge.ErrConflict when the
// recipient has a repository of that name.
func (s *Service) StartTransfer(ctx context.Context, actor forge.Actor, owner, name, newOwner string) (*View, error) {
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
		to, err := tx.UserByName(ctx, newOwner)
		if errors.Is(err, forge.ErrNotFound) {
			return forge.Errorf(forge.ErrNotFound, "user redirect does not exist [name: %s]", strings.ToLower(newOwner))
		} else if err != nil {
			return err
		}
		if _, err := tx.RepoByName(ctx, to.ID, v.Repo.Name); err == nil {
			return forge.Errorf(forge.ErrConflict, "repository already exists [uname: %s, name: %s]", to.Name, v.Repo.Name)
		}
		if actor.IsSiteAdmin() || to.ID == actor.UserID() {
			err = s.move(ctx, tx, v, to)
		} else {
			err = tx.SetTransfer(ctx, &Transfer{RepoID: v.Repo.ID, Doer: actor.User, Recipient: to, Created: s.clock.Now()})
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

// move gives v's repository to to, inside tx.
func (s *Service) move(ctx context.Context, tx Tx, v *View, to *forge.User) error {
	if err := tx.DeleteTransfer(ctx, v.Repo.ID); err != nil {
		return err
	}
	// The new owner needs no collaborator entry.
	if err := tx.DeleteCollaborator(ctx, v.Repo.ID, to.ID); err != nil && !errors.Is(err, forge.ErrNotFound) {
		return err
	}
	v.Repo.OwnerID, v.Repo.OwnerName, v.Repo.Updated = to.ID, to.Name, s.clock.Now()
	v.Owner = to
	return tx.UpdateRepo(ctx, v.Repo)
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
		if t == nil || actor.UserID() != t.Recipient.ID {
			collab := forge.AccessNone
			if actor.IsSignedIn() {
				if collab, err = tx.CollaboratorMode(ctx, r.ID, actor.User.ID); err != nil {
					return err
				}
			}
			if Permission(actor, r, u, collab) < forge.AccessModeRead {
				if !OwnerVisible(actor, u) {
					return &OwnerNotFoundError{Name: strings.ToLower(owner)}
				}
				return ErrRepoNotFound
			}
		}
		if t == nil {
			return forge.Errorf(forge.ErrNotFound, "no transfer is pending for %s/%s", u.Name, r.Name)
		}
		recipient := actor.UserID() == t.Recipient.ID || actor.IsSiteAdmin()
		if !recipient && !(!accept && actor.UserID() == r.OwnerID) {
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
		if err := s.move(ctx, tx, v, t.Recipient); err != nil {
			return err
		}
		return reread(ctx, tx, actor, v)
	})
	if err != nil {
		return nil, err
	}
	return v, nil
}
