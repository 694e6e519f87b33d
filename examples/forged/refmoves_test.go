package main

import (
	"testing"
	"time"
)

// waitFor polls cond until it holds, failing the test with what after a
// minute: the consequences of a ref move run from the outbox, after the
// request that moved it.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within a minute", what)
		}
		<-tick.C
	}
}
