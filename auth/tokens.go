package auth

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strconv"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// AccessToken is a personal access token. The token itself is never stored:
// Hash is the hex SHA-256 of it. For 160 random bits a single unsalted
// SHA-256 is as strong as any KDF (nothing to brute-force) and makes the
// lookup one indexed query.
type AccessToken struct {
	ID        forge.ID
	UserID    forge.ID
	Name      string
	Hash      string
	LastEight string
	Scope     forge.Scope
	Created   time.Time
	// Updated is when the token was last used (to the minute).
	Updated time.Time
	// Token is the clear value: set only on the value CreateToken returns.
	Token string
}

// GenerateToken returns a new token value: 40 lowercase hex characters (20
// random bytes), as Forgejo's.
func GenerateToken() (string, error) {
	b := make([]byte, 20)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return hex.EncodeToString(b), nil
}

// HashToken returns the stored digest of a token value.
func HashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	var digest [2 * sha256.Size]byte
	hex.Encode(digest[:], sum[:])
	return string(digest[:])
}

// IsTokenFormat reports whether s has the shape of a personal access token:
// exactly 40 lowercase hexadecimal characters.
func IsTokenFormat(s string) bool {
	if len(s) != 40 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// CreateTokenOptions are the fields of a new token.
type CreateTokenOptions struct {
	Name string
	// Scopes are Forgejo scope words; they are parsed and normalised.
	Scopes []string
}

// ErrTokenRequest is the reason of the errors CreateToken returns for a bad
// request (Forgejo answers them with 400).
var ErrTokenRequest = forge.Errorf(forge.ErrInvalid, "bad token request")

// CreateToken creates a token for the user called owner and returns it with
// its clear value in Token (shown once).
//
// The actor's account must be able to act (*forge.AccountStateError) and
// its credential must allow write:user (forge.ErrForbidden); it must be
// owner or a site administrator (forge.ErrForbidden
// `doer should be the site admin or be same as the contextUser`) and must
// have signed in with a password or through the reverse proxy
// (forge.ErrUnauthenticated `auth method not allowed`). forge.ErrNotFound for
// an unknown owner; reason ErrTokenRequest for an empty name
// (forge.ErrInvalid `[Name]: Required`), a name in use
// (`access token name has been used already`), an invalid scope word
// (`invalid access token scope provided: …`) or an empty scope
// (`access token must have a scope`).
func (s *Service) CreateToken(ctx context.Context, actor forge.Actor, owner string, o CreateTokenOptions) (*AccessToken, error) {
	if err := operations["userCreateToken"].Check(actor); err != nil {
		return nil, err
	}
	u, err := s.tokenOwner(ctx, actor, owner)
	if err != nil {
		return nil, err
	}
	if o.Name == "" {
		return nil, forge.Errorf(forge.ErrInvalid, "[Name]: Required")
	}
	if err := requirePassword(actor); err != nil {
		return nil, err
	}
	scope, err := forge.ParseScope(o.Scopes...)
	if err != nil {
		return nil, forge.Reasonf(forge.ErrInvalid, ErrTokenRequest, "invalid access token scope provided: %s", err)
	}
	if scope.IsEmpty() {
		return nil, forge.Reasonf(forge.ErrInvalid, ErrTokenRequest, "access token must have a scope")
	}
	value, err := GenerateToken()
	if err != nil {
		return nil, err
	}
	now := s.clock.Now()
	t := &AccessToken{
		UserID:    u.ID,
		Name:      o.Name,
		Hash:      HashToken(value),
		LastEight: value[len(value)-8:],
		Scope:     scope,
		Created:   now,
		Updated:   now,
	}
	err = s.store.Update(ctx, func(tx Tx) error {
		same, err := tx.TokensByName(ctx, u.ID, o.Name)
		if err != nil {
			return err
		}
		if len(same) > 0 {
			return forge.Reasonf(forge.ErrConflict, ErrTokenRequest, "access token name has been used already")
		}
		return tx.CreateToken(ctx, t)
	})
	if err != nil {
		return nil, err
	}
	t.Token = value
	return t, nil
}

// ListTokens returns one page of the tokens of the user called owner, newest
// first, and their number. The actor must be owner or a site administrator,
// may act and its credential must allow read:user.
func (s *Service) ListTokens(ctx context.Context, actor forge.Actor, owner string, o forge.ListOptions) ([]*AccessToken, int64, error) {
	u, err := s.tokenOwner(ctx, actor, owner)
	if err != nil {
		return nil, 0, err
	}
	var (
		list  []*AccessToken
		total int64
	)
	err = s.store.View(ctx, func(tx Tx) error {
		var err error
		list, total, err = tx.ListTokens(ctx, u.ID, o.Normalize())
		return err
	})
	return list, total, err
}

// DeleteToken deletes a token of the user called owner. ref is the token's id
// when it parses as a non-zero integer (Go base prefixes 0x, 0o, 0b and a
// leading 0 apply, as in Forgejo), its name otherwise.
//
// Permissions as CreateToken. forge.ErrNotFound when no token matches;
// forge.ErrInvalid `multiple matches for token name '<name>'`.
func (s *Service) DeleteToken(ctx context.Context, actor forge.Actor, owner, ref string) error {
	if err := operations["userDeleteAccessToken"].Check(actor); err != nil {
		return err
	}
	u, err := s.tokenOwner(ctx, actor, owner)
	if err != nil {
		return err
	}
	if err := requirePassword(actor); err != nil {
		return err
	}
	return s.store.Update(ctx, func(tx Tx) error {
		id, _ := strconv.ParseInt(ref, 0, 64)
		if id == 0 {
			list, err := tx.TokensByName(ctx, u.ID, ref)
			if err != nil {
				return err
			}
			switch len(list) {
			case 0:
				return forge.Errorf(forge.ErrNotFound, "access token does not exist [id: 0]")
			case 1:
				id = list[0].ID
			default:
				return forge.Errorf(forge.ErrInvalid, "multiple matches for token name '%s'", ref)
			}
		}
		err := tx.DeleteToken(ctx, u.ID, id)
		if errors.Is(err, forge.ErrNotFound) {
			return forge.Errorf(forge.ErrNotFound, "access token does not exist [id: %d]", id)
		}
		return err
	})
}

// tokenOwner resolves owner and applies Forgejo's reqSelfOrAdmin rule.
func (s *Service) tokenOwner(ctx context.Context, actor forge.Actor, owner string) (*forge.User, error) {
	u, err := s.User(ctx, actor, owner)
	if err != nil {
		return nil, err
	}
	if actor.UserID() != u.ID && !actor.IsSiteAdmin() {
		return nil, forge.Errorf(forge.ErrForbidden, "doer should be the site admin or be same as the contextUser")
	}
	return u, nil
}

func requirePassword(actor forge.Actor) error {
	if actor.Method != forge.AuthPassword && actor.Method != forge.AuthReverseProxy {
		return forge.Errorf(forge.ErrUnauthenticated, "auth method not allowed")
	}
	return nil
}
