//go:build !race

package main

// bigPush is the size of the large-push tests: 50 MB, sent chunked by git.
const bigPush = 50 << 20
