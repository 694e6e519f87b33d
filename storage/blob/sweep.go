package blob

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// RefTx reads the rows that point at blobs. Storage backends implement it
// (storage/sqlite, storage/memstore; storage/storetest checks them).
type RefTx interface {
	// ReferencedBlobKeys returns every blob key a row points at, each
	// once, in no particular order: issue and comment attachments,
	// release assets (not external links), repository and organisation
	// avatars, LFS objects, package files and Actions artifacts. A key
	// whose blob is gone (an expired artifact) may be included.
	ReferencedBlobKeys(ctx context.Context) ([]string, error)
}

// RefStore runs read transactions over the rows that point at blobs.
type RefStore interface {
	View(ctx context.Context, fn func(RefTx) error) error
}

// Lister is a blob store the sweeper can list and delete from (Dir is).
type Lister interface {
	List(ctx context.Context, fn func(Info) error) error
	Delete(ctx context.Context, key string) error
}

// staleUploads is the optional part of a Lister that holds temporary
// files of uploads cut off by a crash (Dir does).
type staleUploads interface {
	RemoveStaleUploads(ctx context.Context, cutoff time.Time) (int, error)
}

// DefaultGrace is the grace period of a Sweeper whose Grace is zero.
const DefaultGrace = time.Hour

// Sweeper deletes orphan blobs: bytes no row points at. Every writer of a
// blob writes the bytes first and commits the row pointing at them after
// (so that a row never lacks its bytes); a crash in between leaves an
// orphan, invisible but taking space.
//
// The grace period is what makes sweeping safe while the server runs: a
// blob whose row is being written right now has no row yet, and is only
// spared because it is younger than Grace. Grace must therefore exceed the
// longest time between the end of a blob's write and the commit of its row
// (a transaction, normally milliseconds; the default is one hour). Only a
// sweep with no writer running (the server stopped) may use a grace of 0.
type Sweeper struct {
	Blobs Lister
	Refs  RefStore
	// Grace is how old an unreferenced blob must be before Run deletes
	// it; zero is DefaultGrace.
	Grace time.Duration
	// Clock tells the time; nil is forge.SystemClock.
	Clock forge.Clock
	// After returns a channel that receives once d has passed on Clock;
	// nil is time.After (tests pass a fake driven by their fake clock).
	After  func(d time.Duration) <-chan time.Time
	Logger *slog.Logger
}

// SweepResult is what one sweep did.
type SweepResult struct {
	Blobs      int // blobs listed
	Referenced int // of them, named by a row
	Young      int // unreferenced but within the grace period: kept
	Deleted    int // unreferenced and older: deleted
	Uploads    int // stale temporary upload files removed
}

// Sweep deletes every blob no row points at whose bytes were written more
// than olderThan ago; olderThan <= 0 deletes every unreferenced blob
// whatever its age, which is safe only when nothing writes blobs (see
// Sweeper). Blobs are listed before the rows are read, so a row committed
// during the sweep protects its blob. It returns what it did and the first
// error (a failed delete is not retried until the next sweep).
func (s *Sweeper) Sweep(ctx context.Context, olderThan time.Duration) (SweepResult, error) {
	var res SweepResult
	now := forge.ClockOrSystem(s.Clock).Now()
	var candidates []Info
	if err := s.Blobs.List(ctx, func(i Info) error {
		res.Blobs++
		candidates = append(candidates, i)
		return nil
	}); err != nil {
		return res, fmt.Errorf("blob sweep: list: %w", err)
	}
	var keys []string
	if err := s.Refs.View(ctx, func(tx RefTx) error {
		var err error
		keys, err = tx.ReferencedBlobKeys(ctx)
		return err
	}); err != nil {
		return res, fmt.Errorf("blob sweep: referenced keys: %w", err)
	}
	refs := make(map[string]struct{}, len(keys))
	for _, k := range keys {
		refs[k] = struct{}{}
	}
	var firstErr error
	for _, i := range candidates {
		switch _, ok := refs[i.Key]; {
		case ok:
			res.Referenced++
		case olderThan > 0 && i.Modified.After(now.Add(-olderThan)):
			res.Young++
		default:
			if err := s.Blobs.Delete(ctx, i.Key); err != nil {
				if firstErr == nil {
					firstErr = err
				}
				continue
			}
			res.Deleted++
		}
	}
	if su, ok := s.Blobs.(staleUploads); ok {
		cutoff := now.Add(-olderThan)
		if olderThan <= 0 {
			cutoff = time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC) // all of them
		}
		n, err := su.RemoveStaleUploads(ctx, cutoff)
		res.Uploads = n
		if err != nil && firstErr == nil {
			firstErr = err
		}
	}
	return res, firstErr
}

// Run sweeps with the grace period at once and then every interval until
// ctx ends (interval <= 0 returns at once: sweeping is off). Failures are
// logged and retried at the next round. Run one per blob store.
func (s *Sweeper) Run(ctx context.Context, interval time.Duration) error {
	if interval <= 0 {
		return nil
	}
	grace := s.Grace
	if grace <= 0 {
		grace = DefaultGrace
	}
	after := s.After
	if after == nil {
		after = time.After
	}
	log := s.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	for {
		res, err := s.Sweep(ctx, grace)
		switch {
		case err != nil && ctx.Err() == nil:
			log.WarnContext(ctx, "blob sweep failed", "err", err, "deleted", res.Deleted)
		case err == nil && (res.Deleted > 0 || res.Uploads > 0):
			log.InfoContext(ctx, "blob sweep", "blobs", res.Blobs, "deleted", res.Deleted, "young", res.Young, "uploads", res.Uploads)
		}
		select {
		case <-ctx.Done():
			return nil
		case <-after(interval):
		}
	}
}
