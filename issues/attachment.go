package issues

import (
	"context"
	"io"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// Attachment is a file attached to an issue (CommentID 0) or to a comment.
// Its bytes are in Blobs under its UUID.
type Attachment struct {
	ID        forge.ID
	UUID      string
	RepoID    forge.ID
	IssueID   forge.ID
	CommentID forge.ID
	// UploaderID is who uploaded it.
	UploaderID    forge.ID
	Name          string
	Size          int64
	DownloadCount int64
	Created       time.Time
}

// Blobs stores attachment bytes by key (storage/blob.Dir does; the same
// method set as forge/repos.Blobs, so one value serves both).
type Blobs interface {
	// Put stores r under key, reading at most max bytes (0: no limit);
	// forge.ErrInvalid when r is longer. It returns the size stored.
	Put(ctx context.Context, key string, r io.Reader, max int64) (int64, error)
	// Open returns the bytes stored under key; forge.ErrNotFound if none.
	Open(ctx context.Context, key string) (io.ReadCloser, error)
	// Delete removes key (no error if absent).
	Delete(ctx context.Context, key string) error
}

// UploadOption is an attachment upload: the file's name (already
// overridden by the `name` parameter when given), its bytes and an
// optional date (see CheckUpdatedAt).
type UploadOption struct {
	Name      string
	Content   io.Reader
	UpdatedAt *time.Time
}
