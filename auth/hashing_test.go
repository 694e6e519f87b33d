package auth_test

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/storage/sqlite"
)

// hashMeter counts argon2id computations through the service's test hook.
type hashMeter struct {
	now, max, total atomic.Int64
	gate            chan struct{} // when non-nil, computations wait for it to close
}

func (m *hashMeter) hook(delta int) {
	n := m.now.Add(int64(delta))
	if delta < 0 {
		return
	}
	m.total.Add(1)
	for {
		old := m.max.Load()
		if n <= old || m.max.CompareAndSwap(old, n) {
			break
		}
	}
	if m.gate != nil {
		<-m.gate
	}
}

func newMeteredService(t *testing.T, cfg auth.Config, m *hashMeter) *auth.Service {
	t.Helper()
	db, err := sqlite.Open(context.Background(), ":memory:")
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	cfg.Store = db.Auth()
	if cfg.Password == (auth.PasswordParams{}) {
		cfg.Password = fastPasswords
	}
	svc, err := auth.New(cfg)
	require.NoError(t, err)
	no := false
	_, err = svc.EnsureAdmin(context.Background(), auth.CreateUserOptions{
		Name: "root", Email: "root@example.com", Password: "rootpassword", MustChangePassword: &no})
	require.NoError(t, err)
	auth.SetHashHook(svc, m.hook)
	return svc
}

// Many concurrent wrong passwords, for known and unknown users, never run
// more argon2id computations at once than Config.MaxConcurrentHashes, and
// each costs one computation (unknown users too, for timing).
func TestPasswordHashConcurrencyLimit(t *testing.T) {
	t.Parallel()
	m := &hashMeter{}
	svc := newMeteredService(t, auth.Config{MaxConcurrentHashes: 2, Throttle: auth.Throttle{Disabled: true},
		Password: auth.PasswordParams{Time: 1, MemoryKiB: 1024, Threads: 1}}, m)
	const n = 40
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			name := "root"
			if i%2 == 1 {
				name = fmt.Sprintf("nobody%d", i)
			}
			_, err := svc.Authenticate(context.Background(), auth.Credentials{Basic: true, Username: name,
				Password: "wrong-password", RemoteAddr: fmt.Sprintf("192.0.2.%d", i)})
			assert.ErrorIs(t, err, forge.ErrUnauthenticated)
		}()
	}
	wg.Wait()
	assert.LessOrEqual(t, m.max.Load(), int64(2), "computations at once")
	assert.Equal(t, int64(n), m.total.Load(), "one computation per attempt, unknown users included")
}

// The throttle counts attempts before their hash: once MaxPending attempts
// of an account or address are pending, or its failures and pending
// attempts reach the free budget, further attempts are refused at once,
// without a computation.
func TestThrottleCountsPendingAttempts(t *testing.T) {
	t.Parallel()
	m := &hashMeter{gate: make(chan struct{})}
	svc := newMeteredService(t, auth.Config{MaxConcurrentHashes: 2}, m)
	const n = 60
	maxPending := auth.DefaultThrottle.MaxPending
	results := make(chan error, n)
	for i := range n {
		go func() {
			_, err := svc.Authenticate(context.Background(), auth.Credentials{Basic: true, Username: "root",
				Password: fmt.Sprintf("guess-%d", i), RemoteAddr: "192.0.2.9"})
			results <- err
		}()
	}
	deadline := time.After(20 * time.Second)
	throttled := 0
	for throttled < n-maxPending {
		select {
		case err := <-results:
			var te *auth.ThrottledError
			require.True(t, errors.As(err, &te), "while %d attempts are pending, the others are refused: %v",
				maxPending, err)
			throttled++
		case <-deadline:
			t.Fatalf("only %d of %d attempts refused before their hash", throttled, n-maxPending)
		}
	}
	close(m.gate)
	for range maxPending {
		err := <-results
		assert.EqualError(t, err, "user's password is invalid [uid: 1, name: root]")
	}
	assert.Equal(t, int64(maxPending), m.total.Load(), "computations run")
	// The failures now lock the account, from that address, for a right
	// password too; not from another address (F8).
	_, err := svc.Authenticate(context.Background(), auth.Credentials{Basic: true, Username: "root",
		Password: "rootpassword", RemoteAddr: "192.0.2.9"})
	var te *auth.ThrottledError
	assert.True(t, errors.As(err, &te), "%v", err)
	_, err = svc.Authenticate(context.Background(), auth.Credentials{Basic: true, Username: "root",
		Password: "rootpassword", RemoteAddr: "198.51.100.1"})
	assert.NoError(t, err)
}

// EnsureAdmin hashes no password when an administrator exists.
func TestEnsureAdminHashesNothingWhenAdminExists(t *testing.T) {
	t.Parallel()
	m := &hashMeter{}
	svc := newMeteredService(t, auth.Config{}, m)
	created, err := svc.EnsureAdmin(context.Background(), auth.CreateUserOptions{
		Name: "other", Email: "other@example.com", Password: "another-password"})
	require.NoError(t, err)
	assert.False(t, created)
	assert.Zero(t, m.total.Load(), "argon2id computations")
}

// A waiting attempt ends with its context.
func TestHashWaitEndsWithContext(t *testing.T) {
	t.Parallel()
	m := &hashMeter{gate: make(chan struct{})}
	svc := newMeteredService(t, auth.Config{MaxConcurrentHashes: 1, Throttle: auth.Throttle{Disabled: true}}, m)
	first := make(chan error, 1)
	go func() {
		_, err := svc.Authenticate(context.Background(), auth.Credentials{Basic: true, Username: "root", Password: "wrong-one"})
		first <- err
	}()
	for m.now.Load() == 0 { // wait until the first computation holds the only slot
		runtime.Gosched()
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := svc.Authenticate(ctx, auth.Credentials{Basic: true, Username: "root", Password: "wrong-two"})
	assert.ErrorIs(t, err, context.Canceled)
	close(m.gate)
	assert.ErrorIs(t, <-first, forge.ErrUnauthenticated)
}

func TestNewRequiresStore(t *testing.T) {
	t.Parallel()
	svc, err := auth.New(auth.Config{})
	assert.Nil(t, svc)
	assert.ErrorIs(t, err, forge.ErrInvalid)
}

// Stored hashes with other parameters (Hearth's earlier default) verify.
func TestOldPasswordParamsVerify(t *testing.T) {
	t.Parallel()
	old := auth.PasswordParams{Time: 2, MemoryKiB: 64 * 1024, Threads: 2}
	h, err := auth.HashPassword("pw-of-old", old)
	require.NoError(t, err)
	assert.True(t, auth.VerifyPassword("pw-of-old", h))
	assert.Equal(t, auth.PasswordParams{Time: 2, MemoryKiB: 19 * 1024, Threads: 1}, auth.DefaultPasswordParams)
	assert.False(t, auth.VerifyPassword("x", "$argon2id$v=19$m=4194304,t=1,p=1$c2FsdHNhbHQ$a2V5a2V5"),
		"a hash asking for 4 GiB is refused")
}

// Once an address has a failure on record, its failures and pending
// attempts together are held to its free budget (AddressFree), whatever
// the accounts.
func TestThrottlePendingAfterAFailure(t *testing.T) {
	t.Parallel()
	m := &hashMeter{}
	cfg := auth.DefaultThrottle
	cfg.AddressFree = 5
	svc := newMeteredService(t, auth.Config{MaxConcurrentHashes: 2, Throttle: cfg}, m)
	ctx := context.Background()
	_, err := svc.Authenticate(ctx, auth.Credentials{Basic: true, Username: "nobody", Password: "x", RemoteAddr: "192.0.2.7"})
	require.ErrorIs(t, err, forge.ErrUnauthenticated)
	m.gate = make(chan struct{})
	const n = 30
	results := make(chan error, n)
	for i := range n {
		go func() {
			_, err := svc.Authenticate(ctx, auth.Credentials{Basic: true, Username: fmt.Sprintf("u%d", i),
				Password: "guess", RemoteAddr: "192.0.2.7"})
			results <- err
		}()
	}
	free := cfg.AddressFree - 1 // one failure is on record
	deadline := time.After(20 * time.Second)
	for range n - free {
		select {
		case err := <-results:
			var te *auth.ThrottledError
			require.True(t, errors.As(err, &te), "%v", err)
		case <-deadline:
			t.Fatal("attempts past the budget were not refused before their hash")
		}
	}
	close(m.gate)
	for range free {
		assert.ErrorIs(t, <-results, forge.ErrUnauthenticated)
	}
	assert.Equal(t, int64(1+free), m.total.Load(), "computations run")
}
