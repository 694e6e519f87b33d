package sqlstore

import (
	"sync"
	"time"
)

// genCache keeps answers of Views (per repository, or per query) keyed by the write
// generation (generation.go) the View started at: an entry is used only by
// a View that started at the same generation while the generation is still
// that one, so no write of this process ended between the read that filled
// it and its use (update bumps the generation before it returns: a caller
// reads its own writes). A View answered wholly from such caches begins no
// transaction (DB.view). When several servers share the database
// (Dialect.Shared) nothing is cached; writes to the file by another
// process do not bump the generation either, so an entry is trusted for at
// most maxTokenAge, as the token cache's. It holds what issue counters and
// pull mirrors a repository view reads on every request, and what an issue
// search reads again for each of its pages (its repositories, its total).
type genCache[K comparable, V any] struct {
	mu sync.Mutex
	m  map[K]genEntry[V]
	// limit bounds the entries (maxGenCached when 0); when full the cache
	// starts over.
	limit int
}

type genEntry[V any] struct {
	gen uint64
	at  time.Time
	v   V
}

// maxGenCached bounds a genCache without its own limit.
const maxGenCached = 4096

// get returns the value cached for id if t may use it: t is a View, the
// database is not shared, the entry was filled at t's generation, that is
// still the current one, and the entry is younger than maxTokenAge.
func (c *genCache[K, V]) get(t *tx, id K) (V, bool) {
	var zero V
	if !t.readOnly || t.db.d.Shared || t.db.writes.load() != t.gen {
		return zero, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[id]
	if now := time.Now(); !ok || e.gen != t.gen || now.Sub(e.at) >= maxTokenAge || now.Before(e.at) {
		return zero, false
	}
	return e.v, true
}

// put caches v for id, read by t: only a View's committed reads enter.
func (c *genCache[K, V]) put(t *tx, id K, v V) {
	if !t.readOnly || t.db.d.Shared {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	limit := c.limit
	if limit <= 0 {
		limit = maxGenCached
	}
	if c.m == nil || len(c.m) >= limit {
		c.m = make(map[K]genEntry[V])
	}
	c.m[id] = genEntry[V]{gen: t.gen, at: time.Now(), v: v}
}
