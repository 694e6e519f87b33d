// Package artifacts is Forgejo Actions' artifacts as a library: files a
// run produced, recorded with their bytes in a blob store, listed, deleted,
// and expired when their retention ends. No API route uploads them (a
// runner's upload protocol is not part of /api/v1); a product records them
// through Service.Record.
//
// Every artifact is charged to the owner of its repository's quota
// (size:assets:artifacts) in the transaction that records it, and given
// back when it is deleted or expires.
//
// artifacts imports forge and the standard library only (quota too):
// never net/http, database/sql, a driver, go-git or another domain package.
package artifacts

import (
	"time"

	"github.com/hearthforge/hearth/forge"
)

// Status is an artifact's state, with Forgejo's meaning.
type Status string

// Statuses.
const (
	StatusConfirmed Status = "upload-confirmed"
	StatusExpired   Status = "expired"
)

// Artifact is a file of an Actions run (Forgejo's action_artifact).
type Artifact struct {
	ID     forge.ID
	RepoID forge.ID
	RunID  forge.ID
	Name   string
	// BlobKey names the bytes in the blob store ("" once expired).
	BlobKey        string
	Size           int64
	CompressedSize int64
	Status         Status
	Created        time.Time
	// Expires is when the retention ends.
	Expires time.Time
}
