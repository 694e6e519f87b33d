package sqlstore

import (
	"sync"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// genCache keeps per-repository answers of Views keyed by the write
// generation (generation.go) the View started at: an entry is used only by
// a View that started at the same generation while the generation is still
// that one, so no write of this process ended between the read that filled
// it and its use (update bumps the generation before it returns: a caller
// reads its own writes). A View answered wholly from such caches begins no
// transaction (DB.view). When several servers share the database
// (Dialect.Shared) nothing is cached; writes to the file by another
// process do not bump the generation either, so an entry is trusted for at
// most maxTokenAge, as the token cache's. It holds what issue counters and
// pull mirrors a repository view reads on every request.
type genCache[V any] struct {
	mu sync.Mutex
	m  map[forge.ID]genEntry[V]
}

type genEntry[V any] struct {
	gen uint64
	at  time.Time
	v   V
}

// maxGenCached bounds a genCache; when full it starts over.
const maxGenCached = 4096

// get returns the value cached for id if t may use it: t is a View, the
// database is not shared, the entry was filled at t's generation, that is
// still the current one, and the entry is younger than maxTokenAge.
func (c *genCache[V]) get(t *tx, id forge.ID) (V, bool) {
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
func (c *genCache[V]) put(t *tx, id forge.ID, v V) {
	if !t.readOnly || t.db.d.Shared {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= maxGenCached {
		c.m = make(map[forge.ID]genEntry[V])
	}
	c.m[id] = genEntry[V]{gen: t.gen, at: time.Now(), v: v}
}
