package repos

import (
	"sync"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// Generations is an optional Store method for caching reads. Generation
// returns a number that changes whenever a write transaction of the store
// (of any domain: repositories, users, tokens, organisations, teams…) has
// ended, and is read without a transaction: a value read before a read
// transaction began and unchanged after it ended proves that what was read
// is still what is stored. Writes the store cannot see (another process
// sharing a database file) need not change it: the Service trusts an entry
// for at most maxViewAge.
type Generations interface {
	Generation() uint64
}

// viewKey is who asks and for what: every field of the actor that the
// permission and redaction rules read (the whole user row, the credential's
// scope), and the names asked for.
type viewKey struct {
	user, sudoer        forge.User
	signedIn, hasSudoer bool
	method              forge.AuthMethod
	scope               forge.Scope
	scoped              bool
	token               forge.ID
	owner, name         string
}

func keyOf(actor forge.Actor, owner, name string) viewKey {
	k := viewKey{method: actor.Method, scope: actor.Scope, scoped: actor.Scoped, token: actor.TokenID, owner: owner, name: name}
	if actor.User != nil {
		k.user, k.signedIn = *actor.User, true
	}
	if actor.Sudoer != nil {
		k.sudoer, k.hasSudoer = *actor.Sudoer, true
	}
	return k
}

// viewCache keeps GetRelated's answers, each with the store generation it
// was read at (see Generations). Bounded: when full it starts over.
type viewCache struct {
	mu sync.Mutex
	m  map[viewKey]*viewEntry // an entry is never changed once stored
}

type viewEntry struct {
	gen  uint64
	at   time.Time
	view View
	rel  Related
}

const (
	maxCachedViews = 1024
	// maxViewAge bounds how long an entry is trusted, for writes the
	// store's generation does not see.
	maxViewAge = time.Second
)

// get returns copies of the entry of k if it was read at generation gen
// less than maxViewAge before now.
func (c *viewCache) get(k viewKey, gen uint64, now time.Time) (*View, Related, bool) {
	c.mu.Lock()
	e, ok := c.m[k]
	c.mu.Unlock()
	if !ok || e.gen != gen || now.Sub(e.at) >= maxViewAge || now.Before(e.at) {
		return nil, Related{}, false
	}
	return cloneView(&e.view), cloneRelated(e.rel), true
}

// put keeps copies of v and rel read at generation gen (before the read
// began), unless the generation after the read, cur, differs: a write
// ended meanwhile.
func (c *viewCache) put(k viewKey, gen, cur uint64, now time.Time, v *View, rel Related) {
	if gen != cur {
		return
	}
	e := viewEntry{gen: gen, at: now, view: *cloneView(v), rel: cloneRelated(rel)}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= maxCachedViews {
		c.m = make(map[viewKey]*viewEntry)
	}
	c.m[k] = &e
}

// cloneView copies v's repository and owner, so that callers of the cache
// share no struct with it (Perm.Units and Topics are never written).
func cloneView(v *View) *View {
	if v == nil {
		return nil
	}
	// One allocation for the three copies.
	c := &struct {
		view  View
		repo  forge.Repository
		owner forge.User
	}{view: *v}
	if v.Repo != nil {
		c.repo = *v.Repo
		c.view.Repo = &c.repo
	}
	if v.Owner != nil {
		c.owner = *v.Owner
		c.view.Owner = &c.owner
	}
	return &c.view
}

func cloneRelated(rel Related) Related {
	out := Related{Parent: cloneView(rel.Parent)}
	if rel.Transfer != nil {
		t := *rel.Transfer
		if t.Doer != nil {
			d := *t.Doer
			t.Doer = &d
		}
		if t.Recipient != nil {
			r := *t.Recipient
			t.Recipient = &r
		}
		out.Transfer = &t
	}
	return out
}
