// Package packages is Forgejo's package registry: packages of an owner
// (user or organisation) by type and name, their versions and files, the
// files' bytes in a blob store, the generic registry's upload, download and
// deletion, and the /api/v1/packages operations (list, get, delete, files,
// link to and unlink from a repository).
//
// Access is Forgejo's (services/context/package.go): the owner (and, for
// an organisation, its owners) may write; others read what the owner's
// visibility shows; site administrators may do everything. Tokens need
// read:package or write:package. A package owner the actor may not see is
// forge.ErrNotFound.
//
// packages imports forge and the standard library only (quota too, for the
// charge of every upload): never net/http, database/sql, a driver, go-git
// or another domain package.
package packages
