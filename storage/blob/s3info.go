package blob

import "time"

// Info describes a stored blob.
//
// This declaration is the one on branch h/reliab16 (storage/blob/list.go,
// next to Dir.List); it is repeated here only so that S3.List builds on
// its own. Delete this file when the two branches are joined.
type Info struct {
	Key      string
	Size     int64
	Modified time.Time // when its bytes were last written
}
