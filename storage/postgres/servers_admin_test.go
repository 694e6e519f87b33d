package postgres

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/forgetest"
)

// meeting makes the first write transaction of each of two servers wait,
// after its function has run and before it commits, until the other's has
// got as far: two servers' transactions that both read before either
// writes. Reruns (after a serialization failure) do not wait.
type meeting struct {
	wg    sync.WaitGroup
	stuck atomic.Bool // set when a wait gave up
}

func newMeeting() *meeting {
	m := &meeting{}
	m.wg.Add(2)
	return m
}

// arrive is called at the end of every run of one server's transaction
// function; ran is that server's.
func (m *meeting) arrive(ran *atomic.Bool) {
	if !ran.CompareAndSwap(false, true) {
		return
	}
	m.wg.Done()
	met := make(chan struct{})
	go func() { m.wg.Wait(); close(met) }()
	select {
	case <-met:
	case <-time.After(time.Minute):
		m.stuck.Store(true)
	}
}

// seat is one server's place at a meeting.
type seat struct {
	meet *meeting
	ran  atomic.Bool
}

// meetAfter is fn followed by s's arrival at the meeting: the function of
// a store's write transaction made to wait (meetStore, meetOrgStore).
func meetAfter[Tx any](s *seat, fn func(Tx) error) func(Tx) error {
	return func(tx Tx) error {
		err := fn(tx)
		s.meet.arrive(&s.ran)
		return err
	}
}

// meetStore is an auth.Store whose first write transaction waits at the
// meeting.
type meetStore struct {
	auth.Store
	seat
}

func (s *meetStore) Update(ctx context.Context, fn func(auth.Tx) error) error {
	return s.Store.Update(ctx, meetAfter(&s.seat, fn))
}

// meetRace runs run(0) and run(1) side by side, each on its server, and
// requires that their transactions met; it returns their errors.
func meetRace(t *testing.T, meet *meeting, run func(i int) error) [2]error {
	t.Helper()
	var errs [2]error
	var wg sync.WaitGroup
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = run(i)
		}()
	}
	wg.Wait()
	require.False(t, meet.stuck.Load(), "the two transactions never ran side by side")
	return errs
}

// oneSucceeds requires that exactly one of errs is nil, that the other is
// no serialization failure (those are rerun, never returned) and that it
// is the refusal refused checks.
func oneSucceeds(t *testing.T, errs [2]error, what string, refused func(i int, err error)) {
	t.Helper()
	ok := 0
	for i, err := range errs {
		if err == nil {
			ok++
			continue
		}
		refused(i, err)
		assert.False(t, errors.Is(err, ErrRetry), "server %d: the conflict is retried, not returned", i)
	}
	assert.Equal(t, 1, ok, "%s: %v", what, errs)
}

// Two servers on one database each take one of its two administrators
// away at once. The last-administrator check counts the administrators
// inside the write transaction, which runs SERIALIZABLE: exactly one
// change succeeds, the other is rerun, sees one administrator left and is
// refused with ErrLastAdmin. Reading the count in its own snapshot (or at
// READ COMMITTED) would let both through and leave no administrator.
func TestTwoServersLastAdmin(t *testing.T) {
	t.Parallel()
	no := false
	demote := func(ctx context.Context, svc *auth.Service, actor forge.Actor, name string) error {
		_, err := svc.EditUser(ctx, actor, name, auth.EditUserOptions{Admin: &no})
		return err
	}
	deleteUser := func(ctx context.Context, svc *auth.Service, actor forge.Actor, name string) error {
		return svc.DeleteUser(ctx, actor, name)
	}
	// Server 0: ada acts on bob. Server 1: bob acts on ada.
	for name, ops := range map[string][2]func(context.Context, *auth.Service, forge.Actor, string) error{
		"DemoteBoth":      {demote, demote},
		"DeleteAndDemote": {deleteUser, demote},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			raceAdmins(t, ops)
		})
	}
}

// raceAdmins seeds two administrators, ada and bob, on a fresh database
// opened by two servers, runs ops[0] as ada on bob through server 0 and
// ops[1] as bob on ada through server 1 side by side, and checks that
// exactly one succeeds and one administrator is left.
func raceAdmins(t *testing.T, ops [2]func(context.Context, *auth.Service, forge.Actor, string) error) {
	ctx := context.Background()
	dbs := openServers(t)
	fast := auth.PasswordParams{Time: 1, MemoryKiB: 64, Threads: 1}
	seed, err := auth.New(auth.Config{Store: dbs[0].Auth(), Clock: forgetest.NewClock(), Password: fast})
	require.NoError(t, err)
	no, yes := false, true
	_, err = seed.EnsureAdmin(ctx, auth.CreateUserOptions{Name: "ada", Email: "ada@example.com", Password: "ada-password",
		MustChangePassword: &no})
	require.NoError(t, err)
	ada, err := seed.Authenticate(ctx, auth.Credentials{Basic: true, Username: "ada", Password: "ada-password"})
	require.NoError(t, err)
	_, err = seed.CreateUser(ctx, ada, auth.CreateUserOptions{Name: "bob", Email: "bob@example.com",
		Password: "bob-password", MustChangePassword: &no})
	require.NoError(t, err)
	_, err = seed.EditUser(ctx, ada, "bob", auth.EditUserOptions{Admin: &yes})
	require.NoError(t, err)
	bob, err := seed.Authenticate(ctx, auth.Credentials{Basic: true, Username: "bob", Password: "bob-password"})
	require.NoError(t, err)
	require.True(t, bob.IsSiteAdmin())

	meet := newMeeting()
	var svcs [2]*auth.Service
	for i, db := range dbs {
		svcs[i], err = auth.New(auth.Config{Store: &meetStore{Store: db.Auth(), seat: seat{meet: meet}},
			Clock: forgetest.NewClock(), Password: fast})
		require.NoError(t, err)
	}
	actors, targets := [2]forge.Actor{ada, bob}, [2]string{"bob", "ada"}
	errs := meetRace(t, meet, func(i int) error { return ops[i](ctx, svcs[i], actors[i], targets[i]) })
	oneSucceeds(t, errs, "exactly one change succeeds", func(i int, err error) {
		assert.ErrorIs(t, err, auth.ErrLastAdmin, "server %d", i)
	})

	var admins int64
	require.NoError(t, dbs[1].Auth().View(ctx, func(tx auth.Tx) error {
		admins, err = tx.CountUsers(ctx, auth.AdminCount())
		return err
	}))
	assert.Equal(t, int64(1), admins, "one administrator is left")
}
