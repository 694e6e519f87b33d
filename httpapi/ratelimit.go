package httpapi

import (
	"math"
	"net/http"
	"net/netip"
	"strconv"
	"sync"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// RateLimit limits how often one client may call the expensive operations
// (archives, searches, diffs and compares: RateLimitedOperations): each
// client has a bucket of Burst requests that refills at PerSecond; a
// request finding it empty is answered 429 with Retry-After, before any
// authentication or work. A client is its address as the sign-in throttle
// sees it (Config.TrustedProxies), an IPv6 client its /64 network. The
// zero value is DefaultRateLimit; each zero field takes DefaultRateLimit's
// value.
type RateLimit struct {
	// PerSecond is the sustained rate of expensive requests a client may
	// make.
	PerSecond float64
	// Burst is how many it may make at once.
	Burst int
	// Operations are the operationIds limited; nil means
	// RateLimitedOperations.
	Operations []string
	// Disabled turns the limit off.
	Disabled bool
	// Clock times the buckets; nil is the wall clock.
	Clock forge.Clock
}

// DefaultRateLimit allows a client bursts of 120 expensive requests and 10
// a second (600 a minute) after that: enough for scripts and CI tools that
// list commits, bounded for a client that loops over archives or diffs.
var DefaultRateLimit = RateLimit{PerSecond: 10, Burst: 120}

// RateLimitedOperations are the operations RateLimit applies to by
// default: those whose cost grows with the repository or the site rather
// than with the answer (archives, searches, diffs, patches, compares and
// commit lists with their stats), served now or later.
var RateLimitedOperations = []string{
	"repoGetArchive",
	"repoSearch", "issueSearchIssues", "userSearch", "teamSearch", "topicSearch", "adminSearchUsers", "adminSearchEmails",
	"repoCompareDiff", "repoDownloadCommitDiffOrPatch", "repoDownloadPullDiffOrPatch", "repoGetPullRequestFiles",
	"repoGetAllCommits", "repoGetSingleCommit",
}

// maxRateKeys bounds the clients tracked; past it the full buckets are
// forgotten, and if all are in use every bucket is (the limit then
// restarts, memory stays bounded).
const maxRateKeys = 100_000

// rateLimiter is RateLimit's state: one token bucket per client.
type rateLimiter struct {
	cfg   RateLimit
	clock forge.Clock
	ops   map[string]bool
	mu    sync.Mutex
	keys  map[string]*bucket
}

type bucket struct {
	tokens float64
	at     time.Time
}

type wallClock struct{}

func (wallClock) Now() time.Time { return time.Now() }

// newRateLimiter returns the limiter of cfg, nil when it is disabled.
func newRateLimiter(cfg RateLimit) *rateLimiter {
	if cfg.Disabled {
		return nil
	}
	if cfg.PerSecond <= 0 {
		cfg.PerSecond = DefaultRateLimit.PerSecond
	}
	if cfg.Burst <= 0 {
		cfg.Burst = DefaultRateLimit.Burst
	}
	ops := cfg.Operations
	if ops == nil {
		ops = RateLimitedOperations
	}
	l := &rateLimiter{cfg: cfg, clock: cfg.Clock, ops: map[string]bool{}, keys: map[string]*bucket{}}
	if l.clock == nil {
		l.clock = wallClock{}
	}
	for _, op := range ops {
		l.ops[op] = true
	}
	return l
}

// allow takes a token from key's bucket; when there is none it returns
// false and the wait until there is one.
func (l *rateLimiter) allow(key string) (bool, time.Duration) {
	now := l.clock.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.keys[key]
	if b == nil {
		if len(l.keys) >= maxRateKeys {
			l.sweep(now)
		}
		b = &bucket{tokens: float64(l.cfg.Burst), at: now}
		l.keys[key] = b
	}
	if d := now.Sub(b.at); d > 0 {
		b.tokens = math.Min(float64(l.cfg.Burst), b.tokens+d.Seconds()*l.cfg.PerSecond)
		b.at = now
	}
	if b.tokens >= 1 {
		b.tokens--
		return true, 0
	}
	return false, time.Duration((1 - b.tokens) / l.cfg.PerSecond * float64(time.Second))
}

// sweep forgets the buckets that are full again, or all of them.
func (l *rateLimiter) sweep(now time.Time) {
	for k, b := range l.keys {
		if b.tokens+now.Sub(b.at).Seconds()*l.cfg.PerSecond >= float64(l.cfg.Burst) {
			delete(l.keys, k)
		}
	}
	if len(l.keys) >= maxRateKeys {
		clear(l.keys)
	}
}

// rateKey is the bucket of a client address: an IPv6 client's /64.
func rateKey(addr string) string {
	a, err := netip.ParseAddr(addr)
	if err != nil || a.Unmap().Is4() {
		return addr
	}
	p, _ := a.Prefix(64)
	return p.String()
}

// rateAllowed answers 429 (Retry-After, Forgejo's error body) and returns
// false when the operation op is rate limited and the client has used its
// budget.
func (c *call) rateAllowed(op string) bool {
	l := c.a.rate
	if l == nil || !l.ops[op] {
		return true
	}
	ok, wait := l.allow(rateKey(clientAddr(c.r.RemoteAddr, c.r.Header.Values("X-Forwarded-For"), c.a.cfg.TrustedProxies)))
	if ok {
		return true
	}
	secs := int64(math.Ceil(wait.Seconds()))
	c.w.Header().Set("Retry-After", strconv.FormatInt(max(secs, 1), 10))
	c.errorStatus(http.StatusTooManyRequests, "too many requests: retry in "+strconv.FormatInt(max(secs, 1), 10)+" s")
	return false
}
