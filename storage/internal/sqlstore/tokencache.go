package sqlstore

import (
	"sync"
	"time"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
)

// tokenCache keeps the answers of FindToken (a token and its user), keyed by
// token digest, so that a token request asks nothing of SQLite.
//
// An entry is used only while the DB's write generation still has the value
// it had before the read that filled it: any write transaction that ends
// (a revoked or deleted token, a deleted, disabled or demoted user, a
// changed scope or password, anything else) empties the cache for the next
// request. A read that raced a write is tagged with the generation before
// the write and so is never used after it.
//
// Writes by another process sharing the database file do not bump the
// generation: entries are therefore trusted for at most maxTokenAge.
type tokenCache struct {
	mu sync.Mutex
	m  map[string]*cachedToken // an entry is never changed once stored
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

// get returns copies of the cached token and user of hash, if any is
// current: read at generation gen (the DB's now) less than maxTokenAge
// before now.
func (c *tokenCache) get(hash string, gen uint64, now time.Time) (*auth.AccessToken, *forge.User) {
	c.mu.Lock()
	e, ok := c.m[hash]
	c.mu.Unlock()
	if !ok || e.gen != gen || now.Sub(e.at) >= maxTokenAge || now.Before(e.at) {
		return nil, nil
	}
	cp := &struct { // one allocation for the two copies
		t auth.AccessToken
		u forge.User
	}{e.token, e.user}
	return &cp.t, &cp.u
}

// put caches copies of t and u, read at generation gen (taken before the
// read began) and time now, unless the generation is no longer gen (cur:
// the DB's after the read): a write ended meanwhile, the read may be stale.
func (c *tokenCache) put(hash string, gen, cur uint64, now time.Time, t *auth.AccessToken, u *forge.User) {
	if gen != cur {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= maxCachedTokens {
		c.m = make(map[string]*cachedToken)
	}
	c.m[hash] = &cachedToken{gen: gen, at: now, token: *t, user: *u}
}
