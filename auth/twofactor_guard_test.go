package auth_test

import (
	"context"
	"errors"
	"testing"

	"github.com/pquerna/otp/totp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
)

// enrolTOTP enrols actor in TOTP and returns its scratch code.
func enrolTOTP(t *testing.T, f *fixture, actor forge.Actor) string {
	t.Helper()
	ctx := context.Background()
	enr, err := f.svc.BeginTOTP(ctx, actor, "Hearth")
	require.NoError(t, err)
	code, err := totp.GenerateCode(enr.Secret, f.clock.Now())
	require.NoError(t, err)
	scratch, err := f.svc.EnableTOTP(ctx, actor, enr.Secret, code)
	require.NoError(t, err)
	return scratch
}

// TestHasTOTPTakesAnActor: a user's two-factor state is the user's and the
// site administrators' to read; anyone else, and a credential without the
// scope, is refused.
func TestHasTOTPTakesAnActor(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t, ":memory:")
	jo := f.user(t, "jo", false)
	mo := f.user(t, "mo", false)
	enrolTOTP(t, f, jo)
	joTok, err := f.svc.CreateToken(ctx, jo, "jo", auth.CreateTokenOptions{Name: "repo", Scopes: []string{"read:repository"}})
	require.NoError(t, err)
	joRepo, err := f.svc.Authenticate(ctx, auth.Credentials{Token: joTok.Token})
	require.NoError(t, err)
	rootTok, err := f.svc.CreateToken(ctx, f.root, "root", auth.CreateTokenOptions{Name: "user", Scopes: []string{"read:user"}})
	require.NoError(t, err)
	rootUser, err := f.svc.Authenticate(ctx, auth.Credentials{Token: rootTok.Token})
	require.NoError(t, err)

	for _, tt := range []struct {
		name  string
		actor forge.Actor
		want  error // nil: allowed, and jo is enrolled
	}{
		{"self", jo, nil},
		{"site administrator", f.root, nil},
		{"anonymous", forge.Anonymous, forge.ErrUnauthenticated},
		{"another user", mo, forge.ErrForbidden},
		{"self without read:user", joRepo, forge.ErrForbidden},
		{"administrator without read:admin", rootUser, forge.ErrForbidden},
	} {
		t.Run(tt.name, func(t *testing.T) {
			has, err := f.svc.HasTOTP(ctx, tt.actor, jo.User.ID)
			if tt.want == nil {
				require.NoError(t, err)
				assert.True(t, has)
				return
			}
			assert.ErrorIs(t, err, tt.want)
			assert.False(t, has, "nothing is told on refusal")
		})
	}
	has, err := f.svc.HasTOTP(ctx, mo, mo.User.ID)
	require.NoError(t, err)
	assert.False(t, has)
}

// TestRecoverTOTPIsThrottled: scratch-code guesses spend the sign-in
// throttle's budget, so the recovery path is no way around it; the lock
// is per (account, address), and a locked pair refuses even the right code
// until it expires.
func TestRecoverTOTPIsThrottled(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t, ":memory:")
	jo := f.user(t, "jo", false)
	scratch := enrolTOTP(t, f, jo)

	const addr = "198.51.100.7"
	free := auth.DefaultThrottle.Free
	for i := range free {
		err := f.svc.RecoverTOTP(ctx, "jo", "wrong-code", addr)
		require.ErrorIs(t, err, forge.ErrUnauthenticated, "guess %d", i)
		var te *auth.ThrottledError
		require.False(t, errors.As(err, &te), "guess %d is within the budget", i)
	}
	err := f.svc.RecoverTOTP(ctx, "jo", scratch, addr)
	var te *auth.ThrottledError
	require.True(t, errors.As(err, &te), "past the free guesses the pair is locked: %v", err)
	assert.ErrorIs(t, err, forge.ErrUnauthenticated)

	// Password guesses and scratch guesses share the counters.
	_, err = f.svc.Authenticate(ctx, auth.Credentials{Basic: true, Username: "jo", Password: "jo-password", RemoteAddr: addr})
	assert.True(t, errors.As(err, &te), "the password sign-in of a locked pair is refused too: %v", err)

	// Another address is not locked out, and the right code works there.
	require.NoError(t, f.svc.RecoverTOTP(ctx, "jo", scratch, "203.0.113.9"))
	has, err := f.svc.HasTOTP(ctx, jo, jo.User.ID)
	require.NoError(t, err)
	assert.False(t, has, "recovery removed the enrolment")
}
