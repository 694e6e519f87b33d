package packages

import (
	"context"
	"crypto/md5"
	"crypto/rand"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"errors"
	"hash"
	"io"
	"log/slog"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/quota"
)

// Config configures a Service. Store and Blobs are required; every other
// zero value is a working default.
type Config struct {
	Store Store
	// Blobs holds the files' bytes (storage/blob.Dir).
	Blobs Blobs
	// Orgs tells whether the actor owns or belongs to an organisation
	// (orgs.Service). Nil: organisations' packages are read as a
	// non-member reads them, and written by site administrators only.
	Orgs OrgRole
	// Repos resolves a repository for linking (repos.Service). Nil refuses
	// links (forge.ErrPrecondition).
	Repos RepoAccess
	// MaxFileSize refuses larger files (forge.ErrInvalid); 0 means no
	// limit.
	MaxFileSize int64
	// Quota is the quota configuration every write is charged under
	// (quota.Charge); its zero value (disabled) still keeps the counters.
	Quota quota.Config
	// Clock stamps creations. Nil means forge.SystemClock.
	Clock forge.Clock
	// Logger receives debug lines. Nil discards.
	Logger *slog.Logger
}

// Blobs is the blob store the files' bytes live in: storage/blob.Dir. Put
// must be atomic.
type Blobs interface {
	Put(ctx context.Context, key string, r io.Reader, max int64) (int64, error)
	Open(ctx context.Context, key string) (io.ReadCloser, error)
	Delete(ctx context.Context, key string) error
}

// OrgRole is orgs.Service.MemberRole.
type OrgRole interface {
	MemberRole(ctx context.Context, actor forge.Actor, org string) (o *forge.User, owner, member bool, err error)
}

// RepoAccess is repos.Service.RepoAccess.
type RepoAccess interface {
	RepoAccess(ctx context.Context, actor forge.Actor, owner, name string) (*forge.Repository, forge.Permission, error)
}

// Service is the package registry. It is safe for concurrent use.
type Service struct {
	cfg   Config
	clock forge.Clock
	log   *slog.Logger
}

// New returns a Service for cfg; forge.ErrInvalid without Store or Blobs.
func New(cfg Config) (*Service, error) {
	if cfg.Store == nil || cfg.Blobs == nil {
		return nil, forge.Errorf(forge.ErrInvalid, "packages: Config.Store and Blobs are required")
	}
	s := &Service{cfg: cfg, clock: forge.ClockOrSystem(cfg.Clock), log: cfg.Logger}
	if s.log == nil {
		s.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return s, nil
}

// Errors with Forgejo's messages.
var (
	ErrOwnerNotFound   = forge.Errorf(forge.ErrNotFound, "user does not exist")
	ErrPackageNotFound = forge.Errorf(forge.ErrNotFound, "package does not exist")
	ErrFileNotFound    = forge.Errorf(forge.ErrNotFound, "package file does not exist")
	ErrDuplicateFile   = forge.Errorf(forge.ErrConflict, "package file already exists")
	// ErrNoAccess is Forgejo's reqPackageAccess refusal.
	ErrNoAccess = forge.Errorf(forge.ErrForbidden, "user should have specific permission or be a site admin")
)

// Access is what the actor may do with an owner's packages.
type Access struct {
	Owner *forge.User
	Mode  forge.AccessMode
}

// access resolves the owner named ownerName and the actor's access to its
// packages (Forgejo's determineAccessMode), after the account state and
// token scope for level (read:package or write:package): the user itself
// and site administrators own; an organisation's owners own and its
// members read; anyone who may see the owner reads. An owner the actor may
// not see is ErrOwnerNotFound. want above the access is ErrNoAccess, or
// forge.ErrUnauthenticated for an anonymous actor.
func (s *Service) access(ctx context.Context, actor forge.Actor, ownerName string, want forge.AccessMode) (*forge.User, error) {
	level := forge.AccessRead
	if want >= forge.AccessModeWrite {
		level = forge.AccessWrite
	}
	if err := actor.Check(level, forge.CategoryPackage); err != nil {
		return nil, err
	}
	var owner *forge.User
	err := s.cfg.Store.View(ctx, func(tx Tx) error {
		var err error
		owner, err = tx.UserByName(ctx, ownerName)
		return err
	})
	if errors.Is(err, forge.ErrNotFound) {
		return nil, ErrOwnerNotFound
	} else if err != nil {
		return nil, err
	}
	mode := forge.AccessNone
	switch {
	case actor.IsSiteAdmin():
		mode = forge.AccessModeOwner
	case owner.Type == forge.UserTypeOrganization && s.cfg.Orgs != nil:
		_, isOwner, member, err := s.cfg.Orgs.MemberRole(ctx, actor, owner.Name)
		if errors.Is(err, forge.ErrNotFound) {
			return nil, ErrOwnerNotFound
		} else if err != nil {
			return nil, err
		}
		switch {
		case isOwner:
			mode = forge.AccessModeOwner
		case member || visible(owner, actor):
			mode = forge.AccessModeRead
		}
	case actor.UserID() == owner.ID:
		mode = forge.AccessModeOwner
	case visible(owner, actor):
		mode = forge.AccessModeRead
	}
	switch {
	case mode == forge.AccessNone:
		return nil, ErrOwnerNotFound
	case mode < want && !actor.IsSignedIn():
		return nil, forge.Errorf(forge.ErrUnauthenticated, "reqPackageAccess")
	case mode < want:
		return nil, ErrNoAccess
	}
	return owner, nil
}

// visible reports whether the actor may see owner by its visibility alone.
func visible(owner *forge.User, actor forge.Actor) bool {
	switch owner.Visibility {
	case forge.VisibilityLimited:
		return actor.IsSignedIn()
	case forge.VisibilityPrivate:
		return false
	}
	return true
}

// hashingReader computes the four digests of Forgejo's package files while
// the bytes stream through.
type hashingReader struct {
	r                       io.Reader
	md5, sha1, sha256, s512 hash.Hash
	w                       io.Writer
}

func newHashingReader(r io.Reader) *hashingReader {
	h := &hashingReader{r: r, md5: md5.New(), sha1: sha1.New(), sha256: sha256.New(), s512: sha512.New()}
	h.w = io.MultiWriter(h.md5, h.sha1, h.sha256, h.s512)
	return h
}

func (h *hashingReader) Read(b []byte) (int, error) {
	n, err := h.r.Read(b)
	h.w.Write(b[:n])
	return n, err
}

func (h *hashingReader) fill(f *File) {
	f.MD5 = hex.EncodeToString(h.md5.Sum(nil))
	f.SHA1 = hex.EncodeToString(h.sha1.Sum(nil))
	f.SHA256 = hex.EncodeToString(h.sha256.Sum(nil))
	f.SHA512 = hex.EncodeToString(h.s512.Sum(nil))
}

// newBlobKey returns a fresh key for a file's bytes.
func newBlobKey() string {
	var b [16]byte
	rand.Read(b[:])
	return "pkg-" + hex.EncodeToString(b[:])
}
