package forge

import "time"

// Clock tells the time. Services take it from their Config and read it once
// per operation, so that every timestamp one operation writes is the same and
// tests can control it (see forgetest.FakeClock).
type Clock interface {
	Now() time.Time
}

// SystemClock is the Clock of the wall: time.Now truncated to seconds, the
// resolution Forgejo stores and the API reports.
type SystemClock struct{}

// Now returns the current time in UTC truncated to whole seconds.
func (SystemClock) Now() time.Time { return time.Now().UTC().Truncate(time.Second) }

// ClockOrSystem returns c, or SystemClock when c is nil. Constructors use it
// so that a zero Config means "the real clock".
func ClockOrSystem(c Clock) Clock {
	if c == nil {
		return SystemClock{}
	}
	return c
}
