package auth

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// Credentials are what a request presents. The HTTP layer fills them from
// the Authorization header (`token <t>`, `Bearer <t>`, `Basic …`) and, unless
// the host disabled it, the `token` / `access_token` query parameters.
type Credentials struct {
	// Token is a bearer token from the header or the query.
	Token string
	// Basic is true when Basic credentials were sent.
	Basic    bool
	Username string
	Password string
	// OTP is the TOTP code of the X-Forgejo-OTP (or X-Gitea-OTP) header,
	// checked for password sign-ins of users with two-factor authentication.
	OTP string
	// RemoteAddr is the client's IP address, for the failed sign-in
	// counters (Throttle). httpapi fills it from the connection, or from
	// X-Forwarded-For behind trusted proxies; hosts calling Authenticate
	// themselves should too: every credential without one shares a single
	// address budget.
	RemoteAddr string
}

// IsEmpty reports whether no credentials were presented.
func (c Credentials) IsEmpty() bool { return c.Token == "" && !c.Basic }

// touchEvery is how stale a token's last-use time may get before a request
// writes it again: per-minute precision keeps the hot path read-only.
const touchEvery = time.Minute

// Authenticate resolves credentials to an actor that may act. No
// credentials give forge.Anonymous. Credentials that are presented but wrong
// give forge.ErrUnauthenticated with Forgejo's message; they never degrade to
// anonymous.
//
// A token is looked up by its SHA-256 digest (no KDF on this path). Basic
// auth with an empty password or `x-oauth-basic` takes the username as the
// token; otherwise a password that has the shape of a token is tried as one
// first (the username is then not checked, as in Forgejo), then the
// username and password sign in: against the local argon2id hash, or the
// ExternalVerifier for users of an external login source; then, for users
// with two-factor authentication, the OTP (401 `invalid provided OTP`).
//
// Password sign-ins are throttled per (account, client address) pair and
// per client address before any hash is computed (see Throttle for the
// trade-off: failures from one address never lock the account for another
// address): past Config.Throttle's free failures (failures and attempts
// still being checked both count) they are refused with a
// *ThrottledError. At most Config.MaxConcurrentHashes hashes run at once;
// an attempt waiting for its turn ends with ctx. Unknown users cost one
// verification like known ones, so they are not told apart by timing.
//
// Then, whatever the credential, the account state (Actor.CheckState): an
// inactive or login-prohibited account, or one that must change its
// password, is refused with a *forge.AccountStateError (an
// forge.ErrForbidden). Wrong credentials are reported before the account
// state, as in Forgejo, and a login-prohibited user's right password is
// Forgejo's 401 `user is not allowed login [uid: N, name: X]`.
func (s *Service) Authenticate(ctx context.Context, c Credentials) (forge.Actor, error) {
	a, err := s.authenticate(ctx, c)
	if err != nil {
		return forge.Anonymous, err
	}
	if err := a.CheckState(); err != nil {
		return forge.Anonymous, err
	}
	return a, nil
}

func (s *Service) authenticate(ctx context.Context, c Credentials) (forge.Actor, error) {
	switch {
	case c.Token != "":
		return s.authToken(ctx, c.Token)
	case c.Basic && (c.Password == "" || c.Password == "x-oauth-basic"):
		return s.authToken(ctx, c.Username)
	case c.Basic:
		if IsTokenFormat(c.Password) {
			a, err := s.authToken(ctx, c.Password)
			if err == nil || !errors.Is(err, forge.ErrUnauthenticated) {
				return a, err
			}
		}
		return s.authPassword(ctx, c)
	}
	return forge.Anonymous, nil
}

func (s *Service) authToken(ctx context.Context, token string) (forge.Actor, error) {
	if !IsTokenFormat(token) {
		return forge.Anonymous, forge.Errorf(forge.ErrUnauthenticated, "access token does not exist [sha: %s]", token)
	}
	t, u, err := s.findToken(ctx, HashToken(token))
	if errors.Is(err, forge.ErrNotFound) || err == nil && u.IsOrganization() {
		// Organisations never sign in: a token of one answers as an
		// unknown token.
		return forge.Anonymous, forge.Errorf(forge.ErrUnauthenticated, "access token does not exist [sha: %s]", token)
	} else if err != nil {
		return forge.Anonymous, err
	}
	if now := s.clock.Now(); now.Sub(t.Updated) >= touchEvery {
		// Last-use bookkeeping must not fail the request.
		if err := s.store.Update(ctx, func(tx Tx) error { return tx.TouchToken(ctx, t.ID, now) }); err != nil {
			s.log.DebugContext(ctx, "token last-use not recorded", "token", t.ID, "err", err)
		}
	}
	return forge.Actor{User: u, Method: forge.AuthToken, Scope: t.Scope, Scoped: true, TokenID: t.ID}, nil
}

// findToken reads the token of hash and its user: through the store's
// TokenFinder when it has one, else in a View. (Apart from authToken, so
// that the View's closure does not move its results to the heap on the
// TokenFinder path.)
func (s *Service) findToken(ctx context.Context, hash string) (*AccessToken, *forge.User, error) {
	if f, ok := s.store.(TokenFinder); ok {
		return f.FindToken(ctx, hash)
	}
	var (
		t *AccessToken
		u *forge.User
	)
	err := s.store.View(ctx, func(tx Tx) error {
		var err error
		t, u, err = tx.TokenByHash(ctx, hash)
		return err
	})
	return t, u, err
}

// authPassword signs in with a name (or e-mail) and password: throttled per
// (account, client address) pair and per client address, checked against the local hash or the
// external source, then the second factor.
func (s *Service) authPassword(ctx context.Context, c Credentials) (forge.Actor, error) {
	now := s.clock.Now()
	pair, addr := s.throttle.keysFor(strings.ToLower(c.Username), c.RemoteAddr)
	if err := s.throttle.begin(now, pair, addr); err != nil {
		return forge.Anonymous, err
	}
	actor, err := s.verifyPassword(ctx, c)
	if err == nil {
		err = s.checkOTP(ctx, actor.User.ID, c.OTP)
	}
	s.throttle.end(s.clock.Now(), errors.Is(err, forge.ErrUnauthenticated), pair.name, pair, addr)
	if err != nil {
		return forge.Anonymous, err
	}
	return actor, nil
}

func (s *Service) verifyPassword(ctx context.Context, c Credentials) (forge.Actor, error) {
	var (
		u    *forge.User
		hash string
		src  *LoginSource
	)
	if len(c.Username) > maxSignInName {
		// No account has such a name: answer as for an unknown one
		// without asking the store.
		if err := s.verifyDummy(ctx, c.Password); err != nil {
			return forge.Anonymous, err
		}
		return forge.Anonymous, forge.Errorf(forge.ErrUnauthenticated, "user does not exist [uid: 0, name: %s]", shortName(c.Username))
	}
	err := s.store.View(ctx, func(tx Tx) error {
		var err error
		if strings.Contains(c.Username, "@") {
			u, err = tx.UserByEmail(ctx, c.Username)
		} else {
			u, err = tx.UserByName(ctx, c.Username)
		}
		if err != nil {
			return err
		}
		if u.IsOrganization() {
			// Organisations never sign in: answer as for an unknown
			// name.
			u = nil
			return forge.Errorf(forge.ErrNotFound, "user does not exist")
		}
		if u.LoginSource != 0 {
			src, err = tx.LoginSourceByID(ctx, u.LoginSource)
			if err != nil {
				return err
			}
		}
		hash, err = tx.PasswordHash(ctx, u.ID)
		return err
	})
	if errors.Is(err, forge.ErrNotFound) && u == nil {
		// Spend the time of a verification so that unknown names do not
		// answer faster than wrong passwords.
		if err := s.verifyDummy(ctx, c.Password); err != nil {
			return forge.Anonymous, err
		}
		return forge.Anonymous, forge.Errorf(forge.ErrUnauthenticated, "user does not exist [uid: 0, name: %s]", shortName(c.Username))
	} else if err != nil {
		return forge.Anonymous, err
	}
	who := forge.DescribeUser(u.ID, u.Name)
	switch {
	case src != nil:
		if !src.IsActive || s.external == nil {
			return forge.Anonymous, forge.Errorf(forge.ErrUnauthenticated, "login source is not available [id: %d]", src.ID)
		}
		login := u.LoginName
		if login == "" {
			login = u.Name
		}
		if err := s.external.VerifyExternal(ctx, src, login, c.Password); err != nil {
			if errors.Is(err, forge.ErrUnauthenticated) {
				return forge.Anonymous, forge.Errorf(forge.ErrUnauthenticated, "user's password is invalid %s", who)
			}
			return forge.Anonymous, err
		}
	case hash == "":
		return forge.Anonymous, forge.Errorf(forge.ErrUnauthenticated, "user's password isn't set %s", who)
	default:
		ok, err := s.verifyHash(ctx, c.Password, hash)
		if err != nil {
			return forge.Anonymous, err
		}
		if !ok {
			return forge.Anonymous, forge.Errorf(forge.ErrUnauthenticated, "user's password is invalid %s", who)
		}
	}
	if u.ProhibitLogin {
		return forge.Anonymous, forge.Errorf(forge.ErrUnauthenticated, "user is not allowed login %s", who)
	}
	return forge.Actor{User: u, Method: forge.AuthPassword}, nil
}

// verifyDummy spends the time of one verification, within the concurrency
// limit, against a hash with the service's parameters made once.
func (s *Service) verifyDummy(ctx context.Context, password string) error {
	if err := s.acquireHash(ctx); err != nil {
		return err
	}
	defer s.releaseHash()
	s.dummyOnce.Do(func() { s.dummy, _ = HashPassword("hearth-dummy-password", s.pwd) })
	VerifyPassword(password, s.dummy)
	return nil
}

// CheckAccountState applies Forgejo's account-state rules to a signed-in
// user, with the full HTTP message: forge.ErrForbidden for an inactive or
// login-prohibited account, or one that must change its password (changeURL
// is where: Forgejo's `<ROOT_URL>/user/change_password`). Authenticate and
// every service method already apply these rules (Actor.CheckState); this
// remains for hosts that build actors themselves.
func CheckAccountState(u *forge.User, changeURL string) error {
	err := forge.Actor{User: u}.CheckState()
	var st *forge.AccountStateError
	if errors.As(err, &st) && st.State == forge.StateMustChangePassword {
		return forge.Errorf(forge.ErrForbidden, "%s Change it at: %s", st.Error(), changeURL)
	}
	if err != nil {
		return forge.Errorf(forge.ErrForbidden, "%s", err.Error())
	}
	return nil
}

// maxSignInName bounds the name echoed in a sign-in error: no account name
// or e-mail address is longer (names are at most 40 characters, addresses
// 255).
const maxSignInName = 255

// shortName is name cut to maxSignInName bytes, for messages.
func shortName(name string) string {
	if len(name) > maxSignInName {
		return name[:maxSignInName]
	}
	return name
}
