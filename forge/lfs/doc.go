// Package lfs is Git LFS for repositories, as Forgejo serves it: the batch
// API's answers (which objects a client must upload, where it may download
// them), object transfer streamed into a blob store while hashed, and
// verification. A repository's objects are rows (Forgejo's
// lfs_meta_object: oid, size, repository); their bytes are blobs keyed by
// oid, shared by every repository holding that oid.
//
// Permissions are Forgejo's: read access to the repository's code
// downloads, write access uploads; tokens need read:repository or
// write:repository. A repository the actor may not see is
// repos.ErrRepoNotFound-like forge.ErrNotFound.
//
// lfs imports forge and the standard library only (quota too, for the
// charge of every upload): never net/http, database/sql, a driver, go-git
// or another domain package.
package lfs
