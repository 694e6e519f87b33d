//go:build race

package blob_test

// raceEnabled: the race detector multiplies the large-object test's time
// (about 60 s) and distorts its allocation figures.
const raceEnabled = true
