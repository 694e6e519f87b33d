package auth_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
)

// A Throttle with only some fields set takes the defaults for the others:
// Free alone still locks (before, a zero Base locked for nothing).
func TestThrottlePartialConfig(t *testing.T) {
	t.Parallel()
	svc := newMeteredService(t, auth.Config{Throttle: auth.Throttle{Free: 2}}, &hashMeter{})
	ctx := context.Background()
	bad := auth.Credentials{Basic: true, Username: "root", Password: "nope", RemoteAddr: "192.0.2.3"}
	for range 2 {
		_, err := svc.Authenticate(ctx, bad)
		require.ErrorIs(t, err, forge.ErrUnauthenticated)
	}
	_, err := svc.Authenticate(ctx, bad)
	var te *auth.ThrottledError
	require.True(t, errors.As(err, &te), "%v", err)
	assert.Equal(t, time.Second, te.RetryAfter)
}
