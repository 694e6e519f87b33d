package auth

import (
	"fmt"
	"sync"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// ThrottledError refuses a password sign-in while its account or client
// address is locked after repeated failures. It is a forge.ErrUnauthenticated;
// the HTTP layer answers 429 with Retry-After.
type ThrottledError struct {
	RetryAfter time.Duration
}

func (e *ThrottledError) Error() string {
	return fmt.Sprintf("too many failed sign-in attempts, retry in %d seconds", int((e.RetryAfter+time.Second-1)/time.Second))
}

// Is makes a ThrottledError a forge.ErrUnauthenticated.
func (e *ThrottledError) Is(target error) bool { return target == forge.ErrUnauthenticated }

// Throttle tunes the failed sign-in counter. The zero value is
// DefaultThrottle; Disabled turns it off.
type Throttle struct {
	// Free is the number of failures allowed before locking.
	Free int
	// Base is the first lock; each further failure doubles it up to Max.
	Base, Max time.Duration
	// Forget clears a counter this long after its last failure.
	Forget time.Duration
	// MaxPending bounds the attempts of an account or address being checked
	// at once while it has no failure on record (once it has one, failures
	// and pending attempts together are held to Free). Zero means 16: a
	// burst of legitimate parallel sign-ins (a CI job cloning with a
	// password) passes, a flood does not.
	MaxPending int
	// Disabled turns throttling off.
	Disabled bool
}

// DefaultThrottle allows 5 failures, then locks for 1 s, 2 s, 4 s, … up to
// 15 minutes; a counter is forgotten an hour after its last failure; at most
// 16 attempts per account or address are checked at once.
var DefaultThrottle = Throttle{Free: 5, Base: time.Second, Max: 15 * time.Minute, Forget: time.Hour, MaxPending: 16}

// maxThrottleKeys bounds the counters kept in memory.
const maxThrottleKeys = 100_000

// throttle counts failed password sign-ins per account and per client
// address (Forgejo has no such counter). Counters live in memory: a
// restart forgets them, and several processes count separately.
type throttle struct {
	cfg  Throttle
	mu   sync.Mutex
	keys map[string]*failures
}

type failures struct {
	count   int // failures since the counter was last forgotten or cleared
	pending int // attempts begun and not yet ended
	last    time.Time
}

func newThrottle(cfg Throttle) *throttle {
	if cfg == (Throttle{}) {
		cfg = DefaultThrottle
	}
	if cfg.MaxPending <= 0 {
		cfg.MaxPending = DefaultThrottle.MaxPending
	}
	return &throttle{cfg: cfg, keys: map[string]*failures{}}
}

// begin reserves a sign-in attempt on every key, before its password is
// hashed, so that a flood is refused without hashing. It returns a
// ThrottledError, reserving nothing, when a key is locked by its failures;
// when it has a failure on record and its failures plus the attempts still
// pending reach the free budget (each pending attempt may be one more
// failure); or when MaxPending attempts are pending. Every nil return must
// be followed by one end with the same keys.
func (t *throttle) begin(now time.Time, keys ...string) error {
	if t.cfg.Disabled {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	var wait time.Duration
	for _, k := range keys {
		f := t.keys[k]
		if f == nil {
			continue
		}
		if now.Sub(f.last) > t.cfg.Forget {
			f.count = 0
		}
		if until := f.last.Add(t.lock(f.count)); until.After(now) && until.Sub(now) > wait {
			wait = until.Sub(now)
		}
		full := f.pending >= t.cfg.MaxPending || (f.count > 0 && f.count+f.pending >= t.cfg.Free)
		if f.pending > 0 && full && t.cfg.Base > wait {
			wait = t.cfg.Base
		}
	}
	if wait > 0 {
		return &ThrottledError{RetryAfter: wait}
	}
	t.evict(now)
	for _, k := range keys {
		f := t.keys[k]
		if f == nil {
			f = &failures{}
			t.keys[k] = f
		}
		f.pending++
	}
	return nil
}

// end finishes an attempt begun on keys: a failure is counted on every key;
// a success clears the count of account (not of the address: one good
// account must not reset the count of guesses against others).
func (t *throttle) end(now time.Time, failed bool, account string, keys ...string) {
	if t.cfg.Disabled {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, k := range keys {
		f := t.keys[k]
		if f == nil { // evicted meanwhile
			f = &failures{}
			t.keys[k] = f
		}
		if f.pending > 0 {
			f.pending--
		}
		switch {
		case failed:
			if now.Sub(f.last) > t.cfg.Forget {
				f.count = 0
			}
			f.count++
			f.last = now
		case k == account:
			f.count = 0
		}
		if f.count == 0 && f.pending == 0 {
			delete(t.keys, k)
		}
	}
}

// lock is how long count failures lock a key after the last one.
func (t *throttle) lock(count int) time.Duration {
	if count < t.cfg.Free {
		return 0
	}
	d := t.cfg.Base
	for i := t.cfg.Free; i < count && d < t.cfg.Max; i++ {
		d *= 2
	}
	return min(d, t.cfg.Max)
}

// evict bounds the counters kept: when full, forgotten idle counters go,
// and if that is not enough, every idle counter. Called with mu held.
func (t *throttle) evict(now time.Time) {
	if len(t.keys) < maxThrottleKeys {
		return
	}
	for k, f := range t.keys {
		if f.pending == 0 && now.Sub(f.last) > t.cfg.Forget {
			delete(t.keys, k)
		}
	}
	if len(t.keys) >= maxThrottleKeys {
		for k, f := range t.keys {
			if f.pending == 0 {
				delete(t.keys, k)
			}
		}
	}
}
