package sqlstore

import "sync/atomic"

// generation counts the write transactions of a DB that have ended
// (committed or rolled back): DB.update bumps it when its transaction is
// over. A value read before a read began and unchanged after it proves that
// no write of this process ended meanwhile, so what was read is still what
// is stored: the caches keyed by it (tokenCache, repos.Service's view
// cache through Generation) need no other invalidation. Writes by another
// process sharing the file do not bump it: those caches bound the age of
// their entries instead.
type generation struct{ n atomic.Uint64 }

func (g *generation) load() uint64 { return g.n.Load() }

func (g *generation) bump() { g.n.Add(1) }

// Generation is the repos.Generations method: the number of write
// transactions of this DB that have ended. When several servers share the
// database (Dialect.Shared) this process cannot count their writes, so
// every call answers a new value and no read is ever proved current: the
// caches keyed by it hold nothing.
func (s repoStore) Generation() uint64 {
	if s.db.d.Shared {
		return s.db.writes.n.Add(1)
	}
	return s.db.writes.load()
}
