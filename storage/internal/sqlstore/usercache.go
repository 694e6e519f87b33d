package sqlstore

import (
	"sync"

	"github.com/hearthforge/hearth/forge"
)

// userCache keeps users read by committed transactions, keyed by id and
// checked against the row's version, which every update of the row
// increments. A hit is therefore exactly what a full read would return, in
// this process or after another process changed the row: the version the
// caller read in its own snapshot decides.
type userCache struct {
	mu sync.Mutex
	m  map[forge.ID]cachedUser
}

type cachedUser struct {
	version int64
	user    forge.User
}

// maxCachedUsers bounds the cache; when full it starts over.
const maxCachedUsers = 4096

// get returns a copy of the cached user id if its version is version.
func (c *userCache) get(id forge.ID, version int64) *forge.User {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[id]
	if !ok || e.version != version {
		return nil
	}
	u := e.user
	return &u
}

// put caches a copy of u at version.
func (c *userCache) put(u *forge.User, version int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= maxCachedUsers {
		c.m = make(map[forge.ID]cachedUser)
	}
	c.m[u.ID] = cachedUser{version: version, user: *u}
}
