package main

import (
	"context"
	"log/slog"
	"time"

	"github.com/hearthforge/hearth/storage/blob"
)

// startBlobSweeper deletes orphan blobs (bytes a crash left without their
// row) every interval, sparing those younger than blob.DefaultGrace (the
// blob of an upload whose row is being committed right now). interval 0
// turns it off. The returned function stops it and waits for it.
func startBlobSweeper(ctx context.Context, db interface{ BlobRefs() blob.RefStore }, blobs blob.Lister, interval time.Duration, log *slog.Logger) (stop func()) {
	if interval <= 0 {
		return func() {}
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	s := &blob.Sweeper{Blobs: blobs, Refs: db.BlobRefs(), Logger: log}
	go func() {
		defer close(done)
		s.Run(ctx, interval)
	}()
	return func() { cancel(); <-done }
}
