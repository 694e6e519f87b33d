package issues

import (
	"context"
	"errors"
	"sync"

	"github.com/hearthforge/hearth/forge"
)

// The pull request checker, as Forgejo's pr_patch_checker
// (services/pull/check.go): after a ref move, the pull requests whose base
// branch moved are not recomputed in the request that moved it. One store
// write (PullTx.MarkPullsChecking) sets their status to PullChecking, the
// durable marker, and puts them in a unique queue; the checker's workers
// (Service.Run, Config.Pulls.CheckWorkers of them) recompute each
// (refs/pull/N/head, merge base, ahead and behind, diff summary, test
// merge, and what a head move means: push comment, stale and dismissed
// reviews; then autodetect_manual_merge) and write the result. A pull
// request queued several times before a worker takes it is checked once,
// with the state of that moment; one queued again while it is being
// checked is checked once more afterwards and keeps PullChecking until
// then. Run re-queues at start the pull requests still PullChecking (a
// process that stopped with a queue loses nothing).

// DefaultCheckWorkers is the number of checker workers when
// PullConfig.CheckWorkers is 0.
const DefaultCheckWorkers = 2

// checkerActor reads the repositories and branches of the pull requests
// the checker recomputes: the system, a site administrator that no request
// can be. What the checker writes (push comments, manual merges) names the
// user whose ref move queued the check, or Ghost once that is not known.
var checkerActor = forge.Actor{User: &forge.User{ID: -1, Name: "pull-checker", IsAdmin: true, IsActive: true}}

// checker is the unique queue of pull requests (by issue id) to check. Its
// zero value is an empty queue.
type checker struct {
	mu sync.Mutex
	// pending are the queued pulls, by issue id, with the actor whose ref
	// move queued them last (zero when not known); order is their order.
	pending map[forge.ID]forge.Actor
	order   []forge.ID
	// running are the pulls being checked; again those queued meanwhile.
	running map[forge.ID]bool
	again   map[forge.ID]forge.Actor
	// wake has a token when pending may be non-empty (capacity 1).
	wake chan struct{}
	// changed is closed (and replaced) when a check ends.
	changed chan struct{}
	// hook, when set (tests), runs at the start of every check.
	hook func(ctx context.Context, issueID forge.ID)
}

func (c *checker) init() {
	if c.pending == nil {
		c.pending, c.running, c.again = map[forge.ID]forge.Actor{}, map[forge.ID]bool{}, map[forge.ID]forge.Actor{}
		c.wake, c.changed = make(chan struct{}, 1), make(chan struct{})
	}
}

// add queues the pulls of ids: a pull already pending stays once (who
// replaces its actor when known); one being checked is checked again after.
func (c *checker) add(ids []forge.ID, who forge.Actor) {
	if len(ids) == 0 {
		return
	}
	c.mu.Lock()
	c.init()
	for _, id := range ids {
		switch {
		case c.running[id]:
			if prev, ok := c.again[id]; !ok || who.IsSignedIn() || !prev.IsSignedIn() {
				c.again[id] = who
			}
		default:
			prev, ok := c.pending[id]
			if !ok {
				c.order = append(c.order, id)
			}
			if !ok || who.IsSignedIn() || !prev.IsSignedIn() {
				c.pending[id] = who
			}
		}
	}
	c.mu.Unlock()
	c.signal()
}

func (c *checker) signal() {
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

// pop takes the oldest pending pull and marks it running; ok false when
// none is pending.
func (c *checker) pop() (id forge.ID, who forge.Actor, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.init()
	if len(c.order) == 0 {
		return 0, forge.Actor{}, false
	}
	id = c.order[0]
	c.order = c.order[1:]
	who = c.pending[id]
	delete(c.pending, id)
	c.running[id] = true
	if len(c.order) > 0 {
		c.signal() // another worker may take the next one
	}
	return id, who, true
}

// finish ends the check of id: a pull queued again meanwhile is pending
// again.
func (c *checker) finish(id forge.ID) {
	c.mu.Lock()
	delete(c.running, id)
	if who, ok := c.again[id]; ok {
		delete(c.again, id)
		if _, dup := c.pending[id]; !dup {
			c.order = append(c.order, id)
		}
		c.pending[id] = who
		c.signal()
	}
	close(c.changed)
	c.changed = make(chan struct{})
	c.mu.Unlock()
}

// queued reports whether a check of id is still to come (pending, or queued
// again while running): a state written now keeps PullChecking.
func (c *checker) queued(id forge.ID) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, p := c.pending[id]
	_, a := c.again[id]
	return p || a
}

// busy returns a channel closed when a running check ends, nil when no
// check runs.
func (c *checker) busy() <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.init()
	if len(c.running) == 0 {
		return nil
	}
	return c.changed
}

func (c *checker) wakeup() <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.init()
	return c.wake
}

// queueChecks marks the open pull requests matching each filter
// PullChecking and queues them, in one transaction (one write per filter,
// whatever the number of pulls): who is the actor of the ref move (zero
// when not known). The pulls are queued inside the transaction, so that a
// check writing its result meanwhile sees them queued and keeps the
// marker.
func (s *Service) queueChecks(ctx context.Context, who forge.Actor, filters ...PullFilter) error {
	return s.store.Update(ctx, func(tx Tx) error {
		for _, f := range filters {
			ids, err := tx.MarkPullsChecking(ctx, f)
			if err != nil {
				return err
			}
			s.checks.add(ids, who)
		}
		return nil
	})
}

// Run runs the pull request checker until ctx is done: it re-queues the
// pull requests stored PullChecking (Forgejo's InitializePullRequests),
// then Config.Pulls.CheckWorkers workers (DefaultCheckWorkers when 0)
// check the queued pull requests. The host runs it once, for as long as
// it serves (without it, pull requests stay PullChecking after their base
// branch moves, and merges of pull requests whose head moved are refused
// with "Please try again later"). It returns nil when ctx is done, or the
// error of reading the pulls to re-queue. Without pull requests configured
// it waits for ctx.
func (s *Service) Run(ctx context.Context) error {
	if !s.pullsEnabled() {
		<-ctx.Done()
		return nil
	}
	if err := s.requeueChecking(ctx); err != nil {
		return err
	}
	n := s.cfg.Pulls.CheckWorkers
	if n <= 0 {
		n = DefaultCheckWorkers
	}
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.checkWorker(ctx)
		}()
	}
	wg.Wait()
	return nil
}

// requeueChecking queues the pull requests stored PullChecking.
func (s *Service) requeueChecking(ctx context.Context) error {
	var list []*PullRequest
	if err := s.store.View(ctx, func(tx Tx) error {
		var err error
		list, err = tx.FindPulls(ctx, PullFilter{Checking: true})
		return err
	}); err != nil {
		return err
	}
	ids := make([]forge.ID, 0, len(list))
	for _, p := range list {
		ids = append(ids, p.IssueID)
	}
	s.checks.add(ids, forge.Actor{})
	return nil
}

func (s *Service) checkWorker(ctx context.Context) {
	for ctx.Err() == nil {
		id, who, ok := s.checks.pop()
		if !ok {
			select {
			case <-ctx.Done():
				return
			case <-s.checks.wakeup():
			}
			continue
		}
		s.checkPull(ctx, id, who)
		s.checks.finish(id)
	}
}

// CheckPending runs the queued checks in the caller's goroutine until
// none is queued or running (those of Run's workers included): what a
// host without Run, or a test, calls to see the pull requests' state
// after a ref move. It returns ctx's error if ctx ends first.
func (s *Service) CheckPending(ctx context.Context) error {
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		if id, who, ok := s.checks.pop(); ok {
			s.checkPull(ctx, id, who)
			s.checks.finish(id)
			continue
		}
		ch := s.checks.busy()
		if ch == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-ch:
		}
	}
}

// checkPull checks the pull request of issue id. A check that fails
// leaves PullError (as Forgejo's testPR), but one stopped by ctx keeps
// PullChecking, re-queued on the next start.
func (s *Service) checkPull(ctx context.Context, id forge.ID, who forge.Actor) {
	if s.checks.hook != nil {
		s.checks.hook(ctx, id)
	}
	err := s.check(ctx, id, who)
	if err == nil || ctx.Err() != nil {
		return
	}
	s.log.DebugContext(ctx, "pulls: check", "issue", id, "err", err)
	_ = s.store.Update(ctx, func(tx Tx) error {
		cur, err := tx.PullByIssueID(ctx, id)
		if err != nil || cur.HasMerged || cur.Status != PullChecking || s.checks.queued(id) {
			return err
		}
		cur.Status = PullError
		return tx.UpdatePull(ctx, cur)
	})
}

// check recomputes the pull request of issue id (resync, reading as the
// system, writing as who or Ghost), then applies autodetect_manual_merge.
// A merged pull request, or one whose base repository is gone, is left.
func (s *Service) check(ctx context.Context, id forge.ID, who forge.Actor) error {
	var p *PullRequest
	if err := s.store.View(ctx, func(tx Tx) error {
		var err error
		p, err = tx.PullByIssueID(ctx, id)
		return err
	}); errors.Is(err, forge.ErrNotFound) {
		return nil
	} else if err != nil {
		return err
	}
	if p.HasMerged {
		return nil
	}
	base, _, err := s.cfg.Pulls.Repos.RepoAccessByID(ctx, checkerActor, p.BaseRepoID)
	if errors.Is(err, forge.ErrNotFound) {
		return nil
	} else if err != nil {
		return err
	}
	if !who.IsSignedIn() {
		who = forge.Actor{User: Ghost()}
	}
	cur, err := s.resyncAs(ctx, checkerActor, who, base, p)
	if err != nil {
		return err
	}
	if base.AutodetectManualMerge && cur != nil {
		return s.detectManualMerge(ctx, checkerActor, who, base, cur)
	}
	return nil
}
