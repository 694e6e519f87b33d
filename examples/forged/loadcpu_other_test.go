//go:build !unix

package main

import "time"

// processCPU is 0 where getrusage is missing: the load benchmark then
// reports no CPU figures.
func processCPU() time.Duration { return 0 }
