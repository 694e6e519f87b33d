package storetest

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
)

// race runs fn(0) … fn(n-1) at once, each in its own goroutine released
// together, and returns their errors by k once all have returned.
func race(n int, fn func(k int) error) []error {
	errs := make([]error, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for k := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			errs[k] = fn(k)
		}()
	}
	close(start)
	wg.Wait()
	return errs
}

// winners counts the nil errors of a race and asserts that every other one
// is lost (errors.Is).
func winners(t *testing.T, errs []error, lost error) int {
	t.Helper()
	won := 0
	for k, err := range errs {
		if err == nil {
			won++
			continue
		}
		assert.ErrorIs(t, err, lost, "racer %d", k)
	}
	return won
}
