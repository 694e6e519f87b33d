package auth

import (
	"context"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// Store is the persistence auth needs. Implementations run fn in one
// transaction: Update commits iff fn returns nil, View never writes. Storage
// does no authorisation and never reads the clock: every timestamp it writes
// comes from the values it is given.
type Store interface {
	Update(ctx context.Context, fn func(Tx) error) error
	View(ctx context.Context, fn func(Tx) error) error
}

// TokenFinder is an optional Store method for the lookup every token
// request makes. A single-statement read is its own consistent snapshot, so
// a store may serve it without opening a transaction; Authenticate uses it
// when the Store has it, and Tx.TokenByHash in a View otherwise. Same
// contract as Tx.TokenByHash.
type TokenFinder interface {
	FindToken(ctx context.Context, hash string) (*AccessToken, *forge.User, error)
}

// Tx is one transaction over users and tokens.
type Tx interface {
	// CreateUser inserts u (u.ID is ignored and set on success) with the
	// given password hash ("" for none). Returns forge.ErrConflict if the
	// name (ignoring case) or the e-mail (ignoring case) is taken.
	CreateUser(ctx context.Context, u *forge.User, passwordHash string) error
	// UserByID returns forge.ErrNotFound if no user has that id.
	UserByID(ctx context.Context, id forge.ID) (*forge.User, error)
	// UserByName finds a user by name, ignoring case. Returns
	// forge.ErrNotFound if there is none.
	UserByName(ctx context.Context, name string) (*forge.User, error)
	// UserByEmail finds a user by e-mail, ignoring case. Returns
	// forge.ErrNotFound if there is none.
	UserByEmail(ctx context.Context, email string) (*forge.User, error)
	// UpdateUser writes every field of u. Returns forge.ErrNotFound if u.ID
	// does not exist, forge.ErrConflict if the new name or e-mail is taken.
	UpdateUser(ctx context.Context, u *forge.User) error
	// DeleteUser removes the user and everything that belongs to it (tokens,
	// two-factor enrolment, collaborations, stars, watches, memberships of
	// organisations and teams, blocks by and of it). It decides no
	// rule: the caller checks first that the user owns no repository
	// (OwnsRepositories). Returns forge.ErrNotFound if id does not exist; a
	// store that keeps referential integrity refuses, with
	// forge.ErrPrecondition, to delete a user repositories still refer to.
	DeleteUser(ctx context.Context, id forge.ID) error
	// OwnsRepositories reports whether any repository (in any state,
	// including ones being created or deleted) has the user as its owner.
	OwnsRepositories(ctx context.Context, userID forge.ID) (bool, error)
	// MemberOfOrgs reports whether the user is a member of any
	// organisation.
	MemberOfOrgs(ctx context.Context, userID forge.ID) (bool, error)
	// ListUsers returns one page of users matching f ordered by id, and the
	// number of all matches.
	ListUsers(ctx context.Context, f UserFilter, o forge.ListOptions) ([]*forge.User, int64, error)
	// CountUsers returns the number of accounts matching f. It decides no
	// rule: what counts as an administrator is the caller's filter
	// (AdminCount).
	CountUsers(ctx context.Context, f UserCount) (int64, error)
	// PasswordHash returns the stored password hash of a user ("" if none).
	// Returns forge.ErrNotFound if id does not exist.
	PasswordHash(ctx context.Context, id forge.ID) (string, error)
	// SetPasswordHash replaces a user's password hash.
	SetPasswordHash(ctx context.Context, id forge.ID, hash string) error

	// CreateToken inserts t (t.ID is set on success). Returns
	// forge.ErrConflict if the user has a token of that name or the hash
	// exists.
	CreateToken(ctx context.Context, t *AccessToken) error
	// TokenByHash returns the token with that digest and its user in one
	// lookup. Returns forge.ErrNotFound if there is none.
	TokenByHash(ctx context.Context, hash string) (*AccessToken, *forge.User, error)
	// ListTokens returns one page of a user's tokens, newest first, and the
	// number of all of them.
	ListTokens(ctx context.Context, userID forge.ID, o forge.ListOptions) ([]*AccessToken, int64, error)
	// TokensByName returns the user's tokens with that exact name.
	TokensByName(ctx context.Context, userID forge.ID, name string) ([]*AccessToken, error)
	// DeleteToken removes a user's token. Returns forge.ErrNotFound if the
	// user has no token with that id.
	DeleteToken(ctx context.Context, userID, tokenID forge.ID) error
	// TouchToken records the time a token was last used.
	TouchToken(ctx context.Context, tokenID forge.ID, at time.Time) error

	// CreateLoginSource inserts s (s.ID is set on success). Returns
	// forge.ErrConflict if the name is taken.
	CreateLoginSource(ctx context.Context, s *LoginSource) error
	// LoginSourceByID returns forge.ErrNotFound if there is none.
	LoginSourceByID(ctx context.Context, id forge.ID) (*LoginSource, error)
	// ListLoginSources returns every login source ordered by id.
	ListLoginSources(ctx context.Context) ([]*LoginSource, error)

	// TwoFactor returns the user's TOTP enrolment, forge.ErrNotFound if none.
	TwoFactor(ctx context.Context, userID forge.ID) (*TwoFactor, error)
	// PutTwoFactor inserts or replaces the user's TOTP enrolment.
	PutTwoFactor(ctx context.Context, tf *TwoFactor) error
	// DeleteTwoFactor removes the user's enrolment. Returns
	// forge.ErrNotFound if there is none.
	DeleteTwoFactor(ctx context.Context, userID forge.ID) error

	PeopleTx
}

// PeopleTx is the part of Tx over the relations between accounts and
// what a user keeps besides credentials: follows, blocks, e-mail
// addresses and settings.
type PeopleTx interface {
	// Follow records that userID follows followID (at is when) and counts
	// it in both users' NumFollowing and NumFollowers; a follow already
	// recorded changes nothing. forge.ErrNotFound if either user does not
	// exist.
	Follow(ctx context.Context, userID, followID forge.ID, at time.Time) error
	// Unfollow removes the follow and uncounts it; no follow changes
	// nothing.
	Unfollow(ctx context.Context, userID, followID forge.ID) error
	// IsFollowing reports whether userID follows followID.
	IsFollowing(ctx context.Context, userID, followID forge.ID) (bool, error)
	// ListFollows returns one page of the followers of f.UserID (or, with
	// f.Following, of the accounts it follows) that pass f, the earliest
	// follow first, and the number of all of them.
	ListFollows(ctx context.Context, f FollowFilter, o forge.ListOptions) ([]*forge.User, int64, error)

	// SetBlock records that b.BlockerID blocks b.UserID; a block already
	// recorded keeps its time. forge.ErrNotFound if either does not exist.
	SetBlock(ctx context.Context, b forge.Block) error
	// DeleteBlock lifts a block; forge.ErrNotFound if there is none.
	DeleteBlock(ctx context.Context, blockerID, userID forge.ID) error
	// IsBlocked reports whether blockerID blocks userID.
	IsBlocked(ctx context.Context, blockerID, userID forge.ID) (bool, error)
	// ListBlocked returns one page of the blocks of blockerID, newest
	// first, and their number.
	ListBlocked(ctx context.Context, blockerID forge.ID, o forge.ListOptions) ([]forge.Block, int64, error)
	// DropBlocked removes what userID holds on the repositories ownerID
	// owns (watches, with the counters, and collaborations) and the
	// transfers userID offered to ownerID.
	DropBlocked(ctx context.Context, ownerID, userID forge.ID) error

	// EmailAddresses returns a user's e-mail addresses other than the
	// primary one (forge.User.Email), in the order they were added.
	EmailAddresses(ctx context.Context, userID forge.ID) ([]EmailAddress, error)
	// AddEmailAddress records e (UserID, Email, Verified) as a further
	// address of its user. forge.ErrConflict if any user has it as a
	// further address (ignoring case); forge.ErrNotFound if the user does
	// not exist.
	AddEmailAddress(ctx context.Context, e EmailAddress) error
	// DeleteEmailAddress removes a further address of the user (ignoring
	// case); forge.ErrNotFound if it has none such.
	DeleteEmailAddress(ctx context.Context, userID forge.ID, email string) error
	// EmailAddressOwner returns the user who has email as a further
	// address (ignoring case); forge.ErrNotFound if none does.
	EmailAddressOwner(ctx context.Context, email string) (forge.ID, error)
	// SearchEmails returns one page of the addresses of people (their
	// primary ones, Primary set and Verified as the account is active, and
	// the further ones) whose address, name or full name contains keyword
	// ignoring case ("" keeps all), ordered by address ignoring case then
	// primary first, and the number of all matches. UserName is set.
	SearchEmails(ctx context.Context, keyword string, o forge.ListOptions) ([]EmailAddress, int64, error)

	// Settings returns a user's preferences; the zero Settings if none
	// were stored.
	Settings(ctx context.Context, userID forge.ID) (Settings, error)
	// PutSettings stores a user's preferences. forge.ErrNotFound if the
	// user does not exist.
	PutSettings(ctx context.Context, userID forge.ID, s Settings) error
}

// FollowFilter narrows ListFollows.
type FollowFilter struct {
	// UserID is the account whose followers are listed, or, with
	// Following, whose followed accounts.
	UserID    forge.ID
	Following bool
	// Visibilities, when non-empty, keeps the accounts of one of these
	// visibilities and the account Self whatever its visibility.
	Visibilities []forge.Visibility
	Self         forge.ID
}

// Matches reports whether u passes f's visibility rule: the meaning of the
// filter for stores that filter in Go and for tests.
func (f FollowFilter) Matches(u *forge.User) bool {
	if len(f.Visibilities) == 0 || (f.Self != 0 && u.ID == f.Self) {
		return true
	}
	for _, v := range f.Visibilities {
		if u.Visibility == v {
			return true
		}
	}
	return false
}

// UserCount narrows CountUsers. A nil field does not filter; a non-nil one
// keeps the accounts whose flag equals it.
type UserCount struct {
	// Admin is forge.User.IsAdmin.
	Admin *bool
	// Active is forge.User.IsActive.
	Active *bool
	// LoginAllowed is the negation of forge.User.ProhibitLogin.
	LoginAllowed *bool
}

// Matches reports whether u passes f: the meaning of the filter, for stores
// that count in Go and for tests.
func (f UserCount) Matches(u *forge.User) bool {
	return (f.Admin == nil || *f.Admin == u.IsAdmin) &&
		(f.Active == nil || *f.Active == u.IsActive) &&
		(f.LoginAllowed == nil || *f.LoginAllowed == !u.ProhibitLogin)
}

// UserFilter narrows ListUsers. Zero fields do not filter.
type UserFilter struct {
	// LoginSource, when non-nil, keeps users of that authentication source.
	LoginSource *forge.ID
	// LoginName keeps users with that external sign-in name.
	LoginName string
	// Sort is "" (oldest first), "oldest", "newest", "alphabetically",
	// "reversealphabetically", "recentupdate" or "leastupdate".
	Sort string
	// ID, when non-zero, keeps the user with that id.
	ID forge.ID
	// IndividualsOnly keeps people and drops organisations.
	IndividualsOnly bool
	// Keyword, when non-empty, keeps users whose name or full name contains
	// it, ignoring case; with KeywordEmail, also those whose e-mail contains
	// it and is not hidden (HideEmail), or belongs to Self, or with
	// HiddenEmails whatever it is.
	Keyword      string
	KeywordEmail bool
	HiddenEmails bool
	// Visibilities, when non-empty, keeps users with one of these
	// visibilities, and the user Self whatever its visibility.
	Visibilities []forge.Visibility
	// Self is the searching user's id (0: none), for Visibilities and
	// KeywordEmail.
	Self forge.ID
}
