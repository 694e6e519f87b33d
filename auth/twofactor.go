package auth

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"errors"
	"strings"
	"time"

	"github.com/pquerna/otp"
	"github.com/pquerna/otp/totp"

	"github.com/hearthforge/hearth/forge"
)

// TwoFactor is a user's TOTP enrolment (RFC 6238: SHA-1, 6 digits, 30 s).
type TwoFactor struct {
	UserID forge.ID
	// Secret is the base32 TOTP secret sealed with Config.SecretKey.
	Secret string
	// ScratchHash is the SHA-256 of the one-time recovery code.
	ScratchHash string
	// LastUsedPasscode refuses the replay of a code within its window.
	LastUsedPasscode string
	Created          time.Time
	Updated          time.Time
}

// TOTPEnrollment is a new, not yet enabled TOTP secret to show the user
// (as text or as the otpauth:// URL of a QR code).
type TOTPEnrollment struct {
	Secret string
	URL    string
}

var totpOpts = totp.ValidateOpts{Period: 30, Skew: 1, Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1}

// ErrInvalidOTP is the reason of the 401 `invalid provided OTP`.
var ErrInvalidOTP = forge.Errorf(forge.ErrUnauthenticated, "invalid provided OTP")

// BeginTOTP generates a TOTP secret for the actor. Nothing is stored until
// EnableTOTP confirms a code made from it (Forgejo's API has no 2FA
// endpoints; hosts build enrolment on these calls). issuer names the forge
// in authenticator apps.
func (s *Service) BeginTOTP(ctx context.Context, actor forge.Actor, issuer string) (*TOTPEnrollment, error) {
	if err := requireSelf(actor); err != nil {
		return nil, err
	}
	key, err := totp.Generate(totp.GenerateOpts{Issuer: issuer, AccountName: actor.User.Name, Period: 30,
		Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1})
	if err != nil {
		return nil, err
	}
	return &TOTPEnrollment{Secret: key.Secret(), URL: key.URL()}, nil
}

// EnableTOTP enrols the actor with secret once code proves the user holds
// it, and returns the scratch (recovery) code, shown once. Errors:
// forge.ErrInvalid for a wrong code, forge.ErrConflict when already
// enrolled, forge.ErrPrecondition without Config.SecretKey.
func (s *Service) EnableTOTP(ctx context.Context, actor forge.Actor, secret, code string) (scratch string, err error) {
	if err := requireSelf(actor); err != nil {
		return "", err
	}
	now := s.clock.Now()
	if ok, _ := totp.ValidateCustom(code, secret, now, totpOpts); !ok {
		return "", forge.Errorf(forge.ErrInvalid, "invalid provided OTP")
	}
	sealed, err := forge.Seal(s.secretKey, []byte(secret))
	if err != nil {
		return "", err
	}
	scratch = strings.ToLower(rand.Text()[:10])
	tf := &TwoFactor{UserID: actor.User.ID, Secret: sealed, ScratchHash: HashToken(scratch),
		LastUsedPasscode: code, Created: now, Updated: now}
	err = s.store.Update(ctx, func(tx Tx) error {
		if _, err := tx.TwoFactor(ctx, actor.User.ID); err == nil {
			return forge.Errorf(forge.ErrConflict, "two-factor authentication is already enabled")
		} else if !errors.Is(err, forge.ErrNotFound) {
			return err
		}
		return tx.PutTwoFactor(ctx, tf)
	})
	if err != nil {
		return "", err
	}
	return scratch, nil
}

// DisableTOTP removes the actor's enrolment. forge.ErrNotFound if none.
func (s *Service) DisableTOTP(ctx context.Context, actor forge.Actor) error {
	if err := requireSelf(actor); err != nil {
		return err
	}
	return s.store.Update(ctx, func(tx Tx) error { return tx.DeleteTwoFactor(ctx, actor.User.ID) })
}

// RecoverTOTP disables the two-factor authentication of the user called
// name with its scratch code, as Forgejo's sign-in page does for a lost
// device. It is a credential entry point, so it is throttled like a
// password sign-in, on the same counters (Config.Throttle): per (name,
// remoteAddr) pair and per remoteAddr, the client's IP address (see
// Credentials.RemoteAddr). A scratch guess thus spends the budget of a
// password guess, and a right code clears the pair.
//
// Errors: forge.ErrUnauthenticated `invalid scratch code` for an unknown
// user, a user without two-factor authentication or a wrong code; a
// *ThrottledError (a forge.ErrUnauthenticated) while the pair or the
// address is locked.
func (s *Service) RecoverTOTP(ctx context.Context, name, scratch, remoteAddr string) error {
	pair, addr := s.throttle.keysFor(strings.ToLower(name), remoteAddr)
	if err := s.throttle.begin(s.clock.Now(), pair, addr); err != nil {
		return err
	}
	err := s.store.Update(ctx, func(tx Tx) error {
		u, err := tx.UserByName(ctx, name)
		if err != nil {
			return forge.Errorf(forge.ErrUnauthenticated, "invalid scratch code")
		}
		tf, err := tx.TwoFactor(ctx, u.ID)
		if err != nil || subtle.ConstantTimeCompare([]byte(HashToken(scratch)), []byte(tf.ScratchHash)) != 1 {
			return forge.Errorf(forge.ErrUnauthenticated, "invalid scratch code")
		}
		return tx.DeleteTwoFactor(ctx, u.ID)
	})
	s.throttle.end(s.clock.Now(), errors.Is(err, forge.ErrUnauthenticated), pair.name, pair, addr)
	return err
}

// HasTOTP reports whether the user with id userID is enrolled. Only that
// user and site administrators may ask.
//
// Errors: forge.ErrUnauthenticated `token is required` for an anonymous
// actor; the actor's *forge.AccountStateError; forge.ErrForbidden when the
// credential lacks read:user (own enrolment) or read:admin (another
// user's), or `user should be the site admin` when the actor is neither
// the user nor a site administrator.
func (s *Service) HasTOTP(ctx context.Context, actor forge.Actor, userID forge.ID) (bool, error) {
	if !actor.IsSignedIn() {
		return false, forge.Errorf(forge.ErrUnauthenticated, "token is required")
	}
	if actor.UserID() == userID {
		if err := actor.Check(forge.AccessRead, forge.CategoryUser); err != nil {
			return false, err
		}
	} else if err := requireAdmin(actor, forge.AccessRead); err != nil {
		return false, err
	}
	err := s.store.View(ctx, func(tx Tx) error { _, err := tx.TwoFactor(ctx, userID); return err })
	if errors.Is(err, forge.ErrNotFound) {
		return false, nil
	}
	return err == nil, err
}

// checkOTP verifies the code of a password sign-in for a user with 2FA and
// records it against replay, in one transaction. No enrolment: nil.
func (s *Service) checkOTP(ctx context.Context, userID forge.ID, code string) error {
	return s.store.Update(ctx, func(tx Tx) error {
		tf, err := tx.TwoFactor(ctx, userID)
		if errors.Is(err, forge.ErrNotFound) {
			return nil
		} else if err != nil {
			return err
		}
		if code == "" || subtle.ConstantTimeCompare([]byte(code), []byte(tf.LastUsedPasscode)) == 1 {
			return ErrInvalidOTP
		}
		secret, err := forge.Unseal(s.secretKey, tf.Secret)
		if err != nil {
			return err
		}
		now := s.clock.Now()
		if ok, _ := totp.ValidateCustom(code, string(secret), now, totpOpts); !ok {
			return ErrInvalidOTP
		}
		tf.LastUsedPasscode, tf.Updated = code, now
		return tx.PutTwoFactor(ctx, tf)
	})
}

// requireSelf is what the actor's own account settings need: a signed-in
// user (forge.ErrUnauthenticated `token is required`) who may act and whose
// credential allows write:user.
func requireSelf(actor forge.Actor) error {
	if !actor.IsSignedIn() {
		return forge.Errorf(forge.ErrUnauthenticated, "token is required")
	}
	return actor.Check(forge.AccessWrite, forge.CategoryUser)
}
