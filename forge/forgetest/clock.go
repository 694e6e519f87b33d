// Package forgetest holds test helpers built on package forge alone: a fake
// clock, actor and user builders, and cmp options. It is meant for tests of
// Hearth and of programs that embed it.
package forgetest

import (
	"sync"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// FakeClock is a forge.Clock that moves only when told. Safe for concurrent use.
type FakeClock struct {
	mu  sync.Mutex
	now time.Time
}

var _ forge.Clock = (*FakeClock)(nil)

// Epoch is the time a NewClock starts at: 2024-01-02T03:04:05Z.
var Epoch = time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)

// NewClock returns a FakeClock at Epoch.
func NewClock() *FakeClock { return &FakeClock{now: Epoch} }

// Now returns the clock's current time.
func (c *FakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Set moves the clock to t.
func (c *FakeClock) Set(t time.Time) {
	c.mu.Lock()
	c.now = t
	c.mu.Unlock()
}

// Step moves the clock forward by d and returns the new time.
func (c *FakeClock) Step(d time.Duration) time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	return c.now
}
