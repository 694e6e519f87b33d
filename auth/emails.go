package auth

import (
	"context"
	"errors"
	"path"
	"regexp"
	"strings"

	"github.com/hearthforge/hearth/forge"
)

// EmailAddress is one e-mail address of a user: the primary one
// (forge.User.Email) or a further one the user added.
type EmailAddress struct {
	UserID forge.ID
	// UserName is set by SearchEmails and the admin lists.
	UserName string
	Email    string
	Verified bool
	Primary  bool
}

// Reasons of the refusals of e-mail addresses (errors.Is on the error).
var (
	// ErrEmailUsed: another address of any user is the same, ignoring
	// case (a forge.ErrConflict).
	ErrEmailUsed = errors.New("email address has been used")
	// ErrPrimaryEmail: the primary address cannot be deleted (a
	// forge.ErrInvalid).
	ErrPrimaryEmail = errors.New("primary email address cannot be deleted")
)

// emailRules are the site's rules for added addresses.
type emailRules struct {
	allow, block []string
	confirm      bool
}

// emailChars is Forgejo's validation emailRegexp: the characters of an
// address's local part and the shape of its domain.
var emailChars = regexp.MustCompile("^[a-zA-Z0-9.!#$%&'*+,\\-/=?^_`{|}~]*@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$")

// check refuses an address Forgejo's ValidateEmail refuses: empty, a
// character it does not take, a leading '-', not one bare address, or a
// domain the allow list leaves out or the block list names. The error is
// forge.ErrInvalid (reason ErrEmailInvalid) with Forgejo's API message
// `Email address "<email>" invalid`.
func (r emailRules) check(email string) error {
	invalid := forge.Reasonf(forge.ErrInvalid, ErrEmailInvalid, "Email address %q invalid", email)
	if email == "" || email[0] == '-' || !emailChars.MatchString(email) || ValidateEmail(email) != nil {
		return invalid
	}
	domain := strings.ToLower(email[strings.LastIndexByte(email, '@')+1:])
	matches := func(list []string) bool {
		for _, p := range list {
			if ok, _ := path.Match(strings.ToLower(strings.TrimSpace(p)), domain); ok {
				return true
			}
		}
		return false
	}
	if len(r.allow) > 0 && !matches(r.allow) || len(r.allow) == 0 && matches(r.block) {
		return invalid
	}
	return nil
}

// emailsOf returns u's addresses: the primary one first (verified as the
// account is active, as Forgejo activates it with the account), then the
// further ones in the order they were added.
func emailsOf(ctx context.Context, tx Tx, u *forge.User, withUser bool) ([]EmailAddress, error) {
	more, err := tx.EmailAddresses(ctx, u.ID)
	if err != nil {
		return nil, err
	}
	out := make([]EmailAddress, 0, len(more)+1)
	if u.Email != "" {
		out = append(out, EmailAddress{UserID: u.ID, Email: u.Email, Verified: u.IsActive, Primary: true})
	}
	out = append(out, more...)
	for i := range out {
		out[i].UserID, out[i].UserName = u.ID, u.Name
		if !withUser {
			out[i].UserID, out[i].UserName = 0, ""
		}
	}
	return out, nil
}

// ListEmails returns the actor's e-mail addresses, the primary one first
// (Forgejo's GET /user/emails, whose answers carry no user). Needs a
// signed-in user with read:user.
func (s *Service) ListEmails(ctx context.Context, actor forge.Actor) ([]EmailAddress, error) {
	if err := start(actor, "userListEmails"); err != nil {
		return nil, err
	}
	var out []EmailAddress
	err := s.store.View(ctx, func(tx Tx) error {
		u, err := tx.UserByID(ctx, actor.User.ID)
		if err != nil {
			return err
		}
		out, err = emailsOf(ctx, tx, u, false)
		return err
	})
	return out, err
}

// AddEmails adds emails to the actor's addresses, all or none, and returns
// all its addresses after. Each is checked as Forgejo's AddEmailAddresses
// does, in order: forge.ErrInvalid `Email list empty` for none;
// forge.ErrInvalid `Email address "<e>" invalid` (reason ErrEmailInvalid)
// for a malformed one or one of a domain the site refuses;
// forge.ErrConflict `Email address has been used: <e>` (reason
// ErrEmailUsed) for one any user has (a primary address or a further one,
// the actor's own included, or one given twice). New addresses are
// verified unless Config.EmailConfirm. Needs a signed-in user with
// write:user.
func (s *Service) AddEmails(ctx context.Context, actor forge.Actor, emails []string) ([]EmailAddress, error) {
	if err := start(actor, "userAddEmail"); err != nil {
		return nil, err
	}
	if len(emails) == 0 {
		return nil, forge.Errorf(forge.ErrInvalid, "Email list empty")
	}
	for _, e := range emails {
		if err := s.emails.check(e); err != nil {
			return nil, err
		}
	}
	var out []EmailAddress
	err := s.store.Update(ctx, func(tx Tx) error {
		for _, e := range emails {
			if err := emailFree(ctx, tx, e); err != nil {
				return err
			}
			err := tx.AddEmailAddress(ctx, EmailAddress{UserID: actor.User.ID, Email: e, Verified: !s.emails.confirm})
			if errors.Is(err, forge.ErrConflict) {
				return emailUsed(e)
			}
			if err != nil {
				return err
			}
		}
		u, err := tx.UserByID(ctx, actor.User.ID)
		if err != nil {
			return err
		}
		out, err = emailsOf(ctx, tx, u, false)
		return err
	})
	return out, err
}

// emailUsed is the refusal of an address some user has.
func emailUsed(email string) error {
	return forge.Reasonf(forge.ErrConflict, ErrEmailUsed, "Email address has been used: %s", email)
}

// emailFree refuses an address any user has, as primary or further
// address (ignoring case).
func emailFree(ctx context.Context, tx Tx, email string) error {
	if _, err := tx.UserByEmail(ctx, email); err == nil {
		return emailUsed(email)
	} else if !errors.Is(err, forge.ErrNotFound) {
		return err
	}
	if _, err := tx.EmailAddressOwner(ctx, email); err == nil {
		return emailUsed(email)
	} else if !errors.Is(err, forge.ErrNotFound) {
		return err
	}
	return nil
}

// swapPrimaryEmail records that u's primary address becomes email, as
// Forgejo's AdminAddOrSetPrimaryEmailAddress: a further address of u that
// is email stops being one (it is the primary one now), and the old
// primary address stays u's as a further one, verified as it was.
func swapPrimaryEmail(ctx context.Context, tx Tx, u *forge.User, email string) error {
	if strings.EqualFold(u.Email, email) {
		return nil
	}
	if err := tx.DeleteEmailAddress(ctx, u.ID, email); err != nil && !errors.Is(err, forge.ErrNotFound) {
		return err
	}
	if u.Email == "" || u.IsOrganization() {
		return nil
	}
	return tx.AddEmailAddress(ctx, EmailAddress{UserID: u.ID, Email: u.Email, Verified: u.IsActive})
}

// DeleteEmails removes emails from the actor's further addresses, all or
// none (none given changes nothing). forge.ErrNotFound `Email address does
// not exist [email: <e>]` for one the actor does not have; forge.ErrInvalid
// `primary email address cannot be deleted [email: <e>]` (reason
// ErrPrimaryEmail) for its primary one. Needs a signed-in user with
// write:user.
func (s *Service) DeleteEmails(ctx context.Context, actor forge.Actor, emails []string) error {
	if err := start(actor, "userDeleteEmail"); err != nil {
		return err
	}
	return s.deleteEmails(ctx, actor.User.ID, emails)
}

func (s *Service) deleteEmails(ctx context.Context, userID forge.ID, emails []string) error {
	if len(emails) == 0 {
		return nil
	}
	return s.store.Update(ctx, func(tx Tx) error {
		u, err := tx.UserByID(ctx, userID)
		if err != nil {
			return err
		}
		for _, e := range emails {
			if strings.EqualFold(e, u.Email) {
				return forge.Reasonf(forge.ErrInvalid, ErrPrimaryEmail, "primary email address cannot be deleted [email: %s]", e)
			}
			err := tx.DeleteEmailAddress(ctx, userID, e)
			if errors.Is(err, forge.ErrNotFound) {
				return forge.Errorf(forge.ErrNotFound, "Email address does not exist [email: %s]", e)
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
}

// SearchEmails is the administrators' list of every person's e-mail
// addresses (Forgejo's GET /admin/emails with keyword "", and
// /admin/emails/search): those whose address, user name or full name
// contains keyword ignoring case, by address, one page and the number of
// all. Needs a site administrator with read:admin.
func (s *Service) SearchEmails(ctx context.Context, actor forge.Actor, keyword string, o forge.ListOptions) ([]EmailAddress, int64, error) {
	op := "adminSearchEmails"
	if keyword == "" {
		op = "adminGetAllEmails"
	}
	if err := start(actor, op); err != nil {
		return nil, 0, err
	}
	var (
		out   []EmailAddress
		total int64
	)
	err := s.store.View(ctx, func(tx Tx) error {
		var err error
		out, total, err = tx.SearchEmails(ctx, strings.TrimSpace(keyword), o.Normalize())
		return err
	})
	return out, total, err
}

// adminEmailsUser loads the user an administrator names: forge.ErrNotFound
// `user redirect does not exist` for none.
func adminEmailsUser(ctx context.Context, tx Tx, name string) (*forge.User, error) {
	u, err := tx.UserByName(ctx, name)
	if errors.Is(err, forge.ErrNotFound) {
		return nil, userNotFound(name)
	}
	return u, err
}

// UserEmails returns the e-mail addresses of the user named name, the
// primary one first, with the user (Forgejo's GET
// /admin/users/{username}/emails). Needs a site administrator with
// read:admin; forge.ErrNotFound for an unknown user.
func (s *Service) UserEmails(ctx context.Context, actor forge.Actor, name string) ([]EmailAddress, error) {
	if err := start(actor, "adminListUserEmails"); err != nil {
		return nil, err
	}
	var out []EmailAddress
	err := s.store.View(ctx, func(tx Tx) error {
		u, err := adminEmailsUser(ctx, tx, name)
		if err != nil {
			return err
		}
		out, err = emailsOf(ctx, tx, u, true)
		return err
	})
	return out, err
}

// DeleteUserEmails removes emails from the further addresses of the user
// named name, as DeleteEmails does for the actor (Forgejo's DELETE
// /admin/users/{username}/emails). Needs a site administrator with
// write:admin; forge.ErrNotFound for an unknown user.
func (s *Service) DeleteUserEmails(ctx context.Context, actor forge.Actor, name string, emails []string) error {
	if err := start(actor, "adminDeleteUserEmails"); err != nil {
		return err
	}
	var id forge.ID
	if err := s.store.View(ctx, func(tx Tx) error {
		u, err := adminEmailsUser(ctx, tx, name)
		if err == nil {
			id = u.ID
		}
		return err
	}); err != nil {
		return err
	}
	return s.deleteEmails(ctx, id, emails)
}

// ActivatedEmails returns the verified e-mail addresses of user id, the
// primary one first when the account is active (what a GPG key's
// identities are checked against). It checks no actor: it is on Ports.
func (p *Ports) ActivatedEmails(ctx context.Context, userID forge.ID) ([]string, error) {
	var out []string
	err := p.s.store.View(ctx, func(tx Tx) error {
		u, err := tx.UserByID(ctx, userID)
		if err != nil {
			return err
		}
		all, err := emailsOf(ctx, tx, u, false)
		for _, e := range all {
			if e.Verified {
				out = append(out, e.Email)
			}
		}
		return err
	})
	return out, err
}
