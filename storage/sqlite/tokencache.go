package sqlite

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
)

// tokenCache keeps the answers of FindToken (a token and its user), keyed by
// token digest, so that a token request asks nothing of SQLite.
//
// Every write to users or tokens goes through authStore.Update, which bumps
// gen after the transaction ends (committed or not). An entry is used only
// while gen still has the value it had before the read that filled it: a
// revoked or deleted token, a deleted, disabled or demoted user, a changed
// scope or password take effect on the next request. A read that raced a
// write is tagged with the generation before the write and so is never used
// after it.
//
// Writes by another process sharing the database file do not bump gen:
// entries are therefore trusted for at most maxTokenAge.
type tokenCache struct {
	gen atomic.Uint64
	mu  sync.Mutex
	m   map[string]cachedToken
}

type cachedToken struct {
	gen   uint64
	at    time.Time
	token auth.AccessToken
	user  forge.User
}

const (
	// maxCachedTokens bounds the cache; when full it starts over.
	maxCachedTokens = 4096
	// maxTokenAge bounds how long an entry is trusted, for writes made to
	// the database file by another process.
	maxTokenAge = time.Second
)

// generation returns the value to tag a read that starts now with.
func (c *tokenCache) generation() uint64 { return c.gen.Load() }

// invalidate drops every entry; call it after every write transaction on
// users or tokens has ended.
func (c *tokenCache) invalidate() { c.gen.Add(1) }

// get returns copies of the cached token and user of hash, if any is
// current.
func (c *tokenCache) get(hash string, now time.Time) (*auth.AccessToken, *forge.User) {
	gen := c.gen.Load()
	c.mu.Lock()
	e, ok := c.m[hash]
	c.mu.Unlock()
	if !ok || e.gen != gen || now.Sub(e.at) >= maxTokenAge || now.Before(e.at) {
		return nil, nil
	}
	t, u := e.token, e.user
	return &t, &u
}

// put caches copies of t and u, read at generation gen (taken before the
// read began) and time now.
func (c *tokenCache) put(hash string, gen uint64, now time.Time, t *auth.AccessToken, u *forge.User) {
	if gen != c.gen.Load() {
		return // a write ended meanwhile: the read may be stale already
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= maxCachedTokens {
		c.m = make(map[string]cachedToken)
	}
	c.m[hash] = cachedToken{gen: gen, at: now, token: *t, user: *u}
}
