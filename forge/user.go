package forge

import (
	"fmt"
	"time"
)

// Visibility is who may see a user, organisation or its content. The values
// are Forgejo's wire strings.
type Visibility string

// Visibility values.
const (
	VisibilityPublic  Visibility = "public"
	VisibilityLimited Visibility = "limited" // signed-in users only
	VisibilityPrivate Visibility = "private" // members only
)

// Valid reports whether v is one of the known values.
func (v Visibility) Valid() bool {
	switch v {
	case VisibilityPublic, VisibilityLimited, VisibilityPrivate:
		return true
	}
	return false
}

// UnmarshalText parses a wire string; the empty string means public, as in
// Forgejo's option structs.
func (v *Visibility) UnmarshalText(b []byte) error {
	s := Visibility(b)
	if s == "" {
		s = VisibilityPublic
	}
	if !s.Valid() {
		return Errorf(ErrInvalid, "invalid visibility %q", string(b))
	}
	*v = s
	return nil
}

// MarshalText returns the wire string.
func (v Visibility) MarshalText() ([]byte, error) { return []byte(v), nil }

// UserType tells people from organisations: both are accounts that can own
// repositories, as in Forgejo's user table.
type UserType int

// User types, with Forgejo's values.
const (
	UserTypeIndividual   UserType = 0
	UserTypeOrganization UserType = 1
)

// User is an account: a person or an organisation (Type). It holds
// what every domain may read; credentials (password hashes, tokens, TOTP
// secrets) belong to package auth and never appear here.
type User struct {
	ID   ID
	Type UserType
	// Name is the login name as typed at creation; lookups ignore case.
	Name        string
	FullName    string
	Email       string
	HideEmail   bool
	Location    string
	Website     string
	Description string
	Pronouns    string
	// HidePronouns shows Pronouns to signed-in users only (Forgejo's
	// keep_pronouns_private); HideActivity keeps the user's activity
	// (heatmap, feeds) to itself and administrators (keep_activity_private).
	HidePronouns bool
	HideActivity bool
	Language     string
	Visibility   Visibility
	// Avatar is the blob key of an uploaded avatar image, "" if none.
	Avatar string
	// RepoAdminChangeTeamAccess lets repository administrators of an
	// organisation's repositories add and remove teams (organisations only).
	RepoAdminChangeTeamAccess bool

	IsAdmin            bool
	IsActive           bool
	ProhibitLogin      bool
	Restricted         bool
	MustChangePassword bool

	// LoginSource is the authentication source: 0 for local accounts.
	LoginSource ID
	// LoginName is the sign-in name at an external LoginSource.
	LoginName string

	AllowGitHook            bool
	AllowImportLocal        bool
	AllowCreateOrganization bool
	// MaxRepoCreation limits the repositories the user may own; -1 means the
	// instance default.
	MaxRepoCreation int64

	// NumFollowers and NumFollowing count the accounts following this one
	// and those it follows (Forgejo's num_followers, num_following). The
	// stores keep them as follows are made and removed; an update of the
	// user never writes them.
	NumFollowers int64
	NumFollowing int64

	Created   time.Time
	Updated   time.Time
	LastLogin time.Time

	// Redacted marks a copy made by VisibleTo for an actor who may not see
	// the user's private fields: their zero values mean "not shown".
	Redacted bool
	// RedactedAvatarHash is, in a redacted copy, the avatar hash of the real
	// e-mail (which the copy no longer holds), kept by VisibleTo for
	// AvatarHash; "" otherwise. Exported so that copies compare with
	// go-cmp like every other domain value; stores neither read nor write it.
	RedactedAvatarHash string
}

var zeroTime time.Time

// String returns the user's name, for messages and logs.
func (u *User) String() string {
	if u == nil {
		return "<anonymous>"
	}
	return u.Name
}

// DescribeUser renders a user as Forgejo's errors do: `[uid: 1, name: x]`.
func DescribeUser(id ID, name string) string {
	return fmt.Sprintf("[uid: %d, name: %s]", id, name)
}

// IsOrganization reports whether the account is an organisation.
func (u *User) IsOrganization() bool { return u != nil && u.Type == UserTypeOrganization }
