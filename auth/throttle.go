package auth

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/netip"
	"sync"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// ThrottledError refuses a password sign-in while its (account, client
// address) pair or its client address is locked after repeated failures.
// It is a forge.ErrUnauthenticated; the HTTP layer answers 429 with
// Retry-After.
type ThrottledError struct {
	RetryAfter time.Duration
}

func (e *ThrottledError) Error() string {
	return fmt.Sprintf("too many failed sign-in attempts, retry in %d seconds", int((e.RetryAfter+time.Second-1)/time.Second))
}

// Is makes a ThrottledError a forge.ErrUnauthenticated.
func (e *ThrottledError) Is(target error) bool { return target == forge.ErrUnauthenticated }

// Throttle tunes the failed password sign-in counters (Forgejo has none).
// The zero value is DefaultThrottle, and each zero field takes
// DefaultThrottle's value; Disabled turns it off.
//
// Two counters see every password attempt:
//
//   - the pair (account, client address): after Free failures, that
//     address may not try that account for Base, then twice as long after
//     each further failure, up to Max. A right password clears the pair.
//     Someone failing from one address never locks the account's owner
//     out from another address.
//   - the client address alone: after AddressFree failures, whatever the
//     accounts, that address is locked the same way, so one address cannot
//     try a few passwords on each of many accounts. A right password does
//     not clear it. It limits only that address.
//
// The trade-off: there is no per-account limit, since any such limit lets
// a stranger lock the owner out. A guesser with many addresses gets about
// Free tries per address per lock period on one account: strong passwords
// and two-factor authentication are the defence against that. Clients that
// share an address (behind NAT, or a reverse proxy the host did not name
// as trusted, see httpapi.Config.TrustedProxies) share its budget, and a
// flood from one of them delays the others. IPv6 addresses count by their
// /64 network, the block one subscriber usually holds. Credentials with no
// RemoteAddr all share one address budget.
//
// The counters live in the memory of the auth.Service: per server process.
// A restart forgets them, and several processes serving one forge count
// separately (each lets through its own budget).
type Throttle struct {
	// Free is the number of failures of one (account, address) pair
	// allowed before it is locked.
	Free int
	// AddressFree is the number of failures from one address, across all
	// accounts, allowed before the address is locked. Zero means 10 × Free.
	AddressFree int
	// Base is the first lock; each further failure doubles it up to Max.
	Base, Max time.Duration
	// Forget clears a counter this long after its last failure.
	Forget time.Duration
	// MaxPending bounds the attempts of a pair or an address being checked
	// at once while it has no failure on record (once it has one, failures
	// and pending attempts together are held to its free budget). Zero
	// means 16: a burst of legitimate parallel sign-ins (a CI job cloning
	// with a password) passes, a flood does not.
	MaxPending int
	// Disabled turns throttling off.
	Disabled bool
}

// DefaultThrottle allows 5 failures per (account, address) pair and 50 per
// address, then locks for 1 s, 2 s, 4 s, … up to 15 minutes; a counter is
// forgotten an hour after its last failure; at most 16 attempts per pair or
// address are checked at once.
var DefaultThrottle = Throttle{Free: 5, AddressFree: 50, Base: time.Second, Max: 15 * time.Minute, Forget: time.Hour, MaxPending: 16}

// maxThrottleKeys bounds the counters kept in memory.
const maxThrottleKeys = 100_000

// throttle counts failed password sign-ins per (account, address) pair and
// per address. Counters live in memory: per process.
type throttle struct {
	cfg  Throttle
	mu   sync.Mutex
	keys map[string]*failures
}

type failures struct {
	count   int // failures since the counter was last forgotten or cleared
	pending int // attempts begun and not yet ended
	last    time.Time
	free    int // the key's free budget
}

// throttleKey is one counter an attempt is held to, with its free budget.
type throttleKey struct {
	name string
	free int
}

func newThrottle(cfg Throttle) *throttle {
	d := DefaultThrottle
	if cfg.Free <= 0 {
		cfg.Free = d.Free
	}
	if cfg.AddressFree <= 0 {
		cfg.AddressFree = 10 * cfg.Free
	}
	if cfg.Base <= 0 {
		cfg.Base = d.Base
	}
	if cfg.Max < cfg.Base {
		cfg.Max = max(d.Max, cfg.Base)
	}
	if cfg.Forget <= 0 {
		cfg.Forget = d.Forget
	}
	if cfg.MaxPending <= 0 {
		cfg.MaxPending = d.MaxPending
	}
	return &throttle{cfg: cfg, keys: map[string]*failures{}}
}

// keysFor are the counters of a sign-in of account (lower-cased name or
// e-mail) from the client address addr: the pair first, then the address.
// The account is kept as its SHA-256 digest, so a key has a fixed size
// whatever name a client sends (a megabyte-long Basic username must not
// cost a megabyte of memory for an hour).
func (t *throttle) keysFor(account, addr string) (pair, address throttleKey) {
	a := throttleAddr(addr)
	sum := sha256.Sum256([]byte(account))
	return throttleKey{"pair:" + hex.EncodeToString(sum[:]) + "@" + a, t.cfg.Free},
		throttleKey{"addr:" + a, t.cfg.AddressFree}
}

// throttleAddr is the address a counter is kept for: IPv4 addresses as
// they are, IPv6 ones by their /64 network (IPv4-mapped ones as IPv4),
// anything unparsable as given. A pure rule.
func throttleAddr(addr string) string {
	ip, err := netip.ParseAddr(addr)
	if err != nil {
		return addr
	}
	ip = ip.Unmap().WithZone("")
	if ip.Is4() {
		return ip.String()
	}
	return netip.PrefixFrom(ip, 64).Masked().String()
}

// begin reserves a sign-in attempt on every key, before its password is
// hashed, so that a flood is refused without hashing. It returns a
// ThrottledError, reserving nothing, when a key is locked by its failures;
// when it has a failure on record and its failures plus the attempts still
// pending reach its free budget (each pending attempt may be one more
// failure); or when MaxPending attempts are pending. Every nil return must
// be followed by one end with the same keys.
func (t *throttle) begin(now time.Time, keys ...throttleKey) error {
	if t.cfg.Disabled {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	var wait time.Duration
	for _, k := range keys {
		f := t.keys[k.name]
		if f == nil {
			continue
		}
		if now.Sub(f.last) > t.cfg.Forget {
			f.count = 0
		}
		if until := f.last.Add(t.lock(f.count, k.free)); until.After(now) && until.Sub(now) > wait {
			wait = until.Sub(now)
		}
		full := f.pending >= t.cfg.MaxPending || (f.count > 0 && f.count+f.pending >= k.free)
		if f.pending > 0 && full && t.cfg.Base > wait {
			wait = t.cfg.Base
		}
	}
	if wait > 0 {
		return &ThrottledError{RetryAfter: wait}
	}
	t.evict(now)
	for _, k := range keys {
		f := t.keys[k.name]
		if f == nil {
			f = &failures{free: k.free}
			t.keys[k.name] = f
		}
		f.pending++
	}
	return nil
}

// end finishes an attempt begun on keys: a failure is counted on every key;
// a success clears the count of the key named clear (the pair: not the
// address, since one good account must not reset the count of guesses
// against others).
func (t *throttle) end(now time.Time, failed bool, clear string, keys ...throttleKey) {
	if t.cfg.Disabled {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, k := range keys {
		f := t.keys[k.name]
		if f == nil { // evicted meanwhile
			f = &failures{free: k.free}
			t.keys[k.name] = f
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
		case k.name == clear:
			f.count = 0
		}
		if f.count == 0 && f.pending == 0 {
			delete(t.keys, k.name)
		}
	}
}

// lock is how long count failures lock a key whose budget is free, after
// the last one.
func (t *throttle) lock(count, free int) time.Duration {
	if count < free {
		return 0
	}
	d := t.cfg.Base
	for i := free; i < count && d < t.cfg.Max; i++ {
		d *= 2
	}
	return min(d, t.cfg.Max)
}

// evict bounds the counters kept: when full, forgotten idle counters go,
// then idle ones that lock nothing now, and if that is not enough, every
// idle counter (a flood from very many addresses can thus lift locks: the
// price of bounded memory). Called with mu held.
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
			if f.pending == 0 && !f.last.Add(t.lock(f.count, f.free)).After(now) {
				delete(t.keys, k)
			}
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
