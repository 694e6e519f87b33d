package postgres

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge/lfs"
	"github.com/hearthforge/hearth/quota"
)

// Two servers on one database store LFS objects of one owner at once,
// each charging quota in the transaction of its row as forge/lfs does
// (quota.Charge: read the groups and the counters, check, add). The
// owner's limit lets 100 of the 160 objects in: exactly 100 are stored,
// never one more, and the counter equals a recount of the rows, on both
// servers.
func TestServersQuotaCountersMatchRecount(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	_, servers := openRestServers(t, 2)
	uid, repos := seedRestRepos(t, servers[0].sql, "quotas", 2)
	const size, allowed, workers, each = 1000, 100, 2, 40
	cfg := quota.Config{Enabled: true, DefaultTotal: allowed * size}
	owners := []quota.Owner{{ID: uid, Name: "quotas", RepoID: repos[0]}, {ID: uid, Name: "quotas", RepoID: repos[1]}}
	at := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)

	var stored, refused atomic.Int64
	var wg sync.WaitGroup
	errs := make([]error, len(servers)*workers)
	start := make(chan struct{})
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			s := servers[i%len(servers)]
			for k := range each {
				owner := owners[k%len(owners)]
				m := &lfs.MetaObject{Pointer: lfs.Pointer{Oid: fmt.Sprintf("%064d", i*1000+k), Size: size},
					RepoID: owner.RepoID, Created: at}
				err := s.LFS().Update(ctx, func(tx lfs.Tx) error {
					if err := tx.CreateMetaObject(ctx, m); err != nil {
						return err
					}
					return quota.Charge(ctx, tx, cfg, owner, quota.SubjectGitLFS, quota.BucketLFS, size)
				})
				var over *quota.ExceededError
				switch {
				case err == nil:
					stored.Add(1)
				case errors.As(err, &over):
					refused.Add(1)
				default:
					errs[i] = err
					return
				}
			}
		}()
	}
	close(start)
	wg.Wait()
	for i, err := range errs {
		require.NoError(t, err, "writer %d", i)
	}
	assert.Equal(t, int64(allowed), stored.Load(), "the limit lets exactly %d objects in", allowed)
	assert.Equal(t, int64(len(errs)*each-allowed), refused.Load())
	for i, s := range servers {
		require.NoError(t, s.Quota().View(ctx, func(tx quota.Tx) error {
			used, err := tx.Usage(ctx, uid)
			require.NoError(t, err)
			recount, err := tx.RecountUsage(ctx, uid)
			require.NoError(t, err)
			assert.Equal(t, int64(allowed*size), used.LFS, "server %d: the counter", i)
			assert.Equal(t, recount.LFS, used.LFS, "server %d: the counter is the recount", i)
			return nil
		}))
	}
	t.Logf("stored %d, refused %d; write transactions run again: %d, %d", stored.Load(), refused.Load(),
		servers[0].retries.Load(), servers[1].retries.Load())
}
