package gitstore

import (
	"container/list"
	"sync"
)

// lru is a bounded map of the most recently used entries; safe for
// concurrent use. It keeps at most size entries and, when maxCost > 0,
// entries whose costs (an estimate of their bytes) add up to at most
// maxCost; an entry costing more than maxCost/16 is not kept. A zero or
// negative size keeps nothing.
type lru[V any] struct {
	mu      sync.Mutex
	size    int
	maxCost int64
	cost    int64
	order   *list.List // of *lruItem[V], most recent first
	items   map[string]*list.Element
}

type lruItem[V any] struct {
	key  string
	val  V
	cost int64
}

func newLRU[V any](size int) *lru[V] {
	return &lru[V]{size: size, order: list.New(), items: map[string]*list.Element{}}
}

// newCostLRU is an lru bounded by maxCost as well.
func newCostLRU[V any](size int, maxCost int64) *lru[V] {
	c := newLRU[V](size)
	c.maxCost = maxCost
	return c
}

func (c *lru[V]) get(key string) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.items[key]; ok {
		c.order.MoveToFront(el)
		return el.Value.(*lruItem[V]).val, true
	}
	var zero V
	return zero, false
}

// put keeps val under key at the cost of its key and a fixed overhead.
func (c *lru[V]) put(key string, val V) { c.putCost(key, val, 0) }

// putCost keeps val under key at the cost of its key, a fixed overhead and
// extra (the bytes val holds).
func (c *lru[V]) putCost(key string, val V, extra int64) {
	cost := int64(len(key)) + 64 + extra
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.size <= 0 || (c.maxCost > 0 && cost > c.maxCost/16) {
		return
	}
	if el, ok := c.items[key]; ok {
		it := el.Value.(*lruItem[V])
		c.cost += cost - it.cost
		it.val, it.cost = val, cost
		c.order.MoveToFront(el)
	} else {
		c.items[key] = c.order.PushFront(&lruItem[V]{key: key, val: val, cost: cost})
		c.cost += cost
	}
	for c.order.Len() > c.size || (c.maxCost > 0 && c.cost > c.maxCost) {
		last := c.order.Back()
		c.order.Remove(last)
		it := last.Value.(*lruItem[V])
		delete(c.items, it.key)
		c.cost -= it.cost
	}
}

func (c *lru[V]) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len()
}
