// Package mirror owns pull and push mirrors: the interval and next-update
// rules, remote addresses (credentials kept apart from the address and never
// shown), the remote address policy (no loopback, private, link-local or
// cloud-metadata targets unless allowed, as Forgejo's [migrations]), the
// mirror rows and their Store, the Service that syncs them through a Git
// consumer interface, and the Scheduler that runs due mirrors.
//
// It imports forge and the standard library only: never net/http,
// database/sql, storage drivers, go-git or another domain package. The git
// layer (storage/gitstore) implements Git; the wiring adapts forge/repos.
package mirror
