package mirror

import (
	"container/heap"
	"context"
	"sync"
	"time"
)

// Scheduler runs due mirrors: a priority queue by start time (next-update
// time plus Jitter), at most Config.Concurrency syncs at once, each under a
// lease row claimed in a transaction so that schedulers of several servers
// on one database never sync one mirror twice. Failures are recorded in the
// mirror's last error and retried with Backoff. It waits on the injected
// timer (After) and the Service's wake-ups, never polls faster than
// Config.Poll, and stops when ctx is done.
type Scheduler struct {
	svc    *Service
	holder string
	after  func(time.Duration) <-chan time.Time
	// onIdle, for tests, is called when the loop blocks with no sync running;
	// onLoad after each load of due mirrors.
	onIdle, onLoad func()
}

// newScheduler is Ports.NewScheduler.
func (s *Service) newScheduler(holder string, after func(d time.Duration) <-chan time.Time) *Scheduler {
	if after == nil {
		after = time.After
	}
	if holder == "" {
		holder = s.holderName()
	}
	return &Scheduler{svc: s, holder: holder, after: after}
}

// wake tells running schedulers to reload (a mirror was made due now).
func (s *Service) wake() {
	s.wakeMu.Lock()
	defer s.wakeMu.Unlock()
	for _, ch := range s.wakers {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
}

func (s *Service) subscribe() (chan struct{}, func()) {
	ch := make(chan struct{}, 1)
	s.wakeMu.Lock()
	s.wakers = append(s.wakers, ch)
	s.wakeMu.Unlock()
	return ch, func() {
		s.wakeMu.Lock()
		defer s.wakeMu.Unlock()
		for i, c := range s.wakers {
			if c == ch {
				s.wakers = append(s.wakers[:i], s.wakers[i+1:]...)
				return
			}
		}
	}
}

// item is a queued mirror.
type item struct {
	key   Key
	start time.Time
}

// queuedAt is the due time a mirror was queued for and its start.
type queuedAt struct{ at, start time.Time }

// queue is a min-heap of items by start time (then kind, then id).
type queue []item

func (q queue) Len() int { return len(q) }
func (q queue) Less(i, j int) bool {
	if !q[i].start.Equal(q[j].start) {
		return q[i].start.Before(q[j].start)
	}
	if q[i].key.Kind != q[j].key.Kind {
		return q[i].key.Kind < q[j].key.Kind
	}
	return q[i].key.ID < q[j].key.ID
}
func (q queue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *queue) Push(x any)   { *q = append(*q, x.(item)) }
func (q *queue) Pop() any     { old := *q; it := old[len(old)-1]; *q = old[:len(old)-1]; return it }
func (q queue) peek() (item, bool) {
	if len(q) == 0 {
		return item{}, false
	}
	return q[0], true
}

// batch is how many due mirrors one reload takes from the store.
const batch = 1000

// Run syncs due mirrors until ctx is done, then waits for the running
// syncs (their context is ctx, so they stop) and returns nil. A store
// error while loading is logged and retried at the next poll.
func (sc *Scheduler) Run(ctx context.Context) error {
	s := sc.svc
	if s.cfg.Disabled {
		<-ctx.Done()
		return nil
	}
	wake, unsubscribe := s.subscribe()
	defer unsubscribe()
	// A restart under the same name: what the last run left leased (a
	// crash never released it) is free again at once.
	if _, err := s.releaseLeases(ctx, sc.holder); err != nil && ctx.Err() == nil {
		s.log.Warn("mirror: releasing the leases of a previous run failed", "holder", sc.holder, "error", err)
	}
	conc := s.cfg.Concurrency
	if conc <= 0 {
		conc = DefaultConcurrency
	}
	poll := s.cfg.Poll
	if poll <= 0 {
		poll = DefaultPoll
	}
	jitter := s.cfg.Jitter
	if jitter <= 0 {
		jitter = DefaultJitter
	}
	var (
		q        queue
		queued   = map[Key]queuedAt{}
		running  int
		done     = make(chan Key)
		wg       sync.WaitGroup
		reloadAt time.Time // zero: reload now
		// wokeRunning: a wake-up came while syncs ran. The reload it
		// caused left out the mirrors those syncs lease, though a request
		// made during a sync keeps its mirror due (keepRequest): each sync
		// that ends then reloads, so that the request is not left to the
		// next poll.
		wokeRunning bool
	)
	defer wg.Wait()
	for {
		now := s.now()
		if !now.Before(reloadAt) {
			// Mirrors due before the next reload, with their jitter, are queued.
			due, err := sc.load(ctx, now.Add(poll), now)
			if err != nil && ctx.Err() == nil {
				s.log.Warn("mirror: loading due mirrors failed", "error", err)
			}
			if sc.onLoad != nil {
				sc.onLoad()
			}
			for _, d := range due {
				// Mirrors that come due in the look-ahead are spread by
				// their jitter; one already due (made due by a push or
				// overdue after downtime) starts now, bounded by conc.
				start := d.At
				if d.At.After(now) {
					start = d.At.Add(Jitter(d.Key, jitter))
				}
				// A mirror queued for this same due time stays as queued; one
				// whose due time moved earlier (a push made it due) is queued
				// again: the later pop finds it not due and skips it.
				if qd, ok := queued[d.Key]; !ok || (!d.At.Equal(qd.at) && start.Before(qd.start)) {
					queued[d.Key] = queuedAt{at: d.At, start: start}
					heap.Push(&q, item{key: d.Key, start: start})
				}
			}
			reloadAt = now.Add(poll)
			if len(due) == batch {
				reloadAt = now // more are due: reload as the queue drains
			}
		}
		for running < conc {
			it, ok := q.peek()
			if !ok || it.start.After(now) {
				break
			}
			heap.Pop(&q)
			running++
			wg.Add(1)
			go func(k Key) {
				defer wg.Done()
				if _, err := s.run(ctx, k, sc.holder, true); err != nil && ctx.Err() == nil {
					s.log.Debug("mirror: scheduled sync failed", "kind", k.Kind, "id", k.ID)
				}
				select {
				case done <- k:
				case <-ctx.Done():
				}
			}(it.key)
		}
		next := reloadAt
		if it, ok := q.peek(); ok && running < conc && it.start.Before(next) {
			next = it.start
		}
		var timer <-chan time.Time
		if running < conc || len(q) == 0 {
			timer = sc.after(max(next.Sub(now), 0))
		}
		if running == 0 && sc.onIdle != nil {
			sc.onIdle()
		}
		select {
		case <-ctx.Done():
			return nil
		case k := <-done:
			running--
			if qd, ok := queued[k]; ok && !qd.start.After(s.now()) {
				delete(queued, k)
			}
			if wokeRunning {
				reloadAt, wokeRunning = time.Time{}, running > 0
			}
		case <-wake:
			reloadAt, wokeRunning = time.Time{}, running > 0
		case <-timer:
		}
	}
}

// load reads due mirrors (NextUpdate before before) not leased at now.
func (sc *Scheduler) load(ctx context.Context, before, now time.Time) ([]Due, error) {
	var due []Due
	err := sc.svc.cfg.Store.View(ctx, func(tx Tx) error {
		var err error
		due, err = tx.DueMirrors(ctx, before, now, batch)
		return err
	})
	return due, err
}
