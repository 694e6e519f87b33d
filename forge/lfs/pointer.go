package lfs

import (
	"crypto/sha256"
	"encoding/hex"
	"hash"
	"io"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// Pointer names an LFS object: its SHA-256 in lower-case hex and its size.
type Pointer struct {
	Oid  string `json:"oid"`
	Size int64  `json:"size"`
}

// Valid reports whether p is a well-formed pointer (Forgejo's
// Pointer.IsValid): 64 lower-case hex digits and a size not below zero.
func (p Pointer) Valid() bool {
	if len(p.Oid) != 64 || p.Size < 0 {
		return false
	}
	for _, c := range p.Oid {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// BlobKey is the key of the object's bytes in the blob store.
func (p Pointer) BlobKey() string { return "lfs-" + p.Oid }

// MetaObject is a repository's LFS object (Forgejo's lfs_meta_object).
type MetaObject struct {
	Pointer
	RepoID  forge.ID
	Created time.Time
}

// Errors of object transfer, with Forgejo's messages (modules/lfs).
var (
	ErrHashMismatch = forge.Errorf(forge.ErrInvalid, "content hash does not match OID")
	ErrSizeMismatch = forge.Errorf(forge.ErrInvalid, "content size does not match")
)

// verifyingReader passes r through, hashing it, and at its end reports
// ErrSizeMismatch or ErrHashMismatch instead of io.EOF when the bytes are
// not p's; it never reads more than p.Size+1 bytes. A blob store that
// writes atomically therefore keeps nothing of a wrong upload.
type verifyingReader struct {
	r    io.Reader
	p    Pointer
	h    hash.Hash
	n    int64
	done error
}

func newVerifyingReader(r io.Reader, p Pointer) *verifyingReader {
	return &verifyingReader{r: io.LimitReader(r, p.Size+1), p: p, h: sha256.New()}
}

func (v *verifyingReader) Read(b []byte) (int, error) {
	if v.done != nil {
		return 0, v.done
	}
	n, err := v.r.Read(b)
	v.n += int64(n)
	v.h.Write(b[:n])
	if v.n > v.p.Size {
		v.done = ErrSizeMismatch
		return 0, v.done
	}
	if err == io.EOF {
		switch {
		case v.n != v.p.Size:
			v.done = ErrSizeMismatch
		case hex.EncodeToString(v.h.Sum(nil)) != v.p.Oid:
			v.done = ErrHashMismatch
		default:
			v.done = io.EOF
		}
		return n, v.done
	}
	return n, err
}
