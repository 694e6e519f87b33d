package postgres

import (
	"context"
	"database/sql"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/mirror"
	"github.com/hearthforge/hearth/storage/internal/sqlstore"
	"github.com/hearthforge/hearth/storage/postgres/pgtest"
)

// restServer is one Hearth server's view of a shared database: its own pool
// and store, with its own count of write transactions run again after a
// serialization failure or deadlock.
type restServer struct {
	*DB
	retries atomic.Int64
}

// openRestServers opens n servers on one new migrated database (the schema is
// the template's: no server migrates).
func openRestServers(t *testing.T, n int) (dsn string, servers []*restServer) {
	t.Helper()
	dsn = pgtest.NewDatabase(t, migrated)
	for range n {
		pool, err := sql.Open("pgx", dsn)
		require.NoError(t, err)
		s := &restServer{}
		d := dialect
		d.Retry = func(err error) bool {
			ok := dialect.Retry(err)
			if ok {
				s.retries.Add(1)
			}
			return ok
		}
		s.DB = &DB{DB: sqlstore.New(pool, pool, d), sql: pool}
		t.Cleanup(func() { s.Close() })
		servers = append(servers, s)
	}
	return dsn, servers
}

// seedRestRepos inserts an owner and n repositories with plain SQL (the
// fixtures of the tests of several servers need rows, not the domains'
// rules) and returns the owner's and the repositories' ids.
func seedRestRepos(t *testing.T, db *sql.DB, owner string, n int) (forge.ID, []forge.ID) {
	t.Helper()
	ctx := context.Background()
	var uid forge.ID
	require.NoError(t, db.QueryRowContext(ctx, `INSERT INTO users (name, lower_name, email, lower_email, created_unix,
		updated_unix) VALUES ($1, $1, $1 || '@example.com', $1 || '@example.com', 0, 0) RETURNING id`, owner).Scan(&uid))
	ids := make([]forge.ID, n)
	for i := range ids {
		name := fmt.Sprintf("r%d", i)
		require.NoError(t, db.QueryRowContext(ctx, `INSERT INTO repository (owner_id, name, lower_name, default_branch,
			created_unix, updated_unix) VALUES ($1, $2, $2, 'main', 0, 0) RETURNING id`, uid, name).Scan(&ids[i]))
	}
	return uid, ids
}

// Two servers on one database claim its 100 due mirrors at once, as
// mirror.Scheduler and Service.run do through the store: load the due
// list (a view), then claim each mirror in a write transaction that reads
// it first, until none is left. Every mirror is claimed exactly once, and
// the claims' row locks (FOR UPDATE SKIP LOCKED) let a server pass over a
// mirror the other is claiming instead of failing serialization on its
// lease.
func TestServersClaimEachMirrorOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	_, servers := openRestServers(t, 2)
	_, repos := seedRestRepos(t, servers[0].sql, "mirrors", 60)
	at := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	var keys []mirror.Key
	require.NoError(t, servers[0].Mirrors().Update(ctx, func(tx mirror.Tx) error {
		keys = keys[:0]
		for i, repo := range repos {
			pm := &mirror.PullMirror{RepoID: repo, RemoteAddress: "https://example.com/x.git", Interval: time.Hour,
				NextUpdate: at.Add(-time.Duration(i%7) * time.Minute)}
			if err := tx.CreatePullMirror(ctx, pm); err != nil {
				return err
			}
			keys = append(keys, pm.Key())
		}
		for i, repo := range repos[:40] {
			pm := &mirror.PushMirror{RepoID: repo, RemoteName: "remote_mirror_x", RemoteAddress: "https://example.com/y.git",
				Interval: time.Hour, NextUpdate: at.Add(-time.Duration(i%5) * time.Minute)}
			if err := tx.CreatePushMirror(ctx, pm); err != nil {
				return err
			}
			keys = append(keys, pm.Key())
		}
		return nil
	}))
	require.Len(t, keys, 100)

	var mu sync.Mutex
	claims := map[mirror.Key][]string{}
	claimAll := func(s *restServer, holder string) error {
		st := s.Mirrors()
		for {
			var due []mirror.Due
			if err := st.View(ctx, func(tx mirror.Tx) error {
				var err error
				due, err = tx.DueMirrors(ctx, at, at, 10)
				return err
			}); err != nil {
				return err
			}
			if len(due) == 0 {
				return nil
			}
			for _, d := range due {
				claimed := false
				err := st.Update(ctx, func(tx mirror.Tx) error {
					claimed = false
					var next time.Time
					switch d.Key.Kind {
					case mirror.KindPull:
						m, err := tx.PullMirrorByID(ctx, d.Key.ID)
						if err != nil {
							return err
						}
						next = m.NextUpdate
					default:
						m, err := tx.PushMirrorByID(ctx, d.Key.ID)
						if err != nil {
							return err
						}
						next = m.NextUpdate
					}
					if next.IsZero() || next.After(at) {
						return nil
					}
					var err error
					claimed, err = tx.ClaimLease(ctx, mirror.Lease{Key: d.Key, Holder: holder, Expires: at.Add(time.Hour)}, at)
					return err
				})
				if err != nil {
					return err
				}
				if claimed {
					mu.Lock()
					claims[d.Key] = append(claims[d.Key], holder)
					mu.Unlock()
				}
			}
		}
	}
	// Each server claims with three workers, as a scheduler syncs several
	// mirrors at once; every worker is its own holder, so that a key
	// claimed twice shows even within one server.
	const workers = 3
	var wg sync.WaitGroup
	errs := make([]error, len(servers)*workers)
	start := make(chan struct{})
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			errs[i] = claimAll(servers[i%len(servers)], fmt.Sprintf("server-%d/%d", i%len(servers), i/len(servers)))
		}()
	}
	close(start)
	wg.Wait()
	for i, err := range errs {
		require.NoError(t, err, "claimer %d", i)
	}
	perServer := map[string]int{}
	for _, k := range keys {
		assert.Len(t, claims[k], 1, "mirror %v is claimed once: %v", k, claims[k])
		for _, h := range claims[k] {
			perServer[h[:len("server-0")]]++
		}
	}
	assert.Len(t, claims, len(keys), "no claim of a key that is not a mirror")
	t.Logf("claims per server: %v; write transactions run again: %d, %d", perServer,
		servers[0].retries.Load(), servers[1].retries.Load())
}

// TestLeaseRenewalDoesNotGiveWayToTheMirrorRowLock: a holder renewing its
// live lease while another transaction holds the mirror's row (another
// server's claim, a mirror-sync marking it due) renews it, where a claim
// gives way: a renewal that gave way ended a healthy sync as if its lease
// were lost.
func TestLeaseRenewalDoesNotGiveWayToTheMirrorRowLock(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	_, servers := openRestServers(t, 2)
	_, repos := seedRestRepos(t, servers[0].sql, "renewer", 1)
	at := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	pm := &mirror.PullMirror{RepoID: repos[0], RemoteAddress: "https://example.com/x.git", Interval: time.Hour, NextUpdate: at}
	require.NoError(t, servers[0].Mirrors().Update(ctx, func(tx mirror.Tx) error { return tx.CreatePullMirror(ctx, pm) }))
	claim := func(s *restServer, holder string, until time.Time) bool {
		var ok bool
		require.NoError(t, s.Mirrors().Update(ctx, func(tx mirror.Tx) error {
			var err error
			ok, err = tx.ClaimLease(ctx, mirror.Lease{Key: pm.Key(), Holder: holder, Expires: until}, at)
			return err
		}))
		return ok
	}
	require.True(t, claim(servers[0], "a", at.Add(time.Minute)))

	// Server b holds the mirror's row in an open transaction.
	tx, err := servers[1].sql.BeginTx(ctx, nil)
	require.NoError(t, err)
	defer tx.Rollback()
	_, err = tx.ExecContext(ctx, `SELECT id FROM mirror WHERE id = $1 FOR UPDATE`, pm.ID)
	require.NoError(t, err)

	assert.True(t, claim(servers[0], "a", at.Add(2*time.Minute)), "the holder's renewal gives way to the row lock")
	assert.False(t, claim(servers[0], "c", at.Add(3*time.Minute)), "another holder's claim of a live lease")
}
