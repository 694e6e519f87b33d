// Package mirror owns migrations and pull and push mirrors: the interval
// and next-update rules, remote addresses (credentials kept apart from the
// address and never shown), the remote address policy (no loopback,
// private, link-local or cloud-metadata targets unless allowed, as
// Forgejo's [migrations]), the mirror rows and their Store, the Service
// that migrates (Migrate: checks, creation, clone, pull mirror; nothing
// left on failure) and syncs through a Git consumer interface, and the
// Scheduler that runs due mirrors.
//
// Every method of Service takes the acting forge.Actor and checks it.
// The trusted operations that take none (recording a pull mirror, reading
// mirror rows unchecked, the push listener, the scheduler, lease release)
// are on Ports, which only the composition root receives (NewWithPorts).
// The git layer types failed transfers (ErrTransfer, ErrTransferAuth).
//
// It imports forge and the standard library only: never net/http,
// database/sql, storage drivers, go-git or another domain package. The git
// layer (storage/gitstore) implements Git; the wiring adapts forge/repos
// (Repos, Creator).
package mirror
