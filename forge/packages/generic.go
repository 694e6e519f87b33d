package packages

import (
	"context"
	"errors"
	"io"

	"github.com/hearthforge/hearth/forge"
)

// UploadGeneric stores a file of the generic package name at version of
// the owner named owner, creating the package and the version as needed
// (routers/api/packages/generic UploadPackage). The bytes stream into the
// blob store while hashed; the rows and the owner's quota charge
// (size:assets:packages:all) are written in one transaction, and the blob
// is deleted again if it fails, so a refusal stores nothing. Errors:
// forge.ErrInvalid (`invalid package name`, `invalid filename`, `invalid
// package version`, a file above MaxFileSize), ErrDuplicateFile, the
// access errors (write access; see access), the quota error.
func (s *Service) UploadGeneric(ctx context.Context, actor forge.Actor, owner, name, version, filename string, r io.Reader) (*File, error) {
	switch {
	case !ValidGenericName(name):
		return nil, forge.Errorf(forge.ErrInvalid, "invalid package name")
	case !ValidGenericFilename(filename):
		return nil, forge.Errorf(forge.ErrInvalid, "invalid filename")
	case !ValidGenericVersion(version):
		return nil, forge.Errorf(forge.ErrInvalid, "invalid package version")
	}
	o, err := s.access(ctx, actor, owner, forge.AccessModeWrite)
	if err != nil {
		return nil, err
	}
	now := s.clock.Now()
	f := &File{Name: filename, BlobKey: newBlobKey(), Created: now}
	h := newHashingReader(r)
	if f.Size, err = s.cfg.Blobs.Put(ctx, f.BlobKey, h, s.cfg.MaxFileSize); err != nil {
		return nil, err
	}
	h.fill(f)
	err = s.cfg.Store.Update(ctx, func(tx Tx) error {
		p, err := tx.PackageByName(ctx, o.ID, TypeGeneric, name)
		if errors.Is(err, forge.ErrNotFound) {
			p = &Package{OwnerID: o.ID, Type: TypeGeneric, Name: name, Created: now}
			err = tx.CreatePackage(ctx, p)
		}
		if err != nil {
			return err
		}
		v, err := tx.VersionByName(ctx, p.ID, version)
		if errors.Is(err, forge.ErrNotFound) {
			v = &Version{PackageID: p.ID, CreatorID: actor.UserID(), Version: version, Created: now}
			err = tx.CreateVersion(ctx, v)
		}
		if err != nil {
			return err
		}
		f.VersionID = v.ID
		if err := tx.CreateFile(ctx, f); errors.Is(err, forge.ErrConflict) {
			return ErrDuplicateFile
		} else if err != nil {
			return err
		}
		return s.charge(ctx, tx, o, f.Size)
	})
	if err != nil {
		if derr := s.cfg.Blobs.Delete(context.WithoutCancel(ctx), f.BlobKey); derr != nil {
			s.log.DebugContext(ctx, "packages: delete refused blob", "key", f.BlobKey, "err", derr)
		}
		return nil, err
	}
	return f, nil
}

// DownloadGeneric returns a file of a generic package and its bytes; the
// caller closes the reader. ErrPackageNotFound for a missing package or
// version, ErrFileNotFound for a missing file, the access errors (read).
func (s *Service) DownloadGeneric(ctx context.Context, actor forge.Actor, owner, name, version, filename string) (io.ReadCloser, *File, error) {
	o, err := s.access(ctx, actor, owner, forge.AccessModeRead)
	if err != nil {
		return nil, nil, err
	}
	var f *File
	err = s.cfg.Store.View(ctx, func(tx Tx) error {
		_, v, err := s.version(ctx, tx, o, TypeGeneric, name, version)
		if err != nil {
			return err
		}
		f, err = tx.FileByName(ctx, v.ID, filename)
		if errors.Is(err, forge.ErrNotFound) {
			return ErrFileNotFound
		}
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	rc, err := s.cfg.Blobs.Open(ctx, f.BlobKey)
	if err != nil {
		return nil, nil, err
	}
	return rc, f, nil
}

// DeleteGenericFile deletes one file of a generic package's version, and
// the version with it when it was its last file (DeletePackageFile),
// refunding the owner's quota. ErrPackageNotFound, ErrFileNotFound, the
// access errors (write).
func (s *Service) DeleteGenericFile(ctx context.Context, actor forge.Actor, owner, name, version, filename string) error {
	o, err := s.access(ctx, actor, owner, forge.AccessModeWrite)
	if err != nil {
		return err
	}
	var gone []string
	err = s.cfg.Store.Update(ctx, func(tx Tx) error {
		p, v, err := s.version(ctx, tx, o, TypeGeneric, name, version)
		if err != nil {
			return err
		}
		f, err := tx.FileByName(ctx, v.ID, filename)
		if errors.Is(err, forge.ErrNotFound) {
			return ErrFileNotFound
		} else if err != nil {
			return err
		}
		files, err := tx.ListFiles(ctx, v.ID)
		if err != nil {
			return err
		}
		if len(files) == 1 {
			gone, err = s.removeVersion(ctx, tx, o, p, v)
			return err
		}
		if err := tx.DeleteFile(ctx, f.ID); err != nil {
			return err
		}
		gone = []string{f.BlobKey}
		return s.refund(ctx, tx, o, f.Size)
	})
	if err != nil {
		return err
	}
	s.deleteBlobs(ctx, gone)
	return nil
}

// version returns a package's version; ErrPackageNotFound if either is
// missing.
func (s *Service) version(ctx context.Context, tx Tx, o *forge.User, typ Type, name, version string) (*Package, *Version, error) {
	p, err := tx.PackageByName(ctx, o.ID, typ, name)
	if errors.Is(err, forge.ErrNotFound) {
		return nil, nil, ErrPackageNotFound
	} else if err != nil {
		return nil, nil, err
	}
	v, err := tx.VersionByName(ctx, p.ID, version)
	if errors.Is(err, forge.ErrNotFound) {
		return nil, nil, ErrPackageNotFound
	}
	return p, v, err
}

// removeVersion deletes a version with its files, and its package when it
// was the last version, refunding the owner's quota; it returns the blob
// keys to delete once committed.
func (s *Service) removeVersion(ctx context.Context, tx Tx, o *forge.User, p *Package, v *Version) ([]string, error) {
	files, err := tx.ListFiles(ctx, v.ID)
	if err != nil {
		return nil, err
	}
	var keys []string
	var size int64
	for _, f := range files {
		keys = append(keys, f.BlobKey)
		size += f.Size
	}
	if err := tx.DeleteVersion(ctx, v.ID); err != nil {
		return nil, err
	}
	n, err := tx.CountVersions(ctx, p.ID)
	if err != nil {
		return nil, err
	}
	if n == 0 {
		if err := tx.DeletePackage(ctx, p.ID); err != nil {
			return nil, err
		}
	}
	return keys, s.refund(ctx, tx, o, size)
}

// deleteBlobs deletes committed deletions' blobs; a failure leaves an
// orphan blob, logged.
func (s *Service) deleteBlobs(ctx context.Context, keys []string) {
	for _, k := range keys {
		if err := s.cfg.Blobs.Delete(context.WithoutCancel(ctx), k); err != nil {
			s.log.DebugContext(ctx, "packages: delete blob", "key", k, "err", err)
		}
	}
}
