package blob

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"

	"github.com/hearthforge/hearth/forge"
)

// DefaultS3PartSize is the part size of multipart uploads when
// S3Config.PartSize is zero: the memory one upload of unknown length holds
// at once (S3's minimum part is 5 MiB).
const DefaultS3PartSize = 16 << 20

// s3SinglePut is the largest blob of unknown length sent in one PUT: Put
// reads up to this much before deciding, so small attachments cost one
// request and large ones stream as a multipart upload.
const s3SinglePut = 1 << 20

// S3 is a blob store in a bucket of an S3-compatible object store (AWS S3,
// MinIO, Garage, Ceph RGW, …), with the same contract as Dir: the same
// keys, the same limits, forge.ErrNotFound for a missing blob. A blob
// appears whole or not at all (S3 objects do, and a refused or failed
// upload is aborted). Several servers may share one bucket.
type S3 struct {
	c        *minio.Client
	bucket   string
	prefix   string
	partSize uint64
}

var _ interface {
	Put(ctx context.Context, key string, r io.Reader, max int64) (int64, error)
	Open(ctx context.Context, key string) (io.ReadCloser, error)
	Delete(ctx context.Context, key string) error
} = (*S3)(nil)

// OpenS3 connects to the bucket cfg names and checks that it exists.
// Returns forge.ErrInvalid for an incomplete configuration or a missing
// bucket (with the bucket and endpoint named, never the credentials), and
// the transport's error when the endpoint cannot be reached.
func OpenS3(ctx context.Context, cfg S3Config) (*S3, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	if cfg.AccessKey == "" || cfg.SecretKey == "" {
		return nil, forge.Errorf(forge.ErrInvalid, "blob: s3 credentials missing (set %s and %s)", EnvS3AccessKey, EnvS3SecretKey)
	}
	part := cfg.PartSize
	if part == 0 {
		part = DefaultS3PartSize
	}
	if part < 5<<20 {
		return nil, forge.Errorf(forge.ErrInvalid, "blob: s3 part size %d is below S3's minimum of 5 MiB", part)
	}
	c, err := minio.New(cfg.Endpoint, &minio.Options{
		Creds:     credentials.NewStaticV4(cfg.AccessKey, cfg.SecretKey, cfg.SessionToken),
		Secure:    cfg.Secure,
		Region:    cfg.Region,
		Transport: cfg.Transport,
	})
	if err != nil {
		return nil, forge.Errorf(forge.ErrInvalid, "blob: s3 endpoint %q: %v", cfg.Endpoint, err)
	}
	s := &S3{c: c, bucket: cfg.Bucket, prefix: cfg.Prefix, partSize: part}
	ok, err := c.BucketExists(ctx, cfg.Bucket)
	if err != nil {
		return nil, s.wrap(err, "check bucket")
	}
	if !ok {
		return nil, forge.Errorf(forge.ErrInvalid, "blob: s3 bucket %q does not exist at %s", cfg.Bucket, cfg.Endpoint)
	}
	return s, nil
}

// object maps a key to its object name; keys follow Dir's rules.
func (s *S3) object(key string) (string, error) {
	if len(key) < 3 || strings.ContainsAny(key, `/\`) || strings.Contains(key, "..") {
		return "", forge.Errorf(forge.ErrInvalid, "invalid blob key %q", key)
	}
	return s.prefix + key, nil
}

// errTooLarge ends an upload whose stream passed its limit; the upload is
// aborted and Put answers forge.ErrInvalid.
var errTooLarge = errors.New("blob: stream passed its limit")

// capReader counts what it reads and fails once more than max bytes came
// (max <= 0: no limit).
type capReader struct {
	r   io.Reader
	max int64
	n   int64
}

func (c *capReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	if c.max > 0 && c.n > c.max {
		return n, errTooLarge
	}
	return n, err
}

// Put stores r under key and returns its size. At most max bytes are read
// when max > 0: a longer stream is refused with forge.ErrInvalid and
// nothing is stored (an earlier blob under key stays). The stream is not
// held in memory: a reader with a known length (Len, as bytes.Reader and
// strings.Reader have) goes in one PUT of that length, a stream of unknown
// length up to 1 MiB in one PUT, a longer one as a multipart upload of
// PartSize parts.
func (s *S3) Put(ctx context.Context, key string, r io.Reader, max int64) (int64, error) {
	name, err := s.object(key)
	if err != nil {
		return 0, err
	}
	opts := minio.PutObjectOptions{ContentType: "application/octet-stream", PartSize: s.partSize}
	if l, ok := r.(interface{ Len() int }); ok {
		size := int64(l.Len())
		if max > 0 && size > max {
			return 0, forge.Errorf(forge.ErrInvalid, "blob is larger than %d bytes", max)
		}
		cr := &capReader{r: r, max: max}
		if _, err := s.c.PutObject(ctx, s.bucket, name, cr, size, opts); err != nil {
			return 0, s.putError(ctx, cr, err, max, key)
		}
		return size, nil
	}
	cr := &capReader{r: r, max: max}
	head, err := io.ReadAll(io.LimitReader(cr, s3SinglePut+1))
	if err != nil {
		return 0, s.putError(ctx, cr, err, max, key)
	}
	if len(head) <= s3SinglePut {
		if _, err := s.c.PutObject(ctx, s.bucket, name, bytes.NewReader(head), int64(len(head)), opts); err != nil {
			return 0, s.putError(ctx, cr, err, max, key)
		}
		return int64(len(head)), nil
	}
	if _, err := s.c.PutObject(ctx, s.bucket, name, io.MultiReader(bytes.NewReader(head), cr), -1, opts); err != nil {
		return 0, s.putError(ctx, cr, err, max, key)
	}
	return cr.n, nil
}

// putError maps a failed upload: too long is forge.ErrInvalid, a done
// context its error, anything else the store's error.
func (s *S3) putError(ctx context.Context, cr *capReader, err error, max int64, key string) error {
	if errors.Is(err, errTooLarge) || (cr.max > 0 && cr.n > cr.max) {
		return forge.Errorf(forge.ErrInvalid, "blob is larger than %d bytes", max)
	}
	if cerr := ctx.Err(); cerr != nil {
		return cerr
	}
	return s.wrap(err, "put "+key)
}

// Open returns the blob under key; forge.ErrNotFound if there is none.
// It makes one GET and streams its body. The reader also seeks
// (io.ReadSeeker, as Dir's files do): a read after a seek is a ranged
// GET, so http.ServeContent answers Range requests without reading the
// whole object.
func (s *S3) Open(ctx context.Context, key string) (io.ReadCloser, error) {
	name, err := s.object(key)
	if err != nil {
		return nil, err
	}
	body, info, _, err := minio.Core{Client: s.c}.GetObject(ctx, s.bucket, name, minio.GetObjectOptions{})
	if err != nil {
		if minio.ToErrorResponse(err).Code == minio.NoSuchKey {
			return nil, forge.Errorf(forge.ErrNotFound, "blob does not exist [key: %s]", key)
		}
		return nil, s.wrap(err, "open "+key)
	}
	return &s3Reader{s: s, ctx: ctx, key: key, name: name, size: info.Size, body: body}, nil
}

// s3Reader streams an object: body is positioned at bodyOff; a read at
// another offset (after a seek) replaces it with a ranged GET.
type s3Reader struct {
	s         *S3
	ctx       context.Context
	key, name string
	size      int64
	off       int64
	body      io.ReadCloser
	bodyOff   int64
}

func (r *s3Reader) Read(p []byte) (int, error) {
	if r.off >= r.size {
		return 0, io.EOF
	}
	if r.body != nil && r.bodyOff != r.off {
		r.body.Close()
		r.body = nil
	}
	if r.body == nil {
		opts := minio.GetObjectOptions{}
		if err := opts.SetRange(r.off, r.size-1); err != nil {
			return 0, err
		}
		body, _, _, err := minio.Core{Client: r.s.c}.GetObject(r.ctx, r.s.bucket, r.name, opts)
		if err != nil {
			return 0, r.s.wrap(err, "read "+r.key)
		}
		r.body, r.bodyOff = body, r.off
	}
	n, err := r.body.Read(p)
	r.off += int64(n)
	r.bodyOff = r.off
	if err == io.EOF && r.off < r.size {
		err = io.ErrUnexpectedEOF
	}
	return n, err
}

func (r *s3Reader) Seek(offset int64, whence int) (int64, error) {
	switch whence {
	case io.SeekStart:
	case io.SeekCurrent:
		offset += r.off
	case io.SeekEnd:
		offset += r.size
	default:
		return 0, fmt.Errorf("blob: seek: invalid whence %d", whence)
	}
	if offset < 0 {
		return 0, fmt.Errorf("blob: seek: negative position %d", offset)
	}
	r.off = offset
	return offset, nil
}

func (r *s3Reader) Close() error {
	if r.body == nil {
		return nil
	}
	err := r.body.Close()
	r.body = nil
	return err
}

// Delete removes the blob under key; no error if it is already gone.
func (s *S3) Delete(ctx context.Context, key string) error {
	name, err := s.object(key)
	if err != nil {
		return err
	}
	if err := s.c.RemoveObject(ctx, s.bucket, name, minio.RemoveObjectOptions{}); err != nil {
		if minio.ToErrorResponse(err).Code == minio.NoSuchKey {
			return nil
		}
		return s.wrap(err, "delete "+key)
	}
	return nil
}

// List calls fn for every blob in the store, in key order, for the orphan
// sweeper (blob.Lister). Objects under the prefix whose names are not blob
// keys (other tools' objects) are skipped; unfinished multipart uploads
// are not blobs and are not listed (see RemoveStaleUploads). An error from
// fn stops the listing and is returned; so is ctx's error when it ends,
// and a store failure, wrapped.
func (s *S3) List(ctx context.Context, fn func(Info) error) error {
	lctx, cancel := context.WithCancel(ctx)
	defer cancel() // ends the listing goroutine when fn stops early
	for o := range s.c.ListObjects(lctx, s.bucket, minio.ListObjectsOptions{Prefix: s.prefix, Recursive: true}) {
		if o.Err != nil {
			if err := ctx.Err(); err != nil {
				return err
			}
			return s.wrap(o.Err, "list")
		}
		key := strings.TrimPrefix(o.Key, s.prefix)
		if _, err := s.object(key); err != nil {
			continue
		}
		if err := fn(Info{Key: key, Size: o.Size, Modified: o.LastModified.UTC()}); err != nil {
			return err
		}
	}
	return ctx.Err()
}

// RemoveStaleUploads aborts the unfinished multipart uploads under the
// prefix started before cutoff, freeing their parts: a process killed
// during a large Put leaves one behind (a failed Put aborts its own). An
// upload still running started after a cutoff well in the past (the
// sweeper's grace period) and is left alone. It returns how many it
// aborted.
func (s *S3) RemoveStaleUploads(ctx context.Context, cutoff time.Time) (int, error) {
	lctx, cancel := context.WithCancel(ctx)
	defer cancel()
	n := 0
	for u := range s.c.ListIncompleteUploads(lctx, s.bucket, s.prefix, true) {
		if u.Err != nil {
			if minio.ToErrorResponse(u.Err).Code == minio.NoSuchUpload {
				break // some servers (gofakes3) answer so when a bucket never had one
			}
			return n, s.wrap(u.Err, "list uploads")
		}
		if !u.Initiated.Before(cutoff) {
			continue
		}
		if err := (minio.Core{Client: s.c}).AbortMultipartUpload(ctx, s.bucket, u.Key, u.UploadID); err != nil &&
			minio.ToErrorResponse(err).Code != minio.NoSuchUpload {
			return n, s.wrap(err, "abort upload of "+u.Key)
		}
		n++
	}
	return n, ctx.Err()
}

// wrap names the bucket in a store error and makes a missing bucket say
// so plainly (it is a configuration fault, not a missing blob).
func (s *S3) wrap(err error, op string) error {
	resp := minio.ToErrorResponse(err)
	switch {
	case resp.Code == minio.NoSuchBucket:
		return fmt.Errorf("blob: s3 %s: bucket %q does not exist", op, s.bucket)
	case resp.Code == "AccessDenied" || resp.Code == "InvalidAccessKeyId" || resp.Code == "SignatureDoesNotMatch" ||
		resp.StatusCode == http.StatusForbidden:
		return fmt.Errorf("blob: s3 %s in bucket %q: access denied (%s): check the credentials", op, s.bucket, resp.Code)
	}
	return fmt.Errorf("blob: s3 %s in bucket %q: %w", op, s.bucket, err)
}
