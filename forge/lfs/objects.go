package lfs

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/hearthforge/hearth/forge"
)

// Operation is what a batch request asks for.
type Operation string

// The batch operations.
const (
	OpDownload Operation = "download"
	OpUpload   Operation = "upload"
)

// ObjectError is the error of one object of a batch answer.
type ObjectError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// BatchObject is one object of a batch answer: its pointer, and either an
// error or the actions the client may take (Download: fetch it; Upload:
// send it, then verify). An upload of an object the repository already
// holds has neither actions nor error.
type BatchObject struct {
	Pointer
	Error    *ObjectError
	Download bool
	Upload   bool
}

// Batch answers a batch request of the actor for the repository
// owner/name: per object, whether and how it may be transferred, with
// Forgejo's per-object errors (422 `Oid or size are invalid`, 422 `Object
// <oid> is not <size> bytes`, 422 `Size must be less than or equal to <n>`,
// 404 `Not Found` for a download of an object the repository lacks).
// Downloads need read access, uploads write access (see access for the
// errors). An upload batch is first checked against the owner's quota for
// the bytes it would add (see charge): a refusal is the quota error, for
// the whole batch. An operation other than download and upload is
// forge.ErrInvalid.
func (s *Service) Batch(ctx context.Context, actor forge.Actor, owner, name string, op Operation, objects []Pointer) ([]BatchObject, error) {
	if op != OpDownload && op != OpUpload {
		return nil, forge.Errorf(forge.ErrInvalid, "unknown operation %q", op)
	}
	upload := op == OpUpload
	repo, err := s.access(ctx, actor, owner, name, upload)
	if err != nil {
		return nil, err
	}
	out := make([]BatchObject, 0, len(objects))
	var incoming int64
	err = s.cfg.Store.View(ctx, func(tx Tx) error {
		for _, p := range objects {
			o := BatchObject{Pointer: p}
			if !p.Valid() {
				o.Error = &ObjectError{Code: 422, Message: "Oid or size are invalid"}
				out = append(out, o)
				continue
			}
			meta, err := tx.MetaObject(ctx, repo.ID, p.Oid)
			if err != nil && !errors.Is(err, forge.ErrNotFound) {
				return err
			}
			switch {
			case meta != nil && meta.Size != p.Size:
				o.Error = &ObjectError{Code: 422, Message: fmt.Sprintf("Object %s is not %d bytes", p.Oid, p.Size)}
			case upload && meta == nil && s.cfg.MaxFileSize > 0 && p.Size > s.cfg.MaxFileSize:
				o.Error = &ObjectError{Code: 422, Message: fmt.Sprintf("Size must be less than or equal to %d", s.cfg.MaxFileSize)}
			case upload:
				o.Upload = meta == nil
				if o.Upload {
					incoming += p.Size
				}
			case meta == nil:
				o.Error = &ObjectError{Code: 404, Message: "Not Found"}
			default:
				o.Download = true
			}
			out = append(out, o)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if upload {
		if err := s.checkQuota(ctx, repo, incoming); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Upload stores the object p of the repository owner/name from r,
// streamed: the bytes are hashed as they are written and a wrong size or
// hash (ErrSizeMismatch, ErrHashMismatch) leaves nothing stored. The
// repository's row and the owner's quota charge (size:git:lfs) are
// written in one transaction; a quota refusal deletes the blob unless
// another repository holds the oid. An object the repository already holds
// is read and verified and changes nothing. Needs write access (see
// access); an invalid pointer is forge.ErrInvalid, an object larger than
// MaxFileSize too.
func (s *Service) Upload(ctx context.Context, actor forge.Actor, owner, name string, p Pointer, r io.Reader) error {
	if !p.Valid() {
		return forge.Errorf(forge.ErrInvalid, "Oid or size are invalid")
	}
	repo, err := s.access(ctx, actor, owner, name, true)
	if err != nil {
		return err
	}
	if s.cfg.MaxFileSize > 0 && p.Size > s.cfg.MaxFileSize {
		return forge.Errorf(forge.ErrInvalid, "Size must be less than or equal to %d", s.cfg.MaxFileSize)
	}
	unlock := s.oids.lock(p.Oid)
	defer unlock()
	var held int64
	var mine bool
	err = s.cfg.Store.View(ctx, func(tx Tx) error {
		_, err := tx.MetaObject(ctx, repo.ID, p.Oid)
		if mine = err == nil; err != nil && !errors.Is(err, forge.ErrNotFound) {
			return err
		}
		held, err = tx.CountOid(ctx, p.Oid)
		return err
	})
	if err != nil {
		return err
	}
	if mine {
		// Already the repository's: the bytes are checked, nothing changes.
		_, err := io.Copy(io.Discard, newVerifyingReader(r, p))
		return err
	}
	// Refused before a byte is stored when the size alone crosses the
	// quota; charged below in the transaction that records the object.
	if err := s.checkQuota(ctx, repo, p.Size); err != nil {
		return err
	}
	// Even a blob already held is sent again and checked: proof that the
	// uploader has the bytes, as Forgejo asks of one without access.
	if _, err := s.cfg.Blobs.Put(ctx, p.BlobKey(), newVerifyingReader(r, p), 0); err != nil {
		return err
	}
	err = s.cfg.Store.Update(ctx, func(tx Tx) error {
		if _, err := tx.MetaObject(ctx, repo.ID, p.Oid); err == nil {
			return nil // already held: nothing to add
		} else if !errors.Is(err, forge.ErrNotFound) {
			return err
		}
		if err := s.charge(ctx, tx, repo, p.Size); err != nil {
			return err
		}
		return tx.CreateMetaObject(ctx, &MetaObject{Pointer: p, RepoID: repo.ID, Created: s.clock.Now()})
	})
	if err != nil && held == 0 {
		if derr := s.cfg.Blobs.Delete(context.WithoutCancel(ctx), p.BlobKey()); derr != nil {
			s.log.DebugContext(ctx, "lfs: delete refused blob", "oid", p.Oid, "err", derr)
		}
	}
	return err
}

// Download returns the bytes of the repository's object oid and its size.
// Needs read access (see access); an object the repository does not hold
// is forge.ErrNotFound. The caller closes the reader.
func (s *Service) Download(ctx context.Context, actor forge.Actor, owner, name, oid string) (io.ReadCloser, *MetaObject, error) {
	repo, err := s.access(ctx, actor, owner, name, false)
	if err != nil {
		return nil, nil, err
	}
	var meta *MetaObject
	err = s.cfg.Store.View(ctx, func(tx Tx) error {
		var err error
		meta, err = tx.MetaObject(ctx, repo.ID, oid)
		return err
	})
	if errors.Is(err, forge.ErrNotFound) {
		return nil, nil, ErrNotFound
	} else if err != nil {
		return nil, nil, err
	}
	rc, err := s.cfg.Blobs.Open(ctx, meta.BlobKey())
	if err != nil {
		return nil, nil, err
	}
	return rc, meta, nil
}

// Verify reports whether the repository holds p with p's size (the batch
// API's verify action). Needs write access (see access); an invalid
// pointer is forge.ErrInvalid; an object missing or of another size is
// forge.ErrNotFound.
func (s *Service) Verify(ctx context.Context, actor forge.Actor, owner, name string, p Pointer) error {
	if !p.Valid() {
		return forge.Errorf(forge.ErrInvalid, "Oid or size are invalid")
	}
	repo, err := s.access(ctx, actor, owner, name, true)
	if err != nil {
		return err
	}
	return s.cfg.Store.View(ctx, func(tx Tx) error {
		meta, err := tx.MetaObject(ctx, repo.ID, p.Oid)
		if errors.Is(err, forge.ErrNotFound) || (err == nil && meta.Size != p.Size) {
			return ErrNotFound
		}
		return err
	})
}

// Objects returns a page of the repository's objects, by oid, and their
// number. Needs read access (see access).
func (s *Service) Objects(ctx context.Context, actor forge.Actor, owner, name string, o forge.ListOptions) ([]*MetaObject, int64, error) {
	repo, err := s.access(ctx, actor, owner, name, false)
	if err != nil {
		return nil, 0, err
	}
	var list []*MetaObject
	var n int64
	err = s.cfg.Store.View(ctx, func(tx Tx) error {
		list, n, err = tx.ListMetaObjects(ctx, repo.ID, o)
		return err
	})
	return list, n, err
}

// Delete removes the repository's object oid, refunding its size to the
// owner's quota, and its blob when no repository holds it any more. Needs
// write access (see access); forge.ErrNotFound if the repository does not
// hold it.
func (s *Service) Delete(ctx context.Context, actor forge.Actor, owner, name, oid string) error {
	repo, err := s.access(ctx, actor, owner, name, true)
	if err != nil {
		return err
	}
	unlock := s.oids.lock(oid)
	defer unlock()
	var left int64
	err = s.cfg.Store.Update(ctx, func(tx Tx) error {
		meta, err := tx.MetaObject(ctx, repo.ID, oid)
		if err != nil {
			return err
		}
		if err := tx.DeleteMetaObject(ctx, repo.ID, oid); err != nil {
			return err
		}
		if err := s.refund(ctx, tx, repo, meta.Size); err != nil {
			return err
		}
		left, err = tx.CountOid(ctx, oid)
		return err
	})
	if err != nil {
		return err
	}
	if left == 0 {
		return s.cfg.Blobs.Delete(ctx, Pointer{Oid: oid}.BlobKey())
	}
	return nil
}
