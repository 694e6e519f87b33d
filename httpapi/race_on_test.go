//go:build race

package httpapi_test

// bigPush is the size of the large-push tests: under the race detector,
// which slows every byte through Go several times over, a smaller push
// keeps the run short; the plain run pushes 50 MB.
const bigPush = 8 << 20
