package postgres

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/actions"
	"github.com/hearthforge/hearth/forge/forgetest"
)

// Two servers on one database serve a user's runner registration token at
// once (forge/actions reads the latest token and creates one when there is
// none, in one write transaction), rotate it at once, and register runners
// at once: every caller gets the same token, one token is active after
// any number of concurrent rotations (the newest), and every registration
// is stored once.
func TestServersRunnerTokensAndRegistrations(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	_, servers := openRestServers(t, 2)
	uid, _ := seedRestRepos(t, servers[0].sql, "runners", 0)
	u := forgetest.User("runners")
	u.ID = uid
	actor := forge.Actor{User: u}
	svcs := make([]*actions.Service, len(servers))
	for i, s := range servers {
		svc, err := actions.New(actions.Config{Store: s.Actions()})
		require.NoError(t, err)
		svcs[i] = svc
	}
	const callers = 6
	// concurrently runs fn(svc, k) for k < callers, on the servers in turn.
	concurrently := func(fn func(svc *actions.Service, k int) error) {
		t.Helper()
		var wg sync.WaitGroup
		errs := make([]error, callers)
		start := make(chan struct{})
		for k := range callers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				errs[k] = fn(svcs[k%len(svcs)], k)
			}()
		}
		close(start)
		wg.Wait()
		for k, err := range errs {
			require.NoError(t, err, "caller %d", k)
		}
	}
	active := func() (n int, newest string) {
		t.Helper()
		require.NoError(t, servers[0].sql.QueryRowContext(ctx, `SELECT count(*) FILTER (WHERE is_active),
			(SELECT token FROM action_runner_token WHERE owner_id = $1 ORDER BY id DESC LIMIT 1)
			FROM action_runner_token WHERE owner_id = $1 AND repo_id = 0`, uid).Scan(&n, &newest))
		return n, newest
	}

	tokens := make([]string, callers)
	concurrently(func(svc *actions.Service, k int) (err error) {
		tokens[k], err = svc.RegistrationToken(ctx, actor, actions.UserTarget())
		return err
	})
	for k := range tokens {
		assert.Equal(t, tokens[0], tokens[k], "caller %d gets the one token", k)
	}
	n, newest := active()
	assert.Equal(t, 1, n, "one token is created")
	assert.Equal(t, tokens[0], newest)

	concurrently(func(svc *actions.Service, k int) (err error) {
		tokens[k], err = svc.ResetRegistrationToken(ctx, actor, actions.UserTarget())
		return err
	})
	n, newest = active()
	assert.Equal(t, 1, n, "after concurrent rotations one token is active")
	assert.Contains(t, tokens, newest, "the newest is one a rotation returned")
	for _, svc := range svcs {
		tok, err := svc.RegistrationToken(ctx, actor, actions.UserTarget())
		require.NoError(t, err)
		assert.Equal(t, newest, tok, "every server serves the newest")
	}

	concurrently(func(svc *actions.Service, k int) error {
		_, _, err := svc.RegisterRunner(ctx, actor, actions.UserTarget(), actions.RegisterRunner{Name: fmt.Sprint("r", k)})
		return err
	})
	list, total, err := svcs[1].ListRunners(ctx, actor, actions.UserTarget(), false, forge.ListOptions{Limit: 50})
	require.NoError(t, err)
	assert.EqualValues(t, callers, total)
	names := map[string]bool{}
	for _, r := range list {
		names[r.Name] = true
	}
	assert.Len(t, names, callers, "each registration once")
	t.Logf("write transactions run again: %d, %d", servers[0].retries.Load(), servers[1].retries.Load())
}
